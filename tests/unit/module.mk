UNIT_TESTS += test_common
UNIT_TESTS += test_cache
