build/san/obj/src/common/sc_arena.o: src/common/sc_arena.c \
 src/common/sc_arena.h src/common/sc_defs.h
src/common/sc_arena.h:
src/common/sc_defs.h:
