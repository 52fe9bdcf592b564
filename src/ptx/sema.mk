# PTX semantic queries: what an instruction means for race detection (src/ptx/ptx_sema.h).
CORE_SRCS += src/ptx/ptx_sema.c
UNIT_TESTS += test_ptx_sema
