"""pi end to end in real VMs, driven by a scripted model served as a real
upstream: a turn that runs a command in the guest, writes a file and
answers; a second turn that resumes pi's session and a fork that continues
from a copy; the model credential (a canary) that never enters the guest;
a refused key and a stream dropped mid-reply that end the turn failed with
the reason (pi exits 0 in JSON mode: its last message's stopReason
decides); the proxy's account of what pi tried to reach besides the
gateway, with a folder that allows nothing else; and pi's shell fetching
from an inspected host (issue 37) as its rule says."""

import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import (h, ScriptedUpstream, new_canary, engine_with_upstream,  # noqa: E402
                           run_turn, session_of, init_of, shell_call_transcript, credential_places,
                           note_exchanges, InspectedOrigin, INSPECTED_HOST,
                           assert_inspected_fetches)

NOTE_COMMAND, _ = note_exchanges("pi")
SCRIPT = {
    "name": "pi-e2e",
    "exchanges": [
        {"prompt": "please write the note", "steps": [
            {"text": "Running a command in the VM.",
             "tool_use": {"name": "bash", "input": {"command": NOTE_COMMAND}}},
            {"text": "The note is written."}]},
        {"prompt": "what did you write", "steps": [{"text": "Earlier I wrote note.txt."}]},
        {"prompt": "refuse the key", "steps": [
            {"error": {"status": 401, "type": "authentication_error",
                       "message": "invalid x-api-key", "should_retry": False}}]},
        {"prompt": "drop mid-stream", "steps": [
            {"text": "This answer will be cut off before it ends.", "drop_after_events": 2}]},
    ],
}
MODEL = "claude-sonnet-4-5"
# pi's start under TCG on a loaded 2-core host (docs/agents.md, "pi's start").
TURN_TIMEOUT = 600
# A failed model call ends the turn at once; what remains is the VM and
# pi's start, and pi lingering after the failure.
FAILED_WITHIN = 300


