#!/usr/bin/env bash
# test_sarif.sh: runs tests/sarif/check_sarif.py, which prints the `N passed, N failed`
# line. Run by tests/run_unit.sh from the repository root.
exec python3 tests/sarif/check_sarif.py
