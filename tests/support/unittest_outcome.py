"""The exit status of a Python test file, read by CTest: a skip is never a pass.

0 only when every test ran and passed; SKIP_EXIT_STATUS (every test's
SKIP_RETURN_CODE, cmake/ArizukoStrict.cmake) when none failed but one was
skipped, so CTest shows the file as skipped and `./dev test` fails on it
unless tests/allowed-skips.txt lists it; 1 for a failure or when no test ran.
"""

import sys
import unittest

import test_deadline

SKIP_EXIT_STATUS = 77


def exit_status(result):
    if not result.wasSuccessful():
        return 1
    if result.testsRun == 0:
        sys.stderr.write("FAILED: no test ran\n")
        return 1
    if result.skipped:
        for test, reason in result.skipped:
            sys.stderr.write("SKIPPED: %s: %s\n" % (test.id(), reason))
        return SKIP_EXIT_STATUS
    return 0


def run(argv):
    """unittest.main over `argv`, then exit with exit_status()."""
    test_deadline.arm()
    program = unittest.main(argv=argv, verbosity=2, exit=False)
    sys.exit(exit_status(program.result))
