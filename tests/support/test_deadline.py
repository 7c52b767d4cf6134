"""A hung test fails with its own reason, well before CTest's TIMEOUT.

CTest kills a test at its TIMEOUT and says only "Timeout". A test whose
CMake registration gives it a usual time (arizuko_test_usual_time,
cmake/ArizukoStrict.cmake) gets ARIZUKO_TEST_DEADLINE, about three times
that; when it passes, the test prints where every thread was and the test
that was running fails with TestDeadline. The signal interrupts whatever the
main thread waits on (a subprocess, a socket, a sleep), and the exception
unwinds through the test's own cleanups, so its VMs and engines are ended
as after any other failure. CTest's TIMEOUT stays as the last resort for a
test whose cleanup hangs too.
"""

import faulthandler
import os
import signal
import sys


class TestDeadline(AssertionError):
    pass


def arm():
    seconds = int(os.environ.get("ARIZUKO_TEST_DEADLINE", "0"))
    if seconds <= 0:
        return

    def expire(_signum, _frame):
        # Once: a cleanup that takes long after this is CTest's to end.
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        sys.stderr.write(f"FAILED: the test passed its deadline of {seconds} s (about three "
                         "times its usual time); where each thread was:\n")
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        raise TestDeadline(f"the test passed its deadline of {seconds} s")

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
