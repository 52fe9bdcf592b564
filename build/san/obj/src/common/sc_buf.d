build/san/obj/src/common/sc_buf.o: src/common/sc_buf.c \
 src/common/sc_buf.h src/common/sc_defs.h
src/common/sc_buf.h:
src/common/sc_defs.h:
