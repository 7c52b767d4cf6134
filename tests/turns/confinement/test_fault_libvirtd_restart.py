"""libvirtd restarted mid-turn: the turn fails cleanly (it ends, failed, with
an error saying what happened, well before its deadline) and nothing of it
is left: no domain, network, bridge, proxy or filter binding.

The test stops the running libvirtd (SIGTERM, as an administrator would)
and starts it again the way it found it started: under `tini -s` as
`./dev setup` starts it where no systemd runs (a daemonized libvirtd would
be reaped late by PID 1 and slow every later domain teardown on this
machine), else through systemd. Whatever happens, libvirtd is running again
when the test ends, and the test checks it runs as setup left it."""

import os
import pathlib
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from confinement_support import h  # noqa: E402

DEADLINE_SECONDS = 90




def libvirtd_pids():
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "libvirtd":
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def libvirtd_answers():
    return h.virsh("version").returncode == 0


def parent_of(pid):
    """(pid, argv) of the process's parent."""
    text = pathlib.Path(f"/proc/{pid}/stat").read_text()
    parent = int(text[text.rindex(")") + 2:].split()[1])
    argv = pathlib.Path(f"/proc/{parent}/cmdline").read_bytes().split(b"\0")[:-1]
    return parent, [a.decode(errors="replace") for a in argv]


def supervision():
    """How the running libvirtd is started: "tini" (under `tini -s`, as
    ./dev setup does without systemd), "systemd", or "daemon"."""
    pids = libvirtd_pids()
    if len(pids) != 1:
        raise AssertionError(f"expected one libvirtd, found {pids}")
    _, argv = parent_of(pids[0])
    if argv and pathlib.Path(argv[0]).name == "tini":
        if "-s" not in argv:
            raise AssertionError(f"libvirtd runs under tini without -s: {argv}")
        return "tini"
    if pathlib.Path("/run/systemd/system").is_dir():
        return "systemd"
    return "daemon"


def start_libvirtd(how):
    """Starts libvirtd as ./dev's start_libvirtd does."""
    if how == "systemd":
        subprocess.run(["systemctl", "start", "libvirtd.service"], check=True, timeout=60)
    elif how == "tini":
        subprocess.run(["sh", "-c", "setsid -f tini -s -- libvirtd </dev/null "
                        ">>/var/log/libvirt/libvirtd-dev.log 2>&1"], check=True, timeout=30)
    else:
        subprocess.run(["libvirtd", "-d"], check=True, timeout=30)


def ensure_libvirtd_running(how):
    if not libvirtd_pids():
        start_libvirtd(how)
    h.wait_for(libvirtd_answers, 60, interval=0.5, what="libvirtd to answer again")


def restart_libvirtd(how):
    """Stops libvirtd and starts it again as it was; returns when it answers."""
    pids = libvirtd_pids()
    if len(pids) != 1:
        raise AssertionError(f"expected one libvirtd, found {pids}")
    os.kill(pids[0], signal.SIGTERM)
    try:
        h.wait_for(lambda: not pathlib.Path(f"/proc/{pids[0]}").exists(), 20, what="libvirtd to stop")
    except AssertionError:
        os.kill(pids[0], signal.SIGKILL)
        h.wait_for(lambda: not pathlib.Path(f"/proc/{pids[0]}").exists(), 10, what="libvirtd to die")
    start_libvirtd(how)
    h.wait_for(libvirtd_answers, 60, interval=0.5, what="the restarted libvirtd to answer")


class LibvirtdRestart(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        cls.supervision_before = supervision()
        h.set_up_engine(cls)

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        run = engine.start("run", "--deadline", str(DEADLINE_SECONDS), "--agent", "command", "corp",
                           "echo before-the-restart; sleep 600")
        try:
            def running():
                turns = engine.turns() if pathlib.Path(engine.data_dir, "arizuko.db").exists() else []
                return next((t for t in turns if t["state"] == "running"), None)
            cls.name = h.wait_for(running, 240, what="a running turn")["name"]
            h.wait_for(lambda: any(e["kind"] == "event" for e in engine.events(cls.name)), 60,
                       what="the first agent output")
            cls.restarted_at = time.time()
            try:
                restart_libvirtd(cls.supervision_before)
            finally:
                ensure_libvirtd_running(cls.supervision_before)
            cls.answered_at = time.time()
            cls.out, cls.err = run.communicate(timeout=DEADLINE_SECONDS + 60)
            cls.returncode = run.returncode
        finally:
            run.kill()
            run.communicate()
        cls.turn = engine.turn(cls.name)
        cls.events = engine.events(cls.name)
        print(f"the turn ended {cls.turn['state']}: {cls.turn['error_code']}: {cls.turn['error']}",
              file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_libvirtd_runs_again(self):
        self.assertTrue(libvirtd_answers())

    def test_libvirtd_runs_as_setup_left_it(self):
        """Under systemd where it runs, else under tini -s as ./dev setup
        starts it: a daemonized libvirtd would slow every later teardown.
        Compared with what setup does, not with what ran before, so a wrong
        daemon before the restart cannot pass."""
        expected = "systemd" if pathlib.Path("/run/systemd/system").is_dir() else "tini"
        self.assertEqual(self.supervision_before, expected, "before the restart")
        self.assertEqual(supervision(), expected,
                         f"libvirtd's parent is now {parent_of(libvirtd_pids()[0])}")

    def test_the_turn_fails_cleanly_before_its_deadline(self):
        self.assertEqual(self.returncode, 1, self.err[-2000:])
        self.assertEqual(self.turn["state"], "failed")
        self.assertTrue(self.turn["error_code"], self.turn)
        self.assertNotEqual(self.turn["error_code"], "turns.deadline",
                            "the engine only noticed at the deadline")
        self.assertLess(h.moment(self.turn["ended_at"]).timestamp() - self.answered_at, 30, self.turn["error"])

    def test_the_events_before_the_restart_are_kept(self):
        lines = [e["json"].get("line") for e in self.events if e["kind"] == "event"]
        self.assertIn("before-the-restart", lines)
        self.assertIn("error", [e["kind"] for e in self.events])

    def test_nothing_of_the_turn_is_left(self):
        def clean():
            left = h.leftovers(self.name)
            return left if not any(left.values()) else None
        try:
            h.wait_for(clean, 30, what="nothing of the turn left")
        except AssertionError:
            self.fail(f"left on the host after the restart: {h.leftovers(self.name)}")


if __name__ == "__main__":
    h.main()
