"""One turn per topic, with real turns that boot: the second turn of a
topic, started while the first runs, is prepared only once the first has
ended. The timestamps are the ones `arizukoctl turns --json` reports.

(tests/turns/cli/test_topic_queue.py shows the same with turns that fail
in preparing, and a turn in another topic not waiting; here both turns
boot a VM and run, so the queue holds for the whole life of a turn.)"""

import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402




class TopicQueueWithVms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls, {"ARIZUKO_MAX_TURNS": "2"})

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        first = engine.start("run", "--topic", "t1", "--agent", "command", "corp", "echo first; sleep 3")
        try:
            def first_running():
                if not pathlib.Path(engine.data_dir, "arizuko.db").exists():
                    return None
                return any(t["state"] == "running" for t in engine.turns())
            # The second turn is asked for while the first VM runs.
            h.wait_for(first_running, 240, what="the first turn running")
            second = engine.start("run", "--topic", "t1", "--agent", "command", "corp", "echo second")
            try:
                cls.outputs = [p.communicate(timeout=400) for p in (first, second)]
                cls.codes = [first.returncode, second.returncode]
            finally:
                second.kill()
                second.communicate()
        finally:
            first.kill()
            first.communicate()
        cls.names = [h.turn_name_from(err) for _, err in cls.outputs]
        listed = engine.run("--json", "turns")
        if listed.returncode != 0:
            raise AssertionError(f"arizukoctl turns --json: {listed.stderr}")
        by_name = {t["name"]: t for t in json.loads(listed.stdout)}
        cls.first, cls.second = (by_name[name] for name in cls.names)
        for turn in (cls.first, cls.second):
            print(f"{turn['name']}: preparing {turn['preparing_at']} booting {turn['booting_at']} "
                  f"ended {turn['ended_at']}", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_both_turns_booted_and_ran(self):
        self.assertEqual(self.codes, [0, 0], [err[-1500:] for _, err in self.outputs])
        for turn, line in ((self.first, "first"), (self.second, "second")):
            self.assertEqual(turn["state"], "done", turn)
            for column in ("booting_at", "running_at", "ended_at"):
                self.assertTrue(turn[column], f"{turn['name']} has no {column}: it never booted")
        self.assertIn("first", self.outputs[0][0].split())
        self.assertIn("second", self.outputs[1][0].split())

    def test_the_second_turn_of_the_topic_waited_for_the_first_to_end(self):
        # It was asked for while the first ran...
        self.assertLess(h.moment(self.second["queued_at"]), h.moment(self.first["ended_at"]))
        self.assertGreaterEqual(h.moment(self.second["queued_at"]), h.moment(self.first["running_at"]))
        # ...and prepared only once the first had ended.
        self.assertGreaterEqual(h.moment(self.second["preparing_at"]), h.moment(self.first["ended_at"]),
                                "the second turn of t1 started before the first ended")

    def test_nothing_of_either_turn_is_left(self):
        for name in self.names:
            left = h.leftovers(name)
            self.assertEqual(left, {key: [] for key in left}, name)


if __name__ == "__main__":
    h.main()
