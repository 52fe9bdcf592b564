CORE_SRCS += src/fatbin/fatbin_parse.c
