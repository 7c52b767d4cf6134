"""Helpers for the agent tests: a scripted model served as a real upstream
(`arizukoctl model serve`), the engine configured to reach it through
each turn's model gateway with a canary API key, and an HTTPS origin the
folder's request rule makes an inspected host, which the agent's shell
fetches from."""

import json
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

TESTS = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS / "turns" / "harness"))
import turns_harness as h  # noqa: E402,F401  (re-exported for the tests)
from https_origin import Origin, make_origin_certificates, server_context  # noqa: E402


class ScriptedUpstream:
    """`arizukoctl model serve` on loopback with a script; every request it
    received is in its request log."""

    def __init__(self, script):
        self.directory = tempfile.TemporaryDirectory(prefix="arizuko-upstream-")
        self.script = pathlib.Path(self.directory.name, "script.json")
        self.script.write_text(json.dumps(script))
        self.log = pathlib.Path(self.directory.name, "requests.jsonl")
        self.process = subprocess.Popen(
            [h.ARGS.arizukoctl, "model", "serve", "--script", str(self.script),
             "--request-log", str(self.log)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.close()
            raise AssertionError(f"model serve did not start: {line!r} {self.process.stderr.read()}")
        self.url = "http://" + line.split()[-1]

    def requests(self, path_prefix="/v1/messages"):
        if not self.log.exists():
            return []
        entries = [json.loads(line) for line in self.log.read_text().splitlines() if line]
        return [e for e in entries if e["path"].split("?")[0] == path_prefix]

    def release(self, hold):
        """Lets the replies held under `hold` go out (a step's "hold")."""
        request = urllib.request.Request(f"{self.url}/script/release/{hold}", data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.directory.cleanup()


class RawUpstream:
    """An upstream on 127.0.0.1 that parses nothing: it keeps every byte
    of every connection and answers a request whose head and
    Content-Length body are in with a small JSON message."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.connections = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        received = bytearray()
        with self.lock:
            self.connections.append(received)
        with connection:
            while True:
                data = connection.recv(65536)
                if not data:
                    return
                with self.lock:
                    received += data
                end = received.find(b"\r\n\r\n")
                if end < 0:
                    continue
                length = 0
                for line in bytes(received[:end]).split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip() or 0)
                if len(received) < end + 4 + length:
                    continue
                body = (b'{"id":"msg_raw","type":"message","role":"assistant","model":"claude-sonnet-4-5",'
                        b'"content":[],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}')
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
                return

    def received(self):
        with self.lock:
            return [bytes(c) for c in self.connections]

    def close(self):
        self.listener.close()


def new_canary(prefix="sk-ant-api03-CANARY-"):
    return prefix + secrets.token_hex(12)


def engine_with_upstream(upstream, canary, extra_environment=None, secret="ANTHROPIC_API_KEY"):
    """An engine whose turns use the API-key provider against `upstream`,
    with `canary` stored as the key `secret` in the base folder's secrets."""
    environment = {"ARIZUKO_MODEL_PROVIDER": "api-key", "ARIZUKO_MODEL_URL": upstream.url}
    environment.update(extra_environment or {})
    engine = h.Engine(environment)
    result = subprocess.run(engine.command("secret", "set", secret), input=canary + "\n",
                            capture_output=True, text=True, env=engine.environment, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"secret set: {result.stderr}")
    return engine


class RawUpstreamTurn(unittest.TestCase):
    """A test class whose engine reaches a RawUpstream with a canary API
    key; its _run() (a classmethod) runs the turn, and whatever happens the
    engine and the upstream are closed."""

    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = RawUpstream()
        cls.canary = new_canary()
        try:
            cls.engine = engine_with_upstream(cls.upstream, cls.canary)
        except BaseException:
            cls.upstream.close()
            raise
        try:
            cls._run()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()
        cls.upstream.close()


# The inspected origin's address: an IP literal needs no name resolution,
# so the proxy reaches it without the root-only private /etc/hosts.
INSPECTED_HOST = "127.0.0.1"
# What the agent's shell prints for the inspected origin (inspect_requests.mjs):
# the GET the rule allows, with the origin's body, and the proxy's denial
# of the POST no rule allows.
INSPECTED_LINES = ("INSPECT get http-200 reason=none body=origin /ok/agent",
                   "INSPECT post http-403 reason=no-matching-rule "
                   "body=arizuko-egress: no-matching-rule")


class InspectedOrigin:
    """An HTTPS origin on 127.0.0.1 with a CA of its own, which a folder's
    rule by method and path makes an inspected host (issue 37): the turn's
    proxy ends TLS with the turn's CA, which the guest trusts, and judges
    each request. `environment` is for the engine (the proxy may reach
    loopback and trusts the origin's CA); `prepare` gives a folder `allow
    GET 127.0.0.1 /ok/**` and puts inspect.sh in its home, which note
    commands run: a GET and a POST over HTTPS through the proxy, verified
    with the guest Node's default trust (NODE_EXTRA_CA_CERTS)."""

    def __init__(self):
        self.directory = tempfile.TemporaryDirectory(prefix="arizuko-inspected-")
        ca, certificate, key = make_origin_certificates(self.directory.name, [INSPECTED_HOST],
                                                           "agent tests origin CA")
        self.origin = Origin(server_context(certificate, key))
        self.environment = {"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1", "EGRESS_TEST_UPSTREAM_CA": str(ca)}

    def prepare(self, engine, folder):
        result = engine.run("network", "allow", folder, INSPECTED_HOST, "--method", "GET",
                            "--path", "/ok/**")
        if result.returncode != 0:
            raise AssertionError(f"network allow: {result.stderr}")
        home = engine.home(folder)
        home.mkdir(parents=True, exist_ok=True)
        script = TESTS / "turns" / "confinement" / "inspect_requests.mjs"
        (home / "inspect_requests.mjs").write_text(script.read_text())
        url = f"https://{INSPECTED_HOST}:{self.origin.port}/ok/agent"
        (home / "inspect.sh").write_text(f"node inspect_requests.mjs get GET {url} post POST {url}\n")

    def close(self):
        self.origin.close()
        self.directory.cleanup()


def assert_inspected_fetches(test, turn, model_requests):
    """The agent's shell reached the inspected origin as the rule says and
    the model was told: the tool's real result in the transcript, and the
    model's next request, hold the allowed GET's body and the POST's
    denial; the proxy judged each request on its own (GET allowed, POST
    denied)."""
    results = "\n".join(e["json"]["content"] for e in turn["events"] if e["kind"] == "tool_result")
    told = [json.dumps(request["body"]) for request in model_requests]
    for line in INSPECTED_LINES:
        test.assertIn(line, results)
        test.assertTrue(any(line in body for body in told), f"no model request holds {line!r}")
    # Each CONNECT has a line of its own ("inspected":true), then its request.
    requests = sorted((d["method"], d["decision"], d["reason"]) for d in inspected_decisions(turn)
                      if d["method"] != "CONNECT")
    test.assertEqual(requests, [("GET", "allow", "allowed"), ("POST", "deny", "no-matching-rule")])


def inspected_decisions(turn):
    """The proxy's decision lines about the inspected origin in a turn."""
    return [e["json"] for e in turn["events"] if e["kind"] == "network"
            and e["json"].get("event") == "decision" and e["json"].get("host") == INSPECTED_HOST]


def note_exchanges(writer):
    """The scripted conversation the agent tests start with: a shell call
    that writes note.txt in the home (and dumps every process's environment
    there, for the credential checks) and fetches from the inspected origin
    (InspectedOrigin's inspect.sh), then a question the next turn answers
    from the conversation. The shell command and the exchanges."""
    command = (f"uname -sr; echo written-by-{writer} > note.txt; "
               "cat /proc/[0-9]*/environ > environ.dump 2>/dev/null; ls note.txt; sh inspect.sh")
    return command, [
        {"prompt": "please write the note", "steps": [
            {"text": "Running a command in the VM.",
             "tool_use": {"name": "Bash", "input": {"command": command}}},
            {"text": "The note is written."}]},
        {"prompt": "what did you write", "steps": [{"text": "Earlier I wrote note.txt."}]},
    ]


def run_turn(engine, folder, prompt, *options, timeout=600):
    """`arizukoctl run` to its end: its output, the turn's row and events,
    and how long it took."""
    started = time.monotonic()
    result = engine.run("run", *options, folder, prompt, timeout=timeout)
    elapsed = time.monotonic() - started
    name = h.turn_name_from(result.stderr)
    return {"result": result, "name": name, "turn": engine.turn(name), "events": engine.events(name),
            "elapsed": elapsed}


def session_of(engine, folder, topic):
    with engine.database() as db:
        return db.execute("SELECT session_id FROM sessions WHERE group_folder = ? AND topic = ?",
                          (folder, topic)).fetchone()[0]


def init_of(turn):
    return [e["json"] for e in turn["events"] if e["kind"] == "init"][0]


def credential_places(engine, turns):
    """Everywhere a model credential must never be, by name: every file of
    the data directory (the homes with what the agent dumped there, the
    store and its WAL, the audit log), each turn's console log, its events
    and what arizukoctl printed."""
    places = {}
    for path in files_under(engine.data_dir):
        places[f"data:{path}"] = path.read_bytes()
    for turn in turns:
        console = pathlib.Path(engine.data_dir, "turns", turn["turn"]["id"], "console.log")
        if not console.is_file():
            raise AssertionError(f"no console log {console}")
        places[f"console:{console}"] = console.read_bytes()
        places[f"events:{turn['name']}"] = json.dumps(turn["events"]).encode()
        places[f"stdout:{turn['name']}"] = (turn["result"].stdout + turn["result"].stderr).encode()
    return places


def agent_kinds(events):
    kinds = ("init", "text", "thinking", "tool_use", "tool_result", "result", "output")
    return [e for e in events if e["kind"] in kinds]


def files_under(directory):
    for path in pathlib.Path(directory).rglob("*"):
        if path.is_file() and not path.is_symlink():
            yield path


def shell_call_transcript(test, turn, tool, command, texts):
    """Asserts the turn's agent events are a text and a shell call, its
    real result from the guest, a text and the result, in order; returns
    (tool_use, tool_result)."""
    events = agent_kinds(turn["events"])
    test.assertEqual([e["kind"] for e in events],
                     ["init", "text", "tool_use", "tool_result", "text", "result"])
    use, result = events[2]["json"], events[3]["json"]
    test.assertEqual(use["name"], tool)
    test.assertEqual(use["input"]["command"], command)
    test.assertEqual(result["tool_use_id"], use["id"])
    test.assertFalse(result["is_error"])
    # The guest's own output: its kernel and the file it just listed.
    test.assertRegex(result["content"], r"^Linux 6\.")
    test.assertIn("note.txt", result["content"])
    test.assertEqual([events[1]["json"]["text"], events[4]["json"]["text"]], texts)
    test.assertEqual(events[5]["json"]["subtype"], "success")
    seqs = [e["seq"] for e in turn["events"]]
    test.assertEqual(seqs, sorted(seqs))
    return use, result
