"""Codex end to end in real VMs, driven by a scripted model served as a real
upstream over the OpenAI Responses API: the transcript and the file it
wrote, a second turn that resumes the thread, a fork that continues from a
copy under its own id, the OpenAI key (a canary) that never enters the
guest, a refused key and a dropped stream that end the turn at once, the
host's tools over /mcp decided by the folder's grants, and calls home
through the proxy (Codex makes none of its own today; its shell's, with
Codex's proxy settings, stands in), which the folder's empty allowlist
refuses while the turn still succeeds; and its shell fetching from an
inspected host (issue 37) as its rule says."""

import json
import os
import pathlib
import subprocess
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import (h, ScriptedUpstream, new_canary, engine_with_upstream,  # noqa: E402
                           agent_kinds, note_exchanges, run_turn, session_of, init_of,
                           credential_places, InspectedOrigin, INSPECTED_HOST,
                           assert_inspected_fetches)

REVOKED = "revoked"
# A call home, asked for through the proxy by the tools turn's shell.
CALLS_HOME = "chatgpt.com"
# The note's "Bash" call becomes the shell tool Codex offers (exec_command {cmd}).
NOTE_COMMAND, NOTE_EXCHANGES = note_exchanges("codex")
SCRIPT = {
    "name": "codex-e2e",
    "exchanges": NOTE_EXCHANGES + [
        {"prompt": "refuse the key", "steps": [
            {"error": {"status": 401, "type": "invalid_request_error",
                       "message": "Incorrect API key provided", "should_retry": False}}]},
        {"prompt": "drop mid-stream", "steps": [
            {"text": "This answer will be cut off before it ends.", "drop_after_events": 2}]},
        # Both tools are granted when the turn starts (Codex offers the
        # model only the tools its tools/list named); network_allow's grant
        # is revoked while its call is held, so the host must refuse it.
        {"prompt": "use the host tools", "steps": [
            {"tool_use": {"name": "mcp__arizuko__send_message",
                          "input": {"text": "hello from codex"}}},
            {"hold": REVOKED,
             "tool_use": {"name": "mcp__arizuko__network_allow", "input": {"host": "evil.example"}}},
            {"tool_use": {"name": "Bash", "input": {
                "command": f"timeout 15 wget -q -O - http://{CALLS_HOME}/; echo called-home"}}},
            {"text": "Tools done."}]},
    ],
}
MODEL = "gpt-5.2"
DEADLINE = 600


