CORE_SRCS += src/common/sc_err.c src/common/sc_buf.c src/common/sc_arena.c
