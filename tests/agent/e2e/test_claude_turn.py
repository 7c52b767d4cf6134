"""Claude Code end to end in a real VM, driven by a scripted model served as
a real upstream: the transcript and the files it wrote, a second turn that
resumes the session, a fork that continues from a copy, the model
credential (a canary) that never enters the guest, and the agent's shell
fetching from an inspected host (issue 37) as its rule says."""

import json
import os
import pathlib
import re
import subprocess
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import (h, ScriptedUpstream, new_canary, engine_with_upstream,  # noqa: E402
                           note_exchanges, run_turn, session_of, init_of,
                           credential_places, shell_call_transcript, InspectedOrigin,
                           assert_inspected_fetches)

NOTE_COMMAND, NOTE_EXCHANGES = note_exchanges("claude")
SCRIPT = {"name": "e2e", "exchanges": NOTE_EXCHANGES}
MODEL = "claude-sonnet-4-5"


class ClaudeTurn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.canary = new_canary()
        cls.inspected = InspectedOrigin()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, cls.canary, cls.inspected.environment)
        cls.engine.add_folder("corp")
        cls.inspected.prepare(cls.engine, "corp")
        cls.first = cls.run_turn("please write the note")
        cls.first_requests = len(cls.upstream.requests())
        cls.second = cls.run_turn("what did you write")
        cls.second_requests = len(cls.upstream.requests())
        fork = cls.engine.run("topic", "fork", "corp", "main", "side")
        if fork.returncode != 0:
            raise AssertionError(fork.stderr)
        cls.fork_stderr = fork.stderr
        cls.third = cls.run_turn("what did you write", "--topic", "side")
        # The agent (or anything) damages the fork's conversation file.
        cls.damaged_id = cls.session_of("side")
        cls.damaged = cls.engine.home("corp") / ".claude/projects/-home-agent" / (cls.damaged_id + ".jsonl")
        cls.damaged.write_text(cls.damaged.read_text() + "{this is not json\n")
        cls.damaged_bytes = cls.damaged.read_bytes()
        cls.fourth = cls.run_turn("what did you write", "--topic", "side")

    @classmethod
    def run_turn(cls, prompt, *options):
        return run_turn(cls.engine, "corp", prompt, "--model", MODEL, *options)

    @classmethod
    def session_of(cls, topic):
        return session_of(cls.engine, "corp", topic)

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()
        cls.inspected.close()

    def test_turns_are_done(self):
        for turn in (self.first, self.second, self.third, self.fourth):
            self.assertEqual(turn["result"].returncode, 0, turn["result"].stderr)
            self.assertEqual(turn["turn"]["state"], "done")

    def test_transcript_holds_the_tool_call_its_real_result_and_the_answer_in_order(self):
        shell_call_transcript(self, self.first, "Bash", NOTE_COMMAND,
                              ["Running a command in the VM.", "The note is written."])

    def test_its_shell_reaches_an_inspected_host_as_the_rule_says(self):
        assert_inspected_fetches(self, self.first, self.upstream.requests()[:self.first_requests])

    def test_readable_transcript_on_stdout(self):
        out = self.first["result"].stdout
        self.assertIn("Running a command in the VM.", out)
        self.assertIn("\u25cf Bash: uname -sr; echo written-by-claude", out)
        self.assertRegex(out, r"\u23bf Linux 6\.")
        self.assertRegex(self.first["result"].stderr,
                         r"turn az-\w+ done in [\d.]+ s \u00b7 \d+ tokens in, \d+ out \u00b7 \$\d")

    def test_the_file_it_wrote_is_on_the_host(self):
        note = self.engine.home("corp") / "note.txt"
        self.assertEqual(note.read_text(), "written-by-claude\n")
        self.assertEqual(note.stat().st_uid, os.getuid())

    def test_usage_and_cost_are_stored_per_turn(self):
        for turn in (self.first, self.second):
            usage = json.loads(turn["turn"]["usage"])
            self.assertGreater(usage["input_tokens"], 0)
            self.assertGreater(usage["output_tokens"], 0)
            self.assertGreaterEqual(usage["responses"], 1)
            self.assertIsNotNone(turn["turn"]["cost_usd"], f"{MODEL} has a published price")
            self.assertGreater(turn["turn"]["cost_usd"], 0)
        # Two model calls for the tool round trip of the first turn.
        self.assertGreaterEqual(json.loads(self.first["turn"]["usage"])["responses"], 2)

    def test_a_first_turn_starts_the_session_and_the_next_resumes_it(self):
        main = self.session_of("main")
        self.assertEqual(init_of(self.first)["session_id"], main)
        self.assertEqual(init_of(self.second)["session_id"], main)
        session = self.engine.home("corp") / ".claude/projects/-home-agent" / (
            main + ".jsonl")
        self.assertTrue(session.is_file(), session)
        # The model's first request in the second turn carries the first turn.
        second_turn_request = self.upstream.requests()[self.first_requests]
        messages = json.dumps(second_turn_request["body"]["messages"])
        self.assertIn("please write the note", messages)
        self.assertIn("The note is written.", messages)
        self.assertIn("what did you write", messages)

    def test_a_fork_continues_from_a_copy_under_its_own_session(self):
        self.assertNotIn("not copied", self.fork_stderr)
        # The fork's own session, as it was before the fourth turn damaged it.
        side, main = self.damaged_id, self.session_of("main")
        self.assertNotEqual(side, main)
        init = init_of(self.third)
        self.assertEqual(init["session_id"], side)
        request = self.upstream.requests()[self.second_requests]
        messages = json.dumps(request["body"]["messages"])
        # The fork was taken after main's second turn: it carries all of it.
        self.assertIn("please write the note", messages)
        self.assertIn("Earlier I wrote note.txt.", messages)

    def test_a_damaged_session_starts_fresh_and_says_so(self):
        notes = [e["json"] for e in self.fourth["events"] if e["kind"] == "session"]
        self.assertEqual(len(notes), 1, notes)
        self.assertTrue(notes[0]["fresh"])
        self.assertIn("line", notes[0]["reason"])
        fresh = self.session_of("side")
        self.assertNotEqual(fresh, self.damaged_id)
        self.assertEqual(notes[0]["session_id"], fresh)
        init = init_of(self.fourth)
        self.assertEqual(init["session_id"], fresh)
        self.assertEqual(self.damaged.read_bytes(), self.damaged_bytes, "the damaged file is left alone")
        self.assertIn("[session]", self.fourth["result"].stderr)
        # No earlier turn had a damaged session: no note there.
        for turn in (self.first, self.second, self.third):
            self.assertFalse([e for e in turn["events"] if e["kind"] == "session"])

    def test_the_upstream_got_the_real_key_and_never_the_turn_token(self):
        requests = self.upstream.requests()
        self.assertGreaterEqual(len(requests), 4)
        for request in requests:
            headers = {k.lower(): v for k, v in request["headers"].items()}
            self.assertEqual(headers.get("x-api-key"), self.canary)
            self.assertNotIn("authorization", headers)

    def test_the_guest_holds_only_its_turn_token(self):
        dump = (self.engine.home("corp") / "environ.dump").read_bytes().decode(errors="replace")
        variables = dict(entry.split("=", 1) for entry in dump.split("\0") if "=" in entry)
        token = variables.get("ANTHROPIC_API_KEY", "")
        self.assertRegex(token, r"^[0-9a-f]{48}$", "a random 192-bit token")
        self.assertNotEqual(token, self.first["name"])
        self.assertRegex(variables.get("ANTHROPIC_BASE_URL", ""), r"^http://10\.\d+\.\d+\.\d+:3129$")

    def test_the_credential_never_enters_the_guest(self):
        canary = self.canary.encode()
        # As root in the guest: agent.credential_as_guest_root.
        places = credential_places(self.engine, (self.first, self.second, self.third, self.fourth))
        self.assertIn("data:" + str(self.engine.home("corp") / "environ.dump"), places,
                      "the guest's /proc/*/environ was captured")
        leaked = [place for place, data in places.items() if canary in data]
        self.assertEqual(leaked, [])
        # The canary is where it belongs: the upstream saw it.
        self.assertIn(canary, self.upstream.log.read_bytes())


