# PTX front end core: lexer, parser, printer, structural equality, queries and edits.
CORE_SRCS += src/ptx/ptx_lex.c src/ptx/ptx_names.c src/ptx/ptx_parse.c src/ptx/ptx_print.c \
             src/ptx/ptx_equal.c src/ptx/ptx_query.c src/ptx/ptx_edit.c
