"""A turn ends when the user cancels it (within 2 s, even while the VM
boots) or when its deadline passes, and leaves nothing behind either way."""

import pathlib
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402




def qemu_terminated_at(name):
    """When QEMU logged "terminating on signal" for the last run of a domain."""
    log = pathlib.Path("/var/log/libvirt/qemu", name + ".log").read_text(errors="replace")
    lines = [line for line in log.splitlines() if "terminating on signal" in line]
    if not lines:
        raise AssertionError(f"QEMU never logged its termination:\n{log[-2000:]}")
    return h.moment(lines[-1].split(" ", 1)[0].rstrip(":"))


class CancelAndDeadline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()

    def setUp(self):
        self.engine = h.Engine()
        self.engine.add_folder("corp")

    def tearDown(self):
        self.engine.close()

    def wait_for_state(self, state, timeout):
        def reached():
            turns = self.engine.turns() if pathlib.Path(self.engine.data_dir, "arizuko.db").exists() else []
            return next((t for t in turns if t["state"] == state), None)
        return h.wait_for(reached, timeout, what=f"a turn in state {state}")

    def test_cancel_during_boot_takes_effect_within_two_seconds(self):
        run = self.engine.start("run", "--agent", "command", "corp", "sleep 300")
        try:
            turn = self.wait_for_state("booting", 120)
            # The guest is booting once libvirt has started its VM (a cancel
            # that arrives while libvirt still starts QEMU acts when it has).
            h.wait_for(lambda: turn["name"] in h.active_domains(), 60, what="the VM to start")
            self.assertEqual(self.engine.turn(turn["name"])["state"], "booting")
            cancel = self.engine.run("cancel", turn["name"], timeout=30)
            self.assertEqual(cancel.returncode, 0, cancel.stderr)
            self.assertIn("cancelled", cancel.stdout)
            self.assertEqual(run.wait(timeout=30), 1)
        finally:
            run.kill()
            run.communicate()
        turn = self.engine.turn(turn["name"])
        self.assertEqual(turn["state"], "cancelled")
        self.assertIsNone(turn["running_at"], "cancelled while booting")
        requested = h.moment(turn["cancel_requested_at"])
        # The engine acts at once: the proxy is killed and the VM destroyed.
        self.assertLess((h.moment(turn["finishing_at"]) - requested).total_seconds(), 2.0)
        # QEMU's own log says when it was told to stop.
        self.assertLess((qemu_terminated_at(turn["name"]) - requested).total_seconds(), 2.0)
        # The recorded end waits for libvirtd to reap QEMU, which on a host
        # whose PID 1 reaps slowly (this CI sandbox) takes seconds more.
        self.assertLess((h.moment(turn["ended_at"]) - requested).total_seconds(), 10.0)
        left = h.leftovers(turn["name"])
        self.assertEqual(left, {key: [] for key in left})

    def test_the_deadline_fails_the_turn(self):
        started = time.monotonic()
        result = self.engine.run("run", "--deadline", "25", "--agent", "command", "corp", "sleep 300",
                                 timeout=120)
        elapsed = time.monotonic() - started
        self.assertEqual(result.returncode, 1, result.stderr)
        name = h.turn_name_from(result.stderr)
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "failed")
        self.assertEqual(turn["error_code"], "turns.deadline")
        self.assertGreaterEqual(elapsed, 20)
        self.assertLess(elapsed, 40)
        left = h.leftovers(name)
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
