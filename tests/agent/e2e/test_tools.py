"""The turn's tools in real turns: Claude Code in the VM reaches the MCP
server at /mcp on its turn's gateway, sees only the tools its folder's
grants allow, and every call is decided on the host by the grants as they
are at that moment, also when another process (arizukoctl) changes them
mid-turn. delegate_group and escalate_group queue real turns in other
folders; the depth limit stops a chain, and the refusal is in the
transcript. observe_group's context reaches the next turn within its caps,
and nothing more once that grant is revoked. Every decision is in the audit
log with folder, tool and the grant that decided it. An ungranted tool
called on /mcp from inside a guest with its turn's token is refused by the
host's grants, and that refusal is audited."""

import json
import pathlib
import sys
import threading
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream, agent_kinds  # noqa: E402

MODEL = "claude-sonnet-4-5"
# The model's replies for the second and third call are held until the test
# has changed the grant from another process and releases them.
REVOKED, REGRANTED = "revoked", "regranted"
# What the grants must refuse: called from inside a guest, by a shell command
# the agent runs, straight on /mcp with the turn's own token from the agent's
# environment (no Claude Code in between to refuse a tool it was not
# offered). It runs in lab's last turn, which the test needs anyway: a turn
# of its own would cost a VM boot for this one call.
UNGRANTED_CALL = (
    'wget -Y off -q -O - --header "Authorization: Bearer $ANTHROPIC_API_KEY" '
    '--header "Content-Type: application/json" --header "Accept: application/json, text/event-stream" '
    '--post-data \'{"jsonrpc":"2.0","id":7,"method":"tools/call",'
    '"params":{"name":"network_allow","arguments":{"host":"evil.example"}}}\' '
    '"$ANTHROPIC_BASE_URL/mcp"')
# Short observed messages: the count cap (10), not the 4,000-character cap, binds.
OBSERVED_MESSAGES = 15
OBSERVED_COUNT_CAP = 10


def send(text):
    return {"name": "mcp__arizuko__send_message", "input": {"text": text}}


SCRIPT = {
    "name": "tools",
    "exchanges": [
        {"prompt": "live grants", "steps": [
            {"text": "Trying a tool I was not granted.",
             "tool_use": {"name": "mcp__arizuko__network_allow", "input": {"host": "evil.example"}}},
            {"tool_use": {"name": "mcp__arizuko__observe_group", "input": {"folder": "corp/eng"}}},
            {"tool_use": send("first")},
            {"hold": REVOKED, "tool_use": send("second")},
            {"hold": REGRANTED, "tool_use": send("third")},
            {"text": "Live grants done."}]},
        {"prompt": "delegate and escalate", "steps": [
            {"tool_use": {"name": "mcp__arizuko__escalate_group",
                          "input": {"prompt": "parent, what is the answer"}}},
            {"tool_use": {"name": "mcp__arizuko__delegate_group",
                          "input": {"folder": "corp/eng/sre", "prompt": "chain one level further"}}},
            {"text": "Both are queued."}]},
        {"prompt": "parent, what is the answer", "steps": [{"text": "The answer is 42."}]},
        {"prompt": "what did you observe", "steps": [{"text": "I saw the observed messages."}]},
        {"prompt": "observe after the revoke", "steps": [
            {"tool_use": {"name": "Bash", "input": {"command": UNGRANTED_CALL}}},
            {"text": "Nothing was observed."}]},
        {"prompt": "chain one level further", "steps": [
            {"tool_use": {"name": "mcp__arizuko__delegate_group",
                          "input": {"folder": "corp/eng/sre/deep", "prompt": "too deep"}}},
            {"text": "The chain stopped here."}]},
    ],
}


