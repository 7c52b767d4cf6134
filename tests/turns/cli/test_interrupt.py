"""Ctrl-C on `arizukoctl run` cancels the turn (it does not kill the engine
mid-teardown): the turn ends cancelled and leaves nothing behind."""

import pathlib
import signal
import stat
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


class Interrupt(unittest.TestCase):
    def setUp(self):
        self.engine = h.Engine({"ARIZUKO_ACCELERATOR": "tcg"})
        self.engine.add_folder("corp")
        parent = self.engine.directory.name
        self.engine.environment["ARIZUKO_GUEST_IMAGE_DIR"] = h.fake_image_directory(parent)
        # This image cannot boot: only classic mode waits for the proxy
        # before it tries, so the turn stays in preparing.
        self.engine.environment["ARIZUKO_FILTER_MODE"] = "classic"
        # A proxy that takes its time keeps the turn in preparing.
        proxy = pathlib.Path(parent, "arizuko-egress")
        proxy.write_text("#!/bin/sh\nexec sleep 600\n")
        proxy.chmod(proxy.stat().st_mode | stat.S_IXUSR)
        self.engine.environment["ARIZUKO_EGRESS_BIN"] = str(proxy)

    def tearDown(self):
        self.engine.close()

    def test_sigint_cancels_the_turn(self):
        run = self.engine.start("run", "--agent", "command", "corp", "true")
        h.wait_for(lambda: any(t["state"] == "preparing" for t in self.engine.turns())
                   if pathlib.Path(self.engine.data_dir, "arizuko.db").exists() else None,
                   30, what="the turn to start preparing")
        run.send_signal(signal.SIGINT)
        _, stderr = run.communicate(timeout=30)
        self.assertEqual(run.returncode, 1, stderr)
        turn = self.engine.turn(h.turn_name_from(stderr))
        self.assertEqual(turn["state"], "cancelled")
        kinds = [e["kind"] for e in self.engine.events(turn["name"])]
        self.assertIn("cancel", kinds)
        left = h.leftovers(turn["name"])
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
