"""One running turn per topic, across engines: a second turn in a busy topic
waits in the queue until the first ends; a turn in another topic does not."""

import pathlib
import stat
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402




class TopicQueue(unittest.TestCase):
    def setUp(self):
        self.engine = h.Engine({"ARIZUKO_ACCELERATOR": "tcg", "ARIZUKO_PROXY_HEALTH_TIMEOUT_MS": "15000"})
        self.engine.add_folder("corp")
        parent = self.engine.directory.name
        self.engine.environment["ARIZUKO_GUEST_IMAGE_DIR"] = h.fake_image_directory(parent)
        # This image cannot boot: only classic mode waits for the proxy
        # before it tries, so the turn stays in preparing.
        self.engine.environment["ARIZUKO_FILTER_MODE"] = "classic"
        # Each turn holds its topic for ~3 s in preparing, then fails closed.
        proxy = pathlib.Path(parent, "arizuko-egress")
        proxy.write_text("#!/bin/sh\nsleep 3\nexit 1\n")
        proxy.chmod(proxy.stat().st_mode | stat.S_IXUSR)
        self.engine.environment["ARIZUKO_EGRESS_BIN"] = str(proxy)

    def tearDown(self):
        self.engine.close()

    def test_a_busy_topic_queues_the_next_turn_and_another_topic_runs(self):
        first = self.engine.start("run", "--topic", "t1", "--agent", "command", "corp", "true")
        h.wait_for(lambda: any(t["state"] == "preparing" for t in self.engine.turns())
                   if pathlib.Path(self.engine.data_dir, "arizuko.db").exists() else None,
                   30, what="the first turn to start")
        second = self.engine.start("run", "--topic", "t1", "--agent", "command", "corp", "true")
        other = self.engine.start("run", "--topic", "t2", "--agent", "command", "corp", "true")
        outputs = [process.communicate(timeout=60) for process in (first, second, other)]
        names = [h.turn_name_from(err) for _, err in outputs]
        first_turn, second_turn, other_turn = (self.engine.turn(name) for name in names)
        self.assertGreaterEqual(h.moment(second_turn["preparing_at"]), h.moment(first_turn["ended_at"]),
                                "the second turn of t1 started before the first ended")
        self.assertLess(h.moment(other_turn["preparing_at"]), h.moment(first_turn["ended_at"]),
                        "a turn in another topic waited for t1")
        for turn in (first_turn, second_turn, other_turn):
            self.assertEqual(turn["state"], "failed")


if __name__ == "__main__":
    h.main()
