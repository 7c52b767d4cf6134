"""No healthy proxy, no turn: a proxy that never answers /health, or one that
dies at once, fails the turn before any VM exists (filter mode classic, which
creates the VM after the proxy is healthy) and leaves nothing behind. Mode
pretap creates the VM beside the proxy and holds back its spec instead:
e2e/test_spec_gate.py, with a real guest."""

import os
import pathlib
import stat
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


class ProxyFailClosed(unittest.TestCase):
    def setUp(self):
        self.engine = h.Engine()
        self.engine.add_folder("corp")
        parent = self.engine.directory.name
        self.engine.environment["ARIZUKO_GUEST_IMAGE_DIR"] = h.fake_image_directory(parent)
        self.engine.environment["ARIZUKO_ACCELERATOR"] = "tcg"
        self.engine.environment["ARIZUKO_PROXY_HEALTH_TIMEOUT_MS"] = "1500"
        # This image cannot boot: only classic mode waits for the proxy
        # before it tries.
        self.engine.environment["ARIZUKO_FILTER_MODE"] = "classic"

    def tearDown(self):
        self.engine.close()

    def fake_proxy(self, body):
        # Named like the real one, so the reaper's scan would see it too.
        path = pathlib.Path(self.engine.directory.name, "arizuko-egress")
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        self.engine.environment["ARIZUKO_EGRESS_BIN"] = str(path)
        return path

    def assert_nothing_left(self, name):
        left = h.leftovers(name)
        self.assertEqual(left, {key: [] for key in left}, f"left behind by {name}")

    def test_a_proxy_that_never_becomes_healthy_fails_the_turn(self):
        self.fake_proxy("exec sleep 600")
        started = time.monotonic()
        result = self.engine.run("run", "--agent", "command", "corp", "uname -a", timeout=60)
        elapsed = time.monotonic() - started
        self.assertEqual(result.returncode, 1, result.stderr)
        name = h.turn_name_from(result.stderr)
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "failed")
        self.assertEqual(turn["error_code"], "turns.proxy-unhealthy")
        self.assertIn("did not become healthy within 1.5 s", turn["error"])
        self.assertIsNone(turn["booting_at"], "no VM may start without a healthy proxy")
        self.assertLess(elapsed, 20)
        self.assert_nothing_left(name)

    def test_a_proxy_that_exits_fails_the_turn_with_its_words(self):
        self.fake_proxy("echo 'arizuko-egress: cannot bind' >&2; exit 3")
        result = self.engine.run("run", "--agent", "command", "corp", "uname -a", timeout=60)
        self.assertEqual(result.returncode, 1, result.stderr)
        name = h.turn_name_from(result.stderr)
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "failed")
        self.assertEqual(turn["error_code"], "turns.proxy-unhealthy")
        self.assertIn("exited with status 3", turn["error"])
        self.assertIn("cannot bind", turn["error"])
        self.assertIsNone(turn["booting_at"])
        self.assert_nothing_left(name)

    def test_every_phase_and_the_error_are_recorded_as_events(self):
        self.fake_proxy("exit 1")
        result = self.engine.run("run", "--agent", "command", "corp", "true", timeout=60)
        name = h.turn_name_from(result.stderr)
        events = self.engine.events(name)
        phases = [e["json"]["state"] for e in events if e["kind"] == "phase"]
        self.assertEqual(phases, ["preparing", "finishing", "failed"])
        self.assertEqual([e["seq"] for e in events], list(range(1, len(events) + 1)))
        self.assertIn("error", [e["kind"] for e in events])


if __name__ == "__main__":
    h.main()