class GatewayTokens(unittest.TestCase):
    """From inside a guest: an ended turn's token, sent to the very address
    and port its gateway served, and a wrong token are refused; the turn's own
    token is served (the positive control). The subnet pool holds one /30, so
    the second turn's guest sits where the first one did and reaches the same
    gateway address and port."""

    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = ScriptedUpstream({"name": "tokens", "exchanges": []})
        cls.engine = engine_with_upstream(cls.upstream, new_canary(),
                                          {"ARIZUKO_SUBNET_POOL": "10.213.251.252/30"})
        cls.engine.add_folder("corp")
        first = cls.engine.run("run", "--agent", "command", "corp",
                               'printf "%s %s" "$ANTHROPIC_API_KEY" "$ANTHROPIC_BASE_URL"',
                               timeout=600)
        cls.old_token, _, cls.old_base_url = first.stdout.strip().partition(" ")
        probe = ('post() { wget -Y off -q -S -O /dev/null --header "x-api-key: $1" '
                 '--header "Content-Type: application/json" '
                 '--post-data \'{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}]}\' '
                 '"$2/v1/messages/count_tokens" 2>&1 | grep -o "HTTP/1.1 [0-9]*" | head -1; }; '
                 'echo "base: $ANTHROPIC_BASE_URL"; '
                 'echo "own: $(post "$ANTHROPIC_API_KEY" "$ANTHROPIC_BASE_URL")"; '
                 f'echo "ended: $(post {cls.old_token} {cls.old_base_url})"; '
                 'echo "wrong: $(post 0123456789abcdef0123456789abcdef0123456789abcdef '
                 '"$ANTHROPIC_BASE_URL")"')
        cls.result = cls.engine.run("run", "--agent", "command", "corp", probe, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    def test_tokens(self):
        self.assertRegex(self.old_token, r"^[0-9a-f]{48}$")
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        lines = dict(line.split(": ", 1) for line in self.result.stdout.splitlines() if ": " in line)
        self.assertRegex(self.old_base_url, r"^http://10\.213\.251\.253:\d+$")
        self.assertEqual(lines.get("base"), self.old_base_url,
                         "the ended turn's gateway address and port, now this turn's")
        self.assertEqual(lines.get("own"), "HTTP/1.1 200", self.result.stdout)
        self.assertEqual(lines.get("ended"), "HTTP/1.1 401", self.result.stdout)
        self.assertEqual(lines.get("wrong"), "HTTP/1.1 401", self.result.stdout)
        refusals = [e for e in self.engine.events(h.turn_name_from(self.result.stderr))
                    if e["kind"] == "gateway"]
        self.assertEqual(len(refusals), 2, refusals)


if __name__ == "__main__":
    h.main()
