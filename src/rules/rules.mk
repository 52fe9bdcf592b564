# src/rules/rules.mk: the rules are header-only (src/rules/rules.h). The tests build the
# unit test and prove that the header also compiles as CUDA device code (sm_75 PTX).
UNIT_TESTS += test_rules
TEST_DEPS  += $(BUILD)/rules/rules_check.ptx

$(BUILD)/rules/rules_check.ptx: src/rules/rules_check.cu src/rules/rules.h
	@mkdir -p $(dir $@)
	$(NVCC) -arch=sm_75 -ptx -Isrc -Werror all-warnings -o $@ src/rules/rules_check.cu

# The unit-test rule knows only the .c file: rebuild when rules.h changes too.
-include $(BUILD)/tests/test_rules.d