class PiTurn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.canary = new_canary()
        cls.inspected = InspectedOrigin()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, cls.canary, cls.inspected.environment)
        try:
            cls.engine.add_folder("corp")
            cls.inspected.prepare(cls.engine, "corp")
            cls.first = cls.run_turn("please write the note")
            cls.first_requests = len(cls.upstream.requests())
            cls.second = cls.run_turn("what did you write")
            cls.second_requests = len(cls.upstream.requests())
            fork = cls.engine.run("topic", "fork", "corp", "main", "side")
            if fork.returncode != 0:
                raise AssertionError(fork.stderr)
            cls.third = cls.run_turn("what did you write", "--topic", "side")
            cls.refused = cls.run_turn("refuse the key", "--topic", "auth")
            cls.dropped = cls.run_turn("drop mid-stream", "--topic", "drop")
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def run_turn(cls, prompt, *options):
        return run_turn(cls.engine, "corp", prompt, "--agent", "pi", "--model", MODEL,
                              "--deadline", "900", *options, timeout=TURN_TIMEOUT)

    @classmethod
    def session_of(cls, topic):
        return session_of(cls.engine, "corp", topic)

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()
        cls.inspected.close()

    def test_turns_are_done(self):
        for turn in (self.first, self.second, self.third):
            self.assertEqual(turn["result"].returncode, 0, turn["result"].stderr)
            self.assertEqual(turn["turn"]["state"], "done")
            self.assertEqual(init_of(turn)["agent"], "pi")

    def test_transcript_holds_the_tool_call_its_real_result_and_the_answer_in_order(self):
        shell_call_transcript(self, self.first, "bash", NOTE_COMMAND,
                              ["Running a command in the VM.", "The note is written."])

    def test_its_shell_reaches_an_inspected_host_as_the_rule_says(self):
        assert_inspected_fetches(self, self.first, self.upstream.requests()[:self.first_requests])

    def test_the_file_it_wrote_is_on_the_host(self):
        note = self.engine.home("corp") / "note.txt"
        self.assertEqual(note.read_text(), "written-by-pi\n")

    def test_a_first_turn_starts_the_session_and_the_next_resumes_it(self):
        main = self.session_of("main")
        self.assertEqual(init_of(self.first)["session_id"], main)
        self.assertEqual(init_of(self.second)["session_id"], main)
        sessions = list((self.engine.home("corp") / ".pi/agent/sessions").glob(f"*_{main}.jsonl"))
        self.assertEqual(len(sessions), 1, sessions)
        # The model's first request in the second turn carries the first turn.
        messages = json.dumps(self.upstream.requests()[self.first_requests]["body"]["messages"])
        self.assertIn("please write the note", messages)
        self.assertIn("The note is written.", messages)
        self.assertIn("what did you write", messages)

    def test_a_fork_continues_from_a_copy_under_its_own_session(self):
        side, main = self.session_of("side"), self.session_of("main")
        self.assertNotEqual(side, main)
        self.assertEqual(init_of(self.third)["session_id"], side)
        messages = json.dumps(self.upstream.requests()[self.second_requests]["body"]["messages"])
        # The fork was taken after main's second turn: it carries all of it.
        self.assertIn("please write the note", messages)
        self.assertIn("Earlier I wrote note.txt.", messages)

    def assert_failed_with(self, turn, *reasons):
        result = turn["result"]
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(turn["turn"]["state"], "failed", result.stderr)
        # The gateway saw the upstream fail; pi's own exit status (0) does not decide.
        self.assertTrue(turn["turn"]["error_code"].startswith("gateway."), turn["turn"]["error_code"])
        # Well before the deadline (900 s): the first failure ends the turn.
        self.assertLess(turn["elapsed"], FAILED_WITHIN, f"the turn took {turn['elapsed']:.0f} s")
        errors = [e["json"] for e in turn["events"] if e["kind"] == "error"]
        self.assertEqual(len(errors), 1, errors)
        self.assertIn(errors[0]["message"], result.stderr)
        # The engine ends the turn on the gateway's failure, so pi's own
        # closing result may not come; if it does, it is an error too.
        final = [e["json"] for e in turn["events"] if e["kind"] == "result"]
        self.assertTrue(all(event["is_error"] for event in final), final)
        for reason in reasons:
            self.assertIn(reason, errors[0]["message"] + "".join(e.get("text", "") for e in final))

    def test_a_refused_key_fails_the_turn_with_the_reason(self):
        self.assert_failed_with(self.refused, "401", "invalid x-api-key")

    def test_a_dropped_stream_fails_the_turn_with_the_reason(self):
        self.assert_failed_with(self.dropped)
        # Named either way the gateway saw it: the connection lost, or the
        # stream ended before its last event.
        message = [e["json"] for e in self.dropped["events"] if e["kind"] == "error"][0]["message"]
        self.assertTrue(any(reason in message
                            for reason in ("dropped", "ended before its last event")), message)

    def test_pi_reaches_nothing_but_the_gateway(self):
        # The folder allows nothing but the inspected origin's GETs (its
        # own test): the gateway is all else a turn may reach. The proxy's
        # decision lines say what pi tried besides: nothing.
        for turn in (self.first, self.second, self.third, self.refused, self.dropped):
            tried = [e["json"] for e in turn["events"]
                     if e["kind"] == "network" and e["json"].get("event") == "decision"
                     and e["json"].get("host") != INSPECTED_HOST]
            self.assertEqual(tried, [], f"{turn['name']} went to the proxy")
        self.assertGreaterEqual(len(self.upstream.requests()), 6)

    def test_the_upstream_got_the_real_key_and_never_the_turn_token(self):
        for request in self.upstream.requests():
            headers = {k.lower(): v for k, v in request["headers"].items()}
            self.assertEqual(headers.get("x-api-key"), self.canary)
            self.assertNotIn("authorization", headers)

    def test_the_credential_never_enters_the_guest(self):
        places = credential_places(self.engine, (self.first, self.second, self.third, self.refused, self.dropped))
        dump = self.engine.home("corp") / "environ.dump"
        self.assertIn(f"data:{dump}", places, "the guest's /proc/*/environ was captured")
        self.assertIn(b"PI_CODING_AGENT_DIR=", dump.read_bytes(), "pi's own environment is in the dump")
        leaked = [place for place, data in places.items() if self.canary.encode() in data]
        self.assertEqual(leaked, [])
        # The canary is where it belongs: the upstream saw it.
        self.assertIn(self.canary.encode(), self.upstream.log.read_bytes())


if __name__ == "__main__":
    h.main()