class CodexTurn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.canary = new_canary("sk-proj-CANARY-")
        cls.inspected = InspectedOrigin()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, cls.canary, cls.inspected.environment,
                                          secret="OPENAI_API_KEY")
        cls.engine.add_folder("corp")
        cls.inspected.prepare(cls.engine, "corp")
        cls.first = cls.run_turn("please write the note")
        cls.first_requests = len(cls.upstream.requests("/v1/responses"))
        cls.second = cls.run_turn("what did you write")
        cls.second_requests = len(cls.upstream.requests("/v1/responses"))
        fork = cls.engine.run("topic", "fork", "corp", "main", "side")
        if fork.returncode != 0:
            raise AssertionError(fork.stderr)
        cls.fork_stderr = fork.stderr
        cls.third = cls.run_turn("what did you write", "--topic", "side")
        cls.refused = cls.timed_turn("refuse the key", "--topic", "auth")
        cls.dropped = cls.timed_turn("drop mid-stream", "--topic", "drop")
        cls.tools = cls.host_tools_turn()

    @classmethod
    def run_turn(cls, prompt, *options):
        return run_turn(cls.engine, "corp", prompt, "--agent", "codex", "--model", MODEL,
                        "--deadline", str(DEADLINE), *options, timeout=DEADLINE + 120)

    @classmethod
    def grant(cls, *arguments):
        result = cls.engine.run("grant", "add", *arguments)
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        with cls.engine.database() as db:
            return db.execute("SELECT max(id) FROM acl").fetchone()[0]

    @classmethod
    def host_tools_turn(cls):
        cls.grant("corp", "mcp:send_message", "corp")
        network_allow = cls.grant("corp", "mcp:network_allow", "corp")
        process = cls.engine.start("run", "--agent", "codex", "--model", MODEL, "--topic", "tools",
                                   "corp", "use the host tools")
        try:
            h.wait_for(lambda: cls.requests_holding(), DEADLINE, 0.5, "the held network_allow call")
            revoked = cls.engine.run("grant", "rm", str(network_allow))
            if revoked.returncode != 0:
                raise AssertionError(revoked.stderr)
        finally:
            cls.upstream.release(REVOKED)
        stdout, stderr = process.communicate(timeout=DEADLINE + 120)
        result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
        name = h.turn_name_from(stderr)
        return {"result": result, "name": name, "turn": cls.engine.turn(name),
                "events": cls.engine.events(name)}

    @classmethod
    def requests_holding(cls):
        """Whether the model was asked for the step after send_message."""
        return [r for r in cls.upstream.requests("/v1/responses")
                if "hello from codex" in json.dumps(r["body"].get("input"))]

    @classmethod
    def timed_turn(cls, prompt, *options):
        started = time.monotonic()
        turn = cls.run_turn(prompt, *options)
        turn["elapsed"] = time.monotonic() - started
        return turn

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()
        cls.inspected.close()

    def responses_of(self, start, end=None):
        return self.upstream.requests("/v1/responses")[start:end]

    def test_turns_are_done(self):
        for turn in (self.first, self.second, self.third, self.tools):
            self.assertEqual(turn["result"].returncode, 0, turn["result"].stderr)
            self.assertEqual(turn["turn"]["state"], "done")
            self.assertEqual(turn["turn"]["agent"], "codex")

    def test_transcript_holds_the_tool_call_its_real_result_and_the_answer_in_order(self):
        # Codex's warnings (e.g. about a model it has no metadata for) are
        # kept as output lines; the conversation itself is in order.
        events = [e for e in agent_kinds(self.first["events"]) if e["kind"] != "output"]
        self.assertEqual([e["kind"] for e in events],
                         ["init", "text", "tool_use", "tool_result", "text", "result"])
        self.assertEqual(events[0]["json"]["agent"], "codex")
        use, result = events[2]["json"], events[3]["json"]
        self.assertEqual(use["name"], "shell")
        self.assertIn(NOTE_COMMAND, use["input"]["command"])
        self.assertEqual(result["tool_use_id"], use["id"])
        self.assertFalse(result["is_error"])
        # The guest's own output: its kernel and the file it just listed.
        # (Codex's shell sets LC_ALL=C.UTF-8: an image without that locale
        # had the static bash warn of it before the command's own lines.)
        self.assertRegex(result["content"], r"(?m)^Linux 6\.")
        self.assertIn("note.txt", result["content"])
        self.assertEqual(events[4]["json"]["text"], "The note is written.")
        self.assertEqual(events[5]["json"]["subtype"], "success")
        self.assertEqual(events[5]["json"]["text"], "The note is written.")
        seqs = [e["seq"] for e in self.first["events"]]
        self.assertEqual(seqs, sorted(seqs))
        out = self.first["result"].stdout
        self.assertIn("Running a command in the VM.", out)
        # The tool result's block (⎿), the kernel's line inside it.
        self.assertRegex(out, r"\u23bf (.*\n    )*Linux 6\.")
        self.assertIn("[agent] codex, session ", self.first["result"].stderr)

    def test_its_shell_reaches_an_inspected_host_as_the_rule_says(self):
        assert_inspected_fetches(self, self.first, self.responses_of(0, self.first_requests))

    def test_the_file_it_wrote_is_on_the_host(self):
        note = self.engine.home("corp") / "note.txt"
        self.assertEqual(note.read_text(), "written-by-codex\n")
        self.assertEqual(note.stat().st_uid, os.getuid())

    def test_usage_and_cost_are_counted_at_the_gateway(self):
        for turn in (self.first, self.second):
            usage = json.loads(turn["turn"]["usage"])
            self.assertGreater(usage["input_tokens"], 0)
            self.assertGreater(usage["output_tokens"], 0)
            self.assertGreater(turn["turn"]["cost_usd"], 0, f"{MODEL} has a published price")
        self.assertGreaterEqual(json.loads(self.first["turn"]["usage"])["responses"], 2)

    def test_the_thread_is_the_topics_session_and_the_next_turn_resumes_it(self):
        main = session_of(self.engine, "corp", "main")
        self.assertEqual(init_of(self.first)["session_id"], main)
        self.assertEqual(init_of(self.second)["session_id"], main)
        rollouts = list((self.engine.home("corp") / ".codex/sessions").rglob(f"rollout-*-{main}.jsonl"))
        self.assertEqual(len(rollouts), 1, rollouts)
        # The model's first request in the second turn carries the first turn.
        items = json.dumps(self.responses_of(self.first_requests)[0]["body"]["input"])
        self.assertIn("please write the note", items)
        self.assertIn("The note is written.", items)
        self.assertIn("what did you write", items)

    def test_a_fork_continues_from_a_copy_under_its_own_id(self):
        self.assertNotIn("not copied", self.fork_stderr)
        side, main = session_of(self.engine, "corp", "side"), session_of(self.engine, "corp", "main")
        self.assertNotEqual(side, main)
        self.assertEqual(init_of(self.third)["session_id"], side)
        items = json.dumps(self.responses_of(self.second_requests)[0]["body"]["input"])
        # Forked after main's second turn: it carries all of it.
        self.assertIn("please write the note", items)
        self.assertIn("Earlier I wrote note.txt.", items)
        # main's own rollout is untouched by the fork's turn.
        home = self.engine.home("corp") / ".codex/sessions"
        self.assertEqual(len(list(home.rglob(f"rollout-*-{side}.jsonl"))), 1)
        self.assertNotIn(side.encode(),
                         b"".join(p.read_bytes() for p in home.rglob(f"*-{main}.jsonl")))

    def test_a_refused_key_and_a_dropped_stream_fail_the_turn_at_once(self):
        # A drop is named either way the gateway saw it: the connection lost,
        # or the stream ended before its last event.
        for turn, reasons in ((self.refused, ("Incorrect API key provided",)),
                              (self.dropped, ("dropped", "ended before its last event"))):
            self.assertNotEqual(turn["result"].returncode, 0)
            self.assertEqual(turn["turn"]["state"], "failed", turn["result"].stderr)
            self.assertTrue(turn["turn"]["error_code"].startswith("gateway."), turn["turn"])
            self.assertLess(turn["elapsed"], 240,
                            f"Codex's own retries must not hold the turn ({turn['elapsed']:.0f} s)")
            errors = [e["json"] for e in turn["events"] if e["kind"] == "error"]
            self.assertEqual(len(errors), 1, errors)
            self.assertTrue(any(reason in errors[0]["message"] for reason in reasons),
                            errors[0]["message"])
            self.assertIn(errors[0]["message"], turn["result"].stderr)
        self.assertIn("401", [e for e in self.refused["events"] if e["kind"] == "error"][0]["json"]
                      ["message"])

    def test_a_granted_host_tool_is_served_and_an_ungranted_one_refused_by_the_host(self):
        decisions = [(e["json"]["tool"], e["json"]["allowed"]) for e in self.tools["events"]
                     if e["kind"] == "tool"]
        self.assertIn(("network_allow", False), decisions)
        self.assertIn(("send_message", True), decisions)
        with self.engine.database() as db:
            sent = [r[0] for r in db.execute(
                "SELECT content FROM messages WHERE group_folder = 'corp' AND topic = 'tools'")]
        self.assertIn("hello from codex", sent)
        allowed = self.engine.run("network", "test", "corp", "evil.example")
        self.assertTrue(allowed.stdout.startswith("deny evil.example"), allowed.stdout)
        results = {e["json"]["tool_use_id"]: e["json"] for e in self.tools["events"]
                   if e["kind"] == "tool_result"}
        uses = {e["json"]["name"]: e["json"]["id"] for e in self.tools["events"]
                if e["kind"] == "tool_use"}
        self.assertTrue(results[uses["mcp__arizuko__network_allow"]]["is_error"], results)
        self.assertFalse(results[uses["mcp__arizuko__send_message"]]["is_error"], results)

    def test_calls_home_never_leave_and_the_turn_still_succeeds(self):
        # corp allows no host but the inspected origin's GETs (its own
        # test): the gateway (reached directly, never through the proxy)
        # is all else the turn can reach. Codex (plugins,
        # analytics and its update check off) asks the proxy for nothing
        # itself today, so "nothing left" would hold of an empty record:
        # the tools turn's call home, through the proxy settings Codex
        # hands its shell, must be in it, refused.
        self.assertEqual(self.first["turn"]["state"], "done")
        decisions = [e["json"] for turn in (self.first, self.second, self.third, self.tools)
                     for e in turn["events"]
                     if e["kind"] == "network" and e["json"].get("event") == "decision"
                     and e["json"].get("host") != INSPECTED_HOST]
        tried = sorted({(d["host"], d["decision"]) for d in decisions})
        print(f"\nwhat Codex tried through the proxy: {tried or 'nothing'}", file=sys.stderr)
        # Refused, not merely absent: Codex did call home, and the proxy
        # refused it by the folder's allowlist.
        self.assertIn((CALLS_HOME, "deny"), tried)
        self.assertEqual({d["reason"] for d in decisions if d["host"] == CALLS_HOME},
                         {"host-not-allowed"}, decisions)
        self.assertEqual([d for d in decisions if d["decision"] != "deny"], [])

    def test_the_upstream_got_the_real_key_and_never_the_turn_token(self):
        requests = self.upstream.requests("/v1/responses")
        self.assertGreaterEqual(len(requests), 5)
        for request in requests:
            headers = {k.lower(): v for k, v in request["headers"].items()}
            self.assertEqual(headers.get("authorization"), "Bearer " + self.canary)
            self.assertNotIn("x-api-key", headers)

    def test_the_guest_holds_only_its_turn_token(self):
        dump = (self.engine.home("corp") / "environ.dump").read_bytes().decode(errors="replace")
        variables = dict(entry.split("=", 1) for entry in dump.split("\0") if "=" in entry)
        self.assertRegex(variables.get("ARIZUKO_GATEWAY_TOKEN", ""), r"^[0-9a-f]{48}$")
        self.assertEqual(variables.get("CODEX_HOME"), "/run/arizuko-agent/codex")
        self.assertNotIn("OPENAI_API_KEY", variables)
        self.assertNotIn("ANTHROPIC_API_KEY", variables)

    def test_the_credential_never_enters_the_guest(self):
        canary = self.canary.encode()
        turns = (self.first, self.second, self.third, self.refused, self.dropped, self.tools)
        places = credential_places(self.engine, turns)
        self.assertIn("data:" + str(self.engine.home("corp") / "environ.dump"), places,
                      "the guest's /proc/*/environ was captured")
        self.assertTrue(any(".codex/sessions" in place for place in places), "the rollouts were searched")
        leaked = [place for place, data in places.items() if canary in data]
        self.assertEqual(leaked, [])
        # The canary is where it belongs: the upstream saw it.
        self.assertIn(canary, self.upstream.log.read_bytes())


if __name__ == "__main__":
    h.main()
