# tests/devrt/devrt_tests.mk: test_devrt and its test data, built with nvcc at test
# time into $(BUILD)/testdata/devrt: layout.ptx (devrt_state.h as nvcc lays it out)
# and caller.ptx (a kernel calling every function of devrt_abi.h, to link the
# embedded runtime into). Their sources are .cuh compiled with -x cu, so that the PTX
# corpus, which builds every tests/**/*.cu without -Isrc, leaves them alone.

UNIT_TESTS += test_devrt

DEVRT_TD := $(BUILD)/testdata/devrt
TEST_DEPS += $(DEVRT_TD)/layout.ptx $(DEVRT_TD)/caller.ptx

$(DEVRT_TD)/layout.ptx: tests/devrt/layout_probe.cuh tests/devrt/layout_fields.h \
                        $(wildcard src/devrt/*.h src/rules/*.h)
	@mkdir -p $(@D)
	$(NVCC) -x cu -ptx -rdc=true -arch=sm_75 -Isrc -Itests -o $@ $<

$(DEVRT_TD)/caller.ptx: tests/devrt/caller.cuh src/devrt/devrt_abi.h
	@mkdir -p $(@D)
	$(NVCC) -x cu -ptx -rdc=true -arch=sm_75 -Isrc -o $@ $<
