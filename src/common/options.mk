CORE_SRCS += src/common/sc_options.c
