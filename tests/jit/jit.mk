# tests/jit/jit.mk: kernels compiled while the program runs. test_nvrtc runs a program that
# compiles its kernel with NVRTC to machine code under scord, which must check it through
# the PTX of the same program.
UNIT_TESTS += test_nvrtc
$(BUILD)/tests/test_nvrtc: tests/jit/test_nvrtc.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
# test_triton: a cubin whose PTX Triton's cache holds beside it is checked through that PTX.
UNIT_TESTS += test_triton
$(BUILD)/tests/test_triton: tests/jit/test_triton.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
# test_nvjitlink: a cubin a program linked from one PTX input with nvJitLink is checked
# through that PTX.
UNIT_TESTS += test_nvjitlink
$(BUILD)/tests/test_nvjitlink: tests/jit/test_nvjitlink.sh
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@
