CORE_SRCS += src/common/sc_options.c
UNIT_TESTS += test_options
