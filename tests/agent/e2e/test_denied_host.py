"""What an agent's model reads when the turn's proxy refuses a host (issue
36, "denials an agent understands"). Claude Code, Codex and pi, each in a
real VM driven by a scripted model, run one shell command that asks the
proxy for a host on no list four ways: busybox wget (the guest's only HTTP
client) on an http and an https URL, and a raw GET and CONNECT on a socket
(bash's /dev/tcp) that print the whole answer. Claude Code also calls its
own WebFetch. The test reads the tool results in the model's next request:
the refusal (status; where the client prints it, reason, host and how the
user can allow it), not a hang or a bare connection error; the turn ends
normally, and the proxy saw each request once (no retries). What each
agent does with it: docs/agents.md, "Denied hosts"."""

import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream, agent_kinds  # noqa: E402

HOST = "blocked.example"
# No "${": a step's text is sent as it is. The proxy's address comes from
# the variables the guest sets for every agent.
COMMAND = (
    f"wget -q -O- 'http://{HOST}/page?q=secret' 2>&1; echo \"wget http exit $?\"; "
    f"wget -q -O- https://{HOST}/ 2>&1; echo \"wget https exit $?\"; "
    "proxy=$(echo \"$http_proxy\" | sed 's#^http://##; s#/$##'); "
    "ask() { exec 3<>/dev/tcp/$(echo $proxy | cut -d: -f1)/$(echo $proxy | cut -d: -f2) "
    "&& printf \"$1\" >&3 && cat <&3; exec 3<&-; }; "
    f"ask 'GET http://{HOST}/raw HTTP/1.1\\r\\nHost: {HOST}\\r\\nConnection: close\\r\\n\\r\\n'; "
    "echo \"raw http exit $?\"; "
    f"ask 'CONNECT {HOST}:443 HTTP/1.1\\r\\nHost: {HOST}:443\\r\\n\\r\\n'; echo \"raw connect exit $?\"")
MARKS = ["wget http exit", "wget https exit", "raw http exit", "raw connect exit"]


def script(shell, *more):
    """One exchange: the shell call, the `more` calls, a closing text."""
    steps = [{"text": "Fetching the page.", "tool_use": {"name": shell, "input": {"command": COMMAND}}}]
    steps += [{"tool_use": call} for call in more]
    return {"name": "denied", "exchanges": [
        {"prompt": "fetch the page", "steps": steps + [{"text": "The proxy refused the host."}]}]}


def tool_outputs(request):
    """The tool results in a model request, as text: Anthropic's messages
    (Claude Code, pi) or OpenAI's responses input (Codex)."""
    def text(content):
        return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)
    body = request["body"]
    outputs = [text(part["content"]) for message in body.get("messages", [])
               if message["role"] == "user" and isinstance(message["content"], list)
               for part in message["content"] if part.get("type") == "tool_result"]
    outputs += [text(item["output"]) for item in body.get("input", [])
                if isinstance(item, dict) and item.get("type") == "function_call_output"]
    return outputs


