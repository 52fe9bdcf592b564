UNIT_TESTS += test_common
