build/san/obj/src/common/sc_err.o: src/common/sc_err.c \
 src/common/sc_err.h src/common/sc_defs.h
src/common/sc_err.h:
src/common/sc_defs.h:
