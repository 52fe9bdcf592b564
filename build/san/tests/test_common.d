build/san/tests/test_common: tests/unit/test_common.c \
 src/common/sc_arena.h src/common/sc_defs.h src/common/sc_buf.h \
 src/common/sc_err.h tests/sc_test.h
src/common/sc_arena.h:
src/common/sc_defs.h:
src/common/sc_buf.h:
src/common/sc_err.h:
tests/sc_test.h:
