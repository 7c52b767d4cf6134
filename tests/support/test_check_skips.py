#!/usr/bin/env python3
"""The skip gate (check_skips.py): a skipped test and a run with no test at
all fail it, an allowed skip and a run of passed tests do not. Its reports are
written here, and one comes from real CTest running a GoogleTest binary that
calls GTEST_SKIP() (exit 0) with the suite's own skip properties.

    test_check_skips.py --probe-dir BUILD/tests/support/gtest-skip-probe --ctest ctest
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile
import unittest

import unittest_outcome

CHECKER = pathlib.Path(__file__).with_name("check_skips.py")
ARGS = None


def junit(cases):
    """A CTest-like JUnit report of (name, status) test cases."""
    lines = [f'<testsuite name="t" tests="{len(cases)}">']
    for name, status in cases:
        lines.append(f'<testcase name="{name}" status="{status}">')
        if status != "run":
            lines.append(f'<skipped message="{status}"/>')
        lines.append("</testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


class CheckSkipsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.root = pathlib.Path(self.dir.name)
        self.allowed = self.root / "allowed-skips.txt"
        self.allowed.write_text("# none\n")

    def check(self, report):
        return subprocess.run([sys.executable, str(CHECKER), str(report), str(self.allowed)],
                              capture_output=True, text=True, check=False)

    def write(self, text):
        report = self.root / "report.xml"
        report.write_text(text)
        return report

    def test_passed_tests_pass(self):
        checked = self.check(self.write(junit([("a", "run"), ("b", "run")])))
        self.assertEqual(checked.returncode, 0, checked.stderr)

    def test_a_skipped_test_fails_by_name(self):
        checked = self.check(self.write(junit([("a", "run"), ("b", "notrun")])))
        self.assertEqual(checked.returncode, 1)
        self.assertIn("SKIPPED, not allowed: b", checked.stderr)

    def test_an_allowed_skip_passes(self):
        self.allowed.write_text("b\tthis machine has no b\n")
        checked = self.check(self.write(junit([("a", "run"), ("b", "notrun")])))
        self.assertEqual(checked.returncode, 0, checked.stderr)

    def test_a_run_without_tests_fails(self):
        checked = self.check(self.write(junit([])))
        self.assertEqual(checked.returncode, 1)
        self.assertIn("no test ran", checked.stderr)

    def test_a_missing_report_fails(self):
        checked = self.check(self.root / "no-report.xml")
        self.assertEqual(checked.returncode, 1)
        self.assertIn("no test report at", checked.stderr)

    def run_ctest(self, test_dir):
        report = self.root / "ctest-report.xml"
        ran = subprocess.run([ARGS.ctest, "--test-dir", str(test_dir), "--output-junit",
                              str(report)], capture_output=True, text=True, check=False)
        return ran, report

    def test_gtest_skip_fails_the_gate(self):
        ran, report = self.run_ctest(ARGS.probe_dir)
        # CTest itself passes a run whose tests were skipped.
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        checked = self.check(report)
        self.assertEqual(checked.returncode, 1, ran.stdout + checked.stderr)
        self.assertIn("SKIPPED, not allowed: gtest_skip_probe", checked.stderr)

    def test_ctest_with_no_tests_fails_the_gate(self):
        empty = self.root / "empty-build"
        empty.mkdir()
        (empty / "CTestTestfile.cmake").write_text("# no tests\n")
        ran, report = self.run_ctest(empty)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        checked = self.check(report)
        self.assertEqual(checked.returncode, 1, checked.stderr)
        self.assertIn("no test ran", checked.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe-dir", required=True)
    parser.add_argument("--ctest", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest_outcome.run([sys.argv[0]] + rest)
