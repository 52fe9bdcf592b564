# tests/model/model.mk: the exhaustive model checker of the race rules. The reference
# model is the header tests/model/model_ref.h; the checker is tests/unit/test_model.c
# (SC_MODEL_DEEP=1 in its environment raises every bound by one op per thread).
UNIT_TESTS += test_model
# Its scoped synchronization (fences, release/acquire, locks) on litmus programs.
UNIT_TESTS += test_model_scoped

# The unit-test rule knows only the .c file: rebuild when the headers change too.
-include $(BUILD)/tests/test_model.d $(BUILD)/tests/test_model_scoped.d
