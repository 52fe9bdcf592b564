CLI_SRCS += src/cli/scord.c
