CORE_SRCS += src/fatbin/fatbin_parse.c src/fatbin/fatbin_inflate.c src/fatbin/fatbin_elf.c \
             src/fatbin/fatbin_extent.c
CORE_LIBS += -lzstd -llz4
UNIT_TESTS += test_fatbin
