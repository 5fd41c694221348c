# SPDX-License-Identifier: MIT
"""Runs the tests of FILE selected by the pytest -k EXPR under pytest.

usage: run_pytest.py FILE EXPR
Exit 77 (meson: skipped) with the reason when pytest cannot be imported
or when every selected test skipped; else pytest's status.
"""
import sys

try:
    import pytest
except ImportError as e:
    print("skip: pytest cannot be imported (python3-pytest): %s" % e)
    sys.exit(77)


class Count:
    def __init__(self):
        self.ran = self.skipped = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and not report.skipped:
            self.ran += 1
        if report.skipped:
            self.skipped += 1


c = Count()
rc = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", sys.argv[1], "-k",
                  sys.argv[2]], plugins=[c])
if rc == 0 and c.ran == 0 and c.skipped:
    print("skip: every selected test skipped (reasons above)")
    sys.exit(77)
sys.exit(int(rc))
