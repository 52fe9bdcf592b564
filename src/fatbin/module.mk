CORE_SRCS += src/fatbin/fatbin_parse.c src/fatbin/fatbin_inflate.c
CORE_LIBS += -lzstd -llz4