class DeniedHost:
    """What every agent's model reads; the subclass names the agent."""
    RUN = ()
    SCRIPT = None
    PATH = "/v1/messages"
    SECRET = "ANTHROPIC_API_KEY"
    # The proxy's decisions after the shell command's, in order.
    MORE_DECISIONS = []

    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = ScriptedUpstream(cls.SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, new_canary(), secret=cls.SECRET)
        cls.engine.add_folder("corp")
        cls.result = cls.engine.run("run", *cls.RUN, "--deadline", "900", "corp", "fetch the page",
                                    timeout=900)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)
        # What the model got back: the tool results in its last request.
        requests = cls.upstream.requests(cls.PATH)
        cls.seen = tool_outputs(requests[-1]) if requests else []
        print(f"\nthe model read: {json.dumps(cls.seen, indent=1)}", file=sys.stderr)
        # Codex heads its shell output with the call's figures, up to "Output:".
        cls.bash = cls.seen[0].split("\nOutput:\n", 1)[-1] if cls.seen else ""

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    def part(self, end):
        """The Bash result's output from the previous mark to the line `end`."""
        start = 0
        for mark in MARKS[:MARKS.index(end)]:
            start = self.bash.index("\n", self.bash.index(mark)) + 1
        return self.bash[start:self.bash.index(end)]

    def test_the_turn_ends_normally(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.engine.turn(self.name)["state"], "done")
        # Codex's warnings are output lines beside the conversation.
        agent = [e for e in agent_kinds(self.events) if e["kind"] != "output"]
        calls = ["tool_use", "tool_result"] * (len(self.SCRIPT["exchanges"][0]["steps"]) - 1)
        self.assertEqual([e["kind"] for e in agent], ["init", "text"] + calls + ["text", "result"])
        self.assertEqual(agent[-1]["json"]["subtype"], "success")
        self.assertIn("The proxy refused the host.", self.result.stdout)

    def test_busybox_wget_reads_the_status_only(self):
        # busybox wget prints neither the headers nor the body of an error
        # response: the model reads "403 Forbidden" and nothing more, which
        # still tells it that a server refused, not that the network failed.
        self.assertEqual(self.part("wget http exit").strip(),
                         "wget: server returned error: HTTP/1.1 403 Forbidden")
        # An https URL: busybox wget sends it to the proxy as an absolute
        # https GET (no CONNECT), which the proxy cannot serve.
        self.assertEqual(self.part("wget https exit").strip(),
                         "wget: server returned error: HTTP/1.1 400 Bad Request")

    def test_a_client_that_prints_the_response_reads_the_host_the_reason_and_how_to_allow_it(self):
        for mark in ("raw http exit", "raw connect exit"):
            raw = self.part(mark)
            self.assertIn("HTTP/1.1 403 Forbidden", raw)
            self.assertIn("X-Arizuko-Egress-Reason: host-not-allowed", raw)
            self.assertIn(f"X-Arizuko-Egress-Host: {HOST}", raw)
            self.assertIn(f"arizuko-egress: host-not-allowed: {HOST} is not on this turn's allowlist. "
                          "The user can allow it in Arizuko's Network tab or with: arizukoctl network allow ",
                          raw)

    def test_the_denial_names_the_folder_to_allow_the_host_in(self):
        # The turn's proxy runs with --folder: the command the agent can
        # hand the user is one to run as it is.
        for mark in ("raw http exit", "raw connect exit"):
            self.assertIn(f"or with: arizukoctl network allow corp {HOST}\n", self.part(mark))

    def test_the_proxy_saw_each_request_once(self):
        decisions = [e["json"] for e in self.events
                     if e["kind"] == "network" and e["json"].get("event") == "decision"]
        print(f"\ndecisions: {[(d['method'], d['host'], d.get('path'), d['reason']) for d in decisions]}",
              file=sys.stderr)
        # In order: wget's plain GET, its absolute https GET (unparsed, no
        # host), the two raw requests, then the agent's own. One each: no
        # client retried a refusal.
        self.assertEqual([(d["method"], d["host"], d.get("path"), d["reason"], d["status"]) for d in decisions],
                         [("GET", HOST, "/page", "host-not-allowed", 403),
                          ("", "", None, "bad-request", 400),
                          ("GET", HOST, "/raw", "host-not-allowed", 403),
                          ("CONNECT", HOST, None, "host-not-allowed", 403)] + self.MORE_DECISIONS, decisions)


class ClaudeCode(DeniedHost, unittest.TestCase):
    RUN = ("--model", "claude-sonnet-4-5")
    SCRIPT = script("Bash", {"name": "WebFetch", "input": {"url": f"https://{HOST}/doc",
                                                           "prompt": "What does the page say?"}})
    MORE_DECISIONS = [("CONNECT", "api.anthropic.com", None, "host-not-allowed", 403)]

    def test_claude_codes_web_fetch_never_asks_for_the_host(self):
        # WebFetch first asks Anthropic whether the domain is safe to
        # fetch; the proxy refuses that (api.anthropic.com is on no list),
        # and Claude Code reports it as a blocked claude.ai, never asking
        # the proxy for the host itself (the decisions, next test).
        self.assertEqual(len(self.seen), 2, self.seen)
        self.assertTrue(self.seen[1].startswith(
            f"Unable to verify if domain {HOST} is safe to fetch. This may be due to network "
            "restrictions or enterprise security policies blocking claude.ai."), self.seen[1])


class Codex(DeniedHost, unittest.TestCase):
    # The "Bash" call becomes the shell tool Codex offers (exec_command).
    RUN = ("--agent", "codex", "--model", "gpt-5.2")
    SCRIPT = script("Bash")
    PATH = "/v1/responses"
    SECRET = "OPENAI_API_KEY"


class Pi(DeniedHost, unittest.TestCase):
    RUN = ("--agent", "pi", "--model", "claude-sonnet-4-5")
    SCRIPT = script("bash")


if __name__ == "__main__":
    h.main()
