#!/usr/bin/env python3
"""The test deadline (test_deadline.py): a Python test that hangs past
ARIZUKO_TEST_DEADLINE fails with its own reason and the stack it hung in,
its cleanups run, and the next test in the file still runs; without the
variable nothing is armed. Each case runs a real test file in a child
Python, as CTest runs the suite's.
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import unittest_outcome

SUPPORT = pathlib.Path(__file__).parent

HANGING_TEST = textwrap.dedent("""\
    import pathlib, subprocess, sys, unittest
    import unittest_outcome

    class Hangs(unittest.TestCase):
        def test_a_waits_on_a_child_that_never_ends(self):
            self.addCleanup(pathlib.Path(sys.argv[1]).write_text, "cleaned up")
            subprocess.run(["sleep", "600"])

        def test_b_runs_after(self):
            pathlib.Path(sys.argv[2]).write_text("ran")

    if __name__ == "__main__":
        unittest_outcome.run(sys.argv[:1])
    """)


class TestDeadlineTest(unittest.TestCase):
    def run_hanging_test(self, deadline):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        root = pathlib.Path(directory.name)
        script = root / "test_hangs.py"
        script.write_text(HANGING_TEST)
        environment = dict(os.environ, PYTHONPATH=str(SUPPORT))
        environment.pop("ARIZUKO_TEST_DEADLINE", None)
        if deadline:
            environment["ARIZUKO_TEST_DEADLINE"] = str(deadline)
        started = time.monotonic()
        result = subprocess.run([sys.executable, script, root / "cleanup", root / "after"],
                                capture_output=True, text=True, env=environment, timeout=30)
        return result, time.monotonic() - started, root

    def test_a_hang_fails_at_the_deadline_with_its_stack(self):
        result, elapsed, root = self.run_hanging_test(deadline=2)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertLess(elapsed, 20)
        self.assertIn("FAILED: the test passed its deadline of 2 s", result.stderr)
        # The stack names the line the test hung on.
        self.assertIn('subprocess.run(["sleep", "600"])', result.stderr)
        self.assertIn("TestDeadline: the test passed its deadline of 2 s", result.stderr)
        self.assertEqual((root / "cleanup").read_text(), "cleaned up")
        self.assertEqual((root / "after").read_text(), "ran")

    def test_without_a_deadline_nothing_is_armed(self):
        armed = subprocess.run(
            [sys.executable, "-c",
             "import signal, test_deadline; test_deadline.arm(); print(signal.alarm(0))"],
            capture_output=True, text=True, timeout=30,
            env={k: v for k, v in dict(os.environ, PYTHONPATH=str(SUPPORT)).items()
                 if k != "ARIZUKO_TEST_DEADLINE"})
        self.assertEqual(armed.stdout.strip(), "0", armed.stderr)


if __name__ == "__main__":
    unittest_outcome.run(sys.argv)
