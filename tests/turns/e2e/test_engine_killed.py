"""kill -9 of the engine mid-turn: libvirt destroys the VM (autodestroy), the
proxy dies with its parent, and the next engine start reaps the network,
marks the turn interrupted and keeps its events."""

import os
import pathlib
import signal
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


class EngineKilled(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()

    def setUp(self):
        self.engine = h.Engine()
        self.engine.add_folder("corp")

    def tearDown(self):
        self.engine.close()

    def test_a_killed_engine_leaves_nothing_after_the_next_start(self):
        run = self.engine.start("run", "--agent", "command", "corp", "echo before-the-kill; sleep 300")
        try:
            def running():
                turns = self.engine.turns() if pathlib.Path(self.engine.data_dir, "arizuko.db").exists() else []
                return next((t for t in turns if t["state"] == "running"), None)
            turn = h.wait_for(running, 180, what="a running turn")
            name = turn["name"]
            h.wait_for(lambda: any(e["kind"] == "event" for e in self.engine.events(name)), 60,
                       what="the first agent output")
            os.kill(run.pid, signal.SIGKILL)
            run.wait(timeout=10)
        finally:
            run.kill()
            run.communicate()

        h.wait_for(lambda: name not in h.active_domains(), 30, what="libvirt to destroy the VM")
        h.wait_for(lambda: not [p for p, t in h.turn_proxy_processes() if t == name], 10,
                   what="the proxy to die with the engine")
        self.assertIn(name, h.active_networks(), "the network outlives the engine until the reaper runs")

        restart = self.engine.run("run", "--agent", "command", "no-such-folder", "true", timeout=120)
        self.assertIn(f"turns {name} interrupted", restart.stderr)
        self.assertIn(name, restart.stderr.split("networks")[1])
        left = h.leftovers(name)
        self.assertEqual(left, {key: [] for key in left})
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "interrupted")
        events = self.engine.events(name)
        self.assertIn("before-the-kill", [e["json"].get("line") for e in events if e["kind"] == "event"])
        self.assertIn("running", [e["json"]["state"] for e in events if e["kind"] == "phase"])


if __name__ == "__main__":
    h.main()
