# tests/instr/instr.mk: tests of the instrumentation pass (tests/unit/test_instr.c).
#   tests/instr/golden/NAME.ptx      hand-written inputs; NAME.expected is the instrumented
#                                    module followed by its site table as // comments
#   tests/instr/runtime_stub.ptx     a stand-in device runtime with devrt_abi.h's signatures
#   tests/instr/cuda/NAME.cu         realistic kernels, built here for sm_75 with -lineinfo and
#                                    with -G into $(BUILD)/testdata/instr/NAME.sm_75.{lineinfo,G}.ptx
#                                    (tests/ptx/corpus.mk also builds them into the corpus, which
#                                    the test instruments whole)
UNIT_TESTS += test_instr

INSTR_TEST_DIR := $(BUILD)/testdata/instr
INSTR_TEST_FLAGS_lineinfo := -lineinfo
INSTR_TEST_FLAGS_G := -G

# $(call instr_test_rule,source,variant)
define instr_test_rule
$(INSTR_TEST_DIR)/$(basename $(notdir $(1))).sm_75.$(2).ptx: $(1) tests/instr/instr.mk
	@mkdir -p $$(@D)
	$(NVCC) -ptx -arch=sm_75 $(INSTR_TEST_FLAGS_$(2)) -o $$@ $(1)
INSTR_TEST_DATA += $(INSTR_TEST_DIR)/$(basename $(notdir $(1))).sm_75.$(2).ptx
endef

INSTR_TEST_DATA :=
$(foreach s,$(sort $(wildcard tests/instr/cuda/*.cu)),$(foreach v,lineinfo G,$(eval $(call instr_test_rule,$(s),$(v)))))
TEST_DEPS += $(INSTR_TEST_DATA)
