PRELOAD_SRCS += src/intercept/intercept_compile.c
