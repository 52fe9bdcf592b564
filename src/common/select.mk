CORE_SRCS += src/common/sc_select.c
UNIT_TESTS += test_select