class Tools(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, new_canary(),
                                          {"ARIZUKO_DELEGATION_DEPTH": "1"})
        for folder in ("corp", "corp/eng", "corp/eng/sre", "corp/eng/sre/deep", "lab"):
            cls.engine.add_folder(folder)
        cls.live = cls.live_grants_turn()
        cls.chain = cls.delegation_turns()
        cls.observed = cls.observing_turn()
        cls.revoked = cls.turn_after_the_observe_grant_is_revoked()

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    @classmethod
    def grant(cls, *arguments):
        result = cls.engine.run("grant", "add", *arguments)
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        with cls.engine.database() as db:
            return db.execute("SELECT max(id) FROM acl").fetchone()[0]

    @classmethod
    def tool_events(cls, name):
        return [e["json"] for e in cls.engine.events(name) if e["kind"] == "tool"]

    @classmethod
    def live_grants_turn(cls):
        """lab may send messages when the turn starts; another process
        revokes that between two calls, then grants it again."""
        cls.observe_grant = cls.grant("lab", "mcp:observe_group", "corp/**")
        first = cls.grant("lab", "mcp:send_message", "lab")
        process = cls.engine.start("run", "--model", MODEL, "lab", "live grants")
        changes = {}

        def change_grants():
            # Each change lands while the model's reply for the next call is
            # held; the release lets it go. Released whatever happens, so a
            # failure here never leaves the turn waiting.
            try:
                h.wait_for(lambda: cls.messages("lab"), 400, 0.2, "the first message")
                changes["revoke"] = cls.engine.run("grant", "rm", str(first))
                changes["held"] = [cls.upstream.release(REVOKED)]
                h.wait_for(lambda: [e for e in cls.all_tool_events("lab") if not e["allowed"]
                                    and e["tool"] == "send_message"], 400, 0.2, "the refused call")
                changes["regrant"] = cls.grant("lab", "mcp:send_message", "lab/**")
                changes["held"].append(cls.upstream.release(REGRANTED))
            finally:
                for hold in (REVOKED, REGRANTED):
                    cls.upstream.release(hold)

        changer = threading.Thread(target=change_grants)
        changer.start()
        stdout, stderr = process.communicate(timeout=600)
        changer.join(timeout=60)
        name = h.turn_name_from(stderr)
        return {"returncode": process.returncode, "stdout": stdout, "stderr": stderr, "name": name,
                "events": cls.engine.events(name), "first_grant": first, "changes": changes}

    @classmethod
    def delegation_turns(cls):
        cls.grant("corp/eng", "mcp:escalate_group", "corp")
        cls.grant("corp/eng", "mcp:delegate_group", "corp/eng/**")
        cls.grant("corp/eng/sre", "mcp:delegate_group", "corp/eng/**")
        result = cls.engine.run("run", "--model", MODEL, "corp/eng", "delegate and escalate",
                                timeout=900)
        return {"result": result, "name": h.turn_name_from(result.stderr)}

    @classmethod
    def observing_turn(cls):
        """lab observes corp/eng since its first turn; 15 short messages
        land there (after the escalation's answer), then lab's next turn runs."""
        with cls.engine.database() as db:
            for index in range(OBSERVED_MESSAGES):
                db.execute("INSERT INTO messages (group_folder, topic, role, content, created_at) "
                           "VALUES ('corp/eng', 'main', 'agent', ?, '2026-12-01T00:00:00.000Z')",
                           (f"note {index:02d}",))
        result = cls.engine.run("run", "--model", MODEL, "lab", "what did you observe", timeout=600)
        requests = [r for r in cls.upstream.requests() if "what did you observe" in json.dumps(r["body"])]
        return {"result": result, "name": h.turn_name_from(result.stderr), "requests": requests}

    @classmethod
    def turn_after_the_observe_grant_is_revoked(cls):
        """lab still observes corp/eng, but its grant to is gone: a message
        posted there after the revoke must not reach lab's next turn."""
        revoked = cls.engine.run("grant", "rm", str(cls.observe_grant))
        if revoked.returncode != 0:
            raise AssertionError(revoked.stderr)
        with cls.engine.database() as db:
            db.execute("INSERT INTO messages (group_folder, topic, role, content, created_at) "
                       "VALUES ('corp/eng', 'main', 'agent', 'posted after the revoke', "
                       "'2026-12-01T00:00:00.000Z')")
        result = cls.engine.run("run", "--model", MODEL, "lab", "observe after the revoke", timeout=600)
        requests = [r for r in cls.upstream.requests()
                    if "observe after the revoke" in json.dumps(r["body"])]
        return {"result": result, "name": h.turn_name_from(result.stderr), "requests": requests}

    @classmethod
    def messages(cls, folder, topic="main"):
        with cls.engine.database() as db:
            return [dict(r) for r in db.execute(
                "SELECT role, content FROM messages WHERE group_folder = ? AND topic = ? ORDER BY id",
                (folder, topic))]

    @classmethod
    def all_tool_events(cls, folder):
        with cls.engine.database() as db:
            rows = db.execute("SELECT e.json FROM turn_events e JOIN turns t ON t.id = e.turn "
                              "WHERE t.group_folder = ? AND e.kind = 'tool' ORDER BY e.seq",
                              (folder,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def turn_in(self, folder):
        turns = [t for t in self.engine.turns() if t["group_folder"] == folder]
        self.assertEqual(len(turns), 1, turns)
        return turns[0]

    def test_only_granted_tools_are_listed(self):
        init = [e["json"] for e in self.live["events"] if e["kind"] == "init"][0]
        self.assertEqual([s["name"] for s in init["mcp_servers"]], ["arizuko"])
        self.assertEqual(init["mcp_servers"][0]["status"], "connected")
        ours = sorted(t for t in init["tools"] if t.startswith("mcp__"))
        self.assertEqual(ours, ["mcp__arizuko__observe_group", "mcp__arizuko__send_message"])

    def test_an_ungranted_tool_is_not_offered_to_claude_code(self):
        """Claude Code refuses a tool it was not offered itself; the host's
        check is the next test's."""
        results = [e["json"] for e in self.live["events"] if e["kind"] == "tool_result"]
        self.assertTrue(results[0]["is_error"], results[0])
        self.assertNotIn("network_allow", [e["tool"] for e in self.tool_events(self.live["name"])])

    def test_an_ungranted_tool_called_from_the_guest_is_refused_by_the_grants(self):
        """lab's last turn runs UNGRANTED_CALL as a shell command: lab holds
        no mcp:network_allow grant."""
        result = self.revoked["result"]
        self.assertEqual(result.returncode, 0, result.stderr)
        events = agent_kinds(self.engine.events(self.revoked["name"]))
        use = [e["json"] for e in events if e["kind"] == "tool_use"]
        self.assertEqual([(u["name"], u["input"]["command"]) for u in use], [("Bash", UNGRANTED_CALL)])
        shell = [e["json"] for e in events if e["kind"] == "tool_result"]
        self.assertEqual(len(shell), 1, shell)
        self.assertFalse(shell[0]["is_error"], shell[0])
        reply = json.loads(shell[0]["content"].strip().splitlines()[-1])
        self.assertEqual(reply.get("id"), 7, reply)
        self.assertTrue(reply["result"]["isError"], reply)
        text = reply["result"]["content"][0]["text"]
        self.assertIn("refused by the grants of lab", text)
        # The host decided it: the turn's tool event and its audit row.
        decided = [(e["tool"], e["allowed"]) for e in self.tool_events(self.revoked["name"])]
        self.assertEqual(decided, [("network_allow", False)])
        with self.engine.database() as db:
            audited = [(r[0], json.loads(r[1])) for r in db.execute(
                "SELECT subject, detail FROM audit_log WHERE kind = 'grant.decision' ORDER BY id")]
            rules = db.execute("SELECT count(*) FROM network_rules").fetchone()[0]
        refusals = [(subject, d["action"], d["allowed"], d.get("grant")) for subject, d in audited
                    if d["action"] == "mcp:network_allow"]
        self.assertEqual(refusals, [("lab", "mcp:network_allow", False, None)])
        self.assertEqual(rules, 0)

    def test_grants_are_live_on_every_call_also_from_another_process(self):
        self.assertEqual(self.live["returncode"], 0, self.live["stderr"])
        self.assertEqual(self.live["changes"]["revoke"].returncode, 0)
        decided = [(e["tool"], e["allowed"]) for e in self.tool_events(self.live["name"])]
        self.assertEqual(decided, [("observe_group", True), ("send_message", True), ("send_message", False),
                                   ("send_message", True)])
        self.assertEqual([m["content"] for m in self.messages("lab")], ["first", "third"])
        results = [e["json"] for e in self.live["events"] if e["kind"] == "tool_result"]
        refused = results[3]
        self.assertTrue(refused["is_error"])
        self.assertIn("refused by the grants of lab", refused["content"])
        self.assertIn("Live grants done.", self.live["stdout"])

    def test_messages_reach_the_transcript(self):
        posted = [e["json"] for e in self.live["events"] if e["kind"] == "message"]
        self.assertEqual([m["text"] for m in posted], ["first", "third"])
        self.assertEqual({m["topic"] for m in posted}, {"main"})

    def test_every_decision_is_audited_with_folder_tool_and_grant(self):
        with self.engine.database() as db:
            entries = [(r[0], json.loads(r[1])) for r in db.execute(
                "SELECT subject, detail FROM audit_log WHERE kind = 'grant.decision' ORDER BY id")]
        lab = [(d["action"], d["allowed"], d.get("grant")) for s, d in entries
               if s == "lab" and d["action"] == "mcp:send_message"]
        self.assertEqual(lab, [("mcp:send_message", True, self.live["first_grant"]),
                               ("mcp:send_message", False, None),
                               ("mcp:send_message", True, self.live["changes"]["regrant"])])
        transcript = [e for f in ("lab", "corp/eng", "corp/eng/sre") for e in self.all_tool_events(f)]
        self.assertEqual(len(entries), len(transcript), (entries, transcript))
        for subject, detail in entries:
            self.assertIn("scope", detail)
            if detail["allowed"]:
                self.assertIsInstance(detail["grant"], int)

    def test_delegate_group_runs_a_child_turn_and_the_depth_limit_stops_the_chain(self):
        self.assertEqual(self.chain["result"].returncode, 0, self.chain["result"].stderr)
        child = self.turn_in("corp/eng/sre")
        self.assertEqual(child["state"], "done")
        self.assertEqual(child["prompt"], "chain one level further")
        events = agent_kinds(self.engine.events(child["name"]))
        refusal = [e["json"] for e in events if e["kind"] == "tool_result"]
        self.assertEqual(len(refusal), 1)
        self.assertTrue(refusal[0]["is_error"])
        self.assertIn("the limit is 1", refusal[0]["content"])
        self.assertFalse([t for t in self.engine.turns() if t["group_folder"] == "corp/eng/sre/deep"])

    def test_observed_context_reaches_the_next_turn_within_its_caps(self):
        self.assertEqual(self.observed["result"].returncode, 0, self.observed["result"].stderr)
        self.assertTrue(self.observed["requests"])
        prompt = json.dumps(self.observed["requests"][0]["body"]["messages"])
        block = json.loads(prompt)  # the user message holding the block
        text = "".join(part.get("text", "") if isinstance(part, dict) else str(part)
                       for message in block for part in
                       (message["content"] if isinstance(message["content"], list) else [message["content"]])
                       if message["role"] == "user")
        start, end = text.index("<observed-messages>"), text.index("</observed-messages>")
        lines = [line for line in text[start:end].splitlines() if line.startswith("[corp/eng / main]")]
        # Exactly the newest ten of the fifteen: the count cap is the one
        # that bound, far below the character cap.
        self.assertEqual([line.rsplit(": ", 1)[-1] for line in lines],
                         [f"note {index:02d}" for index in
                          range(OBSERVED_MESSAGES - OBSERVED_COUNT_CAP, OBSERVED_MESSAGES)])
        self.assertLess(sum(len(line) for line in lines), 4000 // 4)
        self.assertIn("older messages left out", text[start:end])
        observed = [e for e in self.engine.events(self.observed["name"]) if e["kind"] == "observed"]
        self.assertEqual(len(observed), 1)

    def test_a_revoked_observation_delivers_nothing_more(self):
        self.assertEqual(self.revoked["result"].returncode, 0, self.revoked["result"].stderr)
        self.assertTrue(self.revoked["requests"])
        messages = self.revoked["requests"][0]["body"]["messages"]
        self.assertNotIn("posted after the revoke", json.dumps(messages))
        # The resumed conversation holds the earlier turn's block; this
        # turn's own prompt (the last user message) must hold none.
        prompt = json.dumps(messages[-1])
        self.assertIn("observe after the revoke", prompt)
        self.assertNotIn("observed-messages", prompt)
        self.assertFalse([e for e in self.engine.events(self.revoked["name"]) if e["kind"] == "observed"])
        with self.engine.database() as db:
            refused = [json.loads(r[0]) for r in db.execute(
                "SELECT detail FROM audit_log WHERE kind = 'observation.refused' AND subject = 'lab'")]
        self.assertEqual([(d["scope"], d["topic"]) for d in refused], [("corp/eng", "main")])

    def test_escalate_groups_answer_comes_back_to_the_calling_topic(self):
        parent = self.turn_in("corp")
        self.assertEqual(parent["state"], "done")
        self.assertEqual(parent["prompt"], "parent, what is the answer")
        back = self.messages("corp/eng")
        self.assertIn({"role": "agent:corp", "content": "The answer is 42."}, back)


if __name__ == "__main__":
    h.main()
