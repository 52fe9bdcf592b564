CORE_SRCS += src/common/sc_sha256.c src/common/sc_cache.c
