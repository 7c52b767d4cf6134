"""An upstream that refuses the key or drops the connection mid-response:
the error reaches the transcript in a sentence and the turn ends failed at
once, instead of the agent retrying until the turn's deadline."""

import pathlib
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream  # noqa: E402

SCRIPT = {
    "name": "failures",
    "exchanges": [
        {"prompt": "refuse the key", "steps": [
            {"error": {"status": 401, "type": "authentication_error",
                       "message": "invalid x-api-key", "should_retry": False}}]},
        {"prompt": "drop mid-stream", "steps": [
            {"text": "This answer will be cut off before it ends.", "drop_after_events": 2}]},
    ],
}
DEADLINE = 600


class UpstreamErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, new_canary())
        cls.engine.add_folder("corp")

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    def run_failing_turn(self, prompt, topic):
        started = time.monotonic()
        result = self.engine.run("run", "--deadline", str(DEADLINE), "--topic", topic, "corp", prompt,
                                 timeout=DEADLINE + 120)
        elapsed = time.monotonic() - started
        name = h.turn_name_from(result.stderr)
        turn = self.engine.turn(name)
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(turn["state"], "failed", result.stderr)
        # Well before the deadline: the first failure ends the turn.
        self.assertLess(elapsed, 240, f"the turn took {elapsed:.0f} s")
        errors = [e["json"] for e in self.engine.events(name) if e["kind"] == "error"]
        self.assertEqual(len(errors), 1, errors)
        self.assertIn(errors[0]["message"], result.stderr)
        return turn, errors[0]

    def test_a_refused_key_fails_the_turn_with_the_reason(self):
        turn, error = self.run_failing_turn("refuse the key", "auth")
        self.assertIn("401", error["message"])
        self.assertIn("invalid x-api-key", error["message"])
        self.assertTrue(turn["error_code"].startswith("gateway."), turn["error_code"])

    def test_a_dropped_stream_fails_the_turn_with_the_reason(self):
        turn, error = self.run_failing_turn("drop mid-stream", "drop")
        self.assertIn("dropped", error["message"])
        self.assertTrue(turn["error_code"].startswith("gateway."), turn["error_code"])


if __name__ == "__main__":
    h.main()
