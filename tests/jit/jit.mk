# tests/jit/jit.mk: test_nvrtc runs a program that compiles its kernel with NVRTC to
# machine code under scord, which must check it through the PTX of the same program.
UNIT_TESTS += test_nvrtc
$(BUILD)/tests/test_nvrtc: tests/jit/test_nvrtc.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
