UNIT_TESTS += test_common test_instr_cfg
UNIT_TESTS += test_cache
