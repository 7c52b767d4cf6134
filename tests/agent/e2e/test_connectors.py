"""A connector from a real guest: Claude Code in the VM calls a connector
tool over its turn's /mcp; the host makes the HTTPS request with the
folder's key (to a loopback server whose CA only this engine trusts, via
ARIZUKO_CONNECTOR_TEST_ORIGIN) and the answer, which echoes the key, comes
back scrubbed. The transcript and the audit row say what happened; a copy
of the guest's environments, command lines and writable files, taken by
the agent itself, holds no key, nor does the guest's whole RAM, dumped by
libvirtd while the agent waits for the model's last reply. With a
shell:env grant instead, the key is in the agent's environment (and so in
that guest's RAM, which shows the search finds what is there) and in no
file of the guest or the host, and the audit names it without its
value."""

import json
import pathlib
import secrets
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream, files_under  # noqa: E402

CONNECTORS = pathlib.Path(__file__).resolve().parents[2] / "engine" / "connectors"
MODEL = "claude-sonnet-4-5"
KEY = "conn-key-" + secrets.token_hex(12)
ENV_KEY = "env-key-" + secrets.token_hex(12)
# The guest's writable files outside the folder's home (which the host
# searches itself), as the agent (the folder's uid in the guest) reads them.
WRITABLE_FILES = ("$(awk '$4 ~ /^rw/ && $3 !~ \"^(9p|devpts|devtmpfs|proc|sysfs)$\" "
                  "{print $2}' /proc/mounts) 2>/dev/null")
# What the agent can read of the guest.
DUMP_COMMAND = (
    "env > conn-env.dump; "
    "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; echo; done > conn-proc.dump 2>/dev/null; "
    f"tar -cf conn-writable.tar {WRITABLE_FILES}; "
    "ls conn-env.dump")
SCRIPT = {
    "name": "connectors",
    "exchanges": [
        {"prompt": "call the service", "steps": [
            {"text": "Calling the connector.",
             "tool_use": {"name": "mcp__arizuko__testsvc_echo", "input": {}}},
            {"tool_use": {"name": "mcp__arizuko__testsvc_get_item", "input": {"id": "../../admin"}}},
            {"tool_use": {"name": "Bash", "input": {"command": DUMP_COMMAND}}},
            {"text": "Done.", "hold": "searched-corp"}]},
        {"prompt": "show the environment", "steps": [
            {"tool_use": {"name": "Bash", "input": {
                "command": f"env > lab-env.dump; tar -cf lab-writable.tar {WRITABLE_FILES}; "
                           "echo dumped"}}},
            {"text": "Done.", "hold": "searched-lab"}]},
    ],
}


class Connectors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.server_dir = tempfile.TemporaryDirectory(prefix="arizuko-connector-server-")
        cls.server = subprocess.Popen(
            [sys.executable, str(CONNECTORS / "https_test_server.py"), cls.server_dir.name],
            stdout=subprocess.PIPE, text=True)
        port = int(cls.server.stdout.readline())
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, new_canary(), {
            "ARIZUKO_CONNECTOR_TEST_ORIGIN": f"https://127.0.0.1:{port}",
            "ARIZUKO_CONNECTOR_TEST_CA": str(pathlib.Path(cls.server_dir.name, "ca.pem"))})
        definitions = pathlib.Path(cls.engine.data_dir, "connectors")
        definitions.mkdir(exist_ok=True)
        shutil.copy(CONNECTORS / "test_definitions.toml", definitions / "test.toml")
        cls.engine.add_folder("corp")
        cls.engine.add_folder("corp/eng")
        # The key is the parent folder's: the host walks up to find it.
        stored = subprocess.run(cls.engine.command("secret", "set", "TESTSVC_KEY", "--folder", "corp"),
                                input=KEY + "\n", capture_output=True, text=True,
                                env=cls.engine.environment, timeout=60)
        if stored.returncode != 0:
            raise AssertionError(stored.stderr)
        granted = cls.engine.run("grant", "add", "corp/eng", "ext:testsvc:**", "corp/eng")
        if granted.returncode != 0:
            raise AssertionError(granted.stderr)
        cls.result, cls.in_memory = cls.run_searched("corp/eng", "call the service", 3,
                                                     "searched-corp", [KEY.encode()])
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)
        cls.home = cls.engine.home("corp/eng")
        # The escape hatch, in a folder of its own.
        cls.engine.add_folder("lab")
        stored = subprocess.run(cls.engine.command("secret", "set", "LAB_TOKEN", "--folder", "lab"),
                                input=ENV_KEY + "\n", capture_output=True, text=True,
                                env=cls.engine.environment, timeout=60)
        if stored.returncode != 0:
            raise AssertionError(stored.stderr)
        cls.env_grant = cls.engine.run("grant", "add", "lab", "shell:env:LAB_TOKEN", "lab")
        cls.env_result, cls.env_in_memory = cls.run_searched(
            "lab", "show the environment", 1, "searched-lab", [ENV_KEY.encode()])
        cls.env_name = h.turn_name_from(cls.env_result.stderr)

    @classmethod
    def run_searched(cls, folder, prompt, tool_results, hold, needles):
        """Runs a turn of `folder` and, once it has `tool_results` tool
        results and waits for the model's reply held under `hold` (its
        agent and VM still up), searches its guest's RAM for `needles`:
        (the finished arizukoctl run, the needles found)."""
        process = cls.engine.start("run", "--model", MODEL, folder, prompt)

        def waiting_turn():
            with cls.engine.database() as db:
                row = db.execute(
                    "SELECT t.vm_name, count(e.seq) FROM turns t LEFT JOIN turn_events e "
                    "ON e.turn = t.id AND e.kind = 'tool_result' "
                    "WHERE t.group_folder = ? AND t.state = 'running' GROUP BY t.id",
                    (folder,)).fetchone()
            return row[0] if row and row[1] >= tool_results else None

        try:
            domain = h.wait_for(waiting_turn, 500, 0.5, f"{folder}'s turn to wait for its reply")
            found = h.guest_memory_holds(domain, needles, cls.engine.directory.name)
        finally:
            cls.upstream.release(hold)
            stdout, stderr = process.communicate(timeout=600)
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), found

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(timeout=10)
        cls.server_dir.cleanup()
        cls.upstream.close()
        cls.engine.close()

    def requests(self):
        log = pathlib.Path(self.server_dir.name, "requests.jsonl")
        return [json.loads(line) for line in log.read_text().splitlines() if line]

    def tool_results(self):
        return [json.dumps(e["json"]) for e in self.events if e["kind"] == "tool_result"]

    def test_the_host_called_the_declared_path_with_the_key(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        seen = self.requests()
        self.assertEqual([r["target"] for r in seen],
                         ["/api/echo-key", "/api/items/..%2F..%2Fadmin"])
        self.assertEqual({r["headers"]["x-api-key"] for r in seen}, {KEY})

    def test_the_transcript_shows_the_call_and_no_key(self):
        results = self.tool_results()
        echoed = [r for r in results if "GET /api/echo-key" in r]
        self.assertEqual(len(echoed), 1, results)
        self.assertIn("HTTP 200", echoed[0])
        self.assertIn("[secret TESTSVC_KEY]", echoed[0])
        self.assertTrue([r for r in results if "GET /api/items/..%2F..%2Fadmin" in r], results)
        # The host's own record of each call, which the window puts on the
        # agent's tool call: method, path, status; never the key.
        calls = [e["json"] for e in self.events if e["kind"] == "connector"]
        self.assertEqual([(c["tool"], c["method"], c["path"], c["status"], c["http_status"])
                          for c in calls],
                         [("testsvc_echo", "GET", "/api/echo-key", "ok", 200),
                          ("testsvc_get_item", "GET", "/api/items/..%2F..%2Fadmin", "ok", 200)])
        self.assertNotIn(KEY, json.dumps(self.events))

    def test_one_audit_row_per_call_without_the_key(self):
        rows = self.engine.run("--json", "audit", "--kind", "connector.call")
        self.assertEqual(rows.returncode, 0, rows.stderr)
        entries = json.loads(rows.stdout)
        # The turn's id; its name is az- and the id's first 8 characters.
        self.assertEqual([(e["detail"]["tool"], e["detail"]["status"], e["detail"]["http_status"],
                           e["detail"]["turn"][:8], e["detail"]["keys"], e["subject"])
                          for e in entries],
                         [("testsvc_echo", "ok", 200, self.name[3:], ["TESTSVC_KEY"], "corp/eng"),
                          ("testsvc_get_item", "ok", 200, self.name[3:], ["TESTSVC_KEY"],
                           "corp/eng")])
        self.assertNotIn(KEY, rows.stdout)

    def test_the_key_is_nowhere_in_the_guest(self):
        for dump in ("conn-env.dump", "conn-proc.dump", "conn-writable.tar"):
            self.assertGreater((self.home / dump).stat().st_size, 0, dump)
        self.assertEqual(self.in_memory, set())
        # The agent's own environment was among those read.
        self.assertIn(b"ARIZUKO_FOLDER=corp/eng", (self.home / "conn-proc.dump").read_bytes())
        key = KEY.encode()
        leaked = [str(path) for path in files_under(self.engine.data_dir)
                  if key in path.read_bytes()]
        self.assertEqual(leaked, [])
        self.assertNotIn(KEY, self.result.stdout + self.result.stderr)

    def test_a_shell_env_grant_puts_the_key_in_the_agents_environment(self):
        self.assertEqual(self.env_grant.returncode, 0, self.env_grant.stderr)
        self.assertIn("leaves the host's control", self.env_grant.stderr)
        self.assertIn("connector", self.env_grant.stderr)
        self.assertEqual(self.env_result.returncode, 0, self.env_result.stderr)
        lab = self.engine.home("lab")
        lines = (lab / "lab-env.dump").read_text().splitlines()
        self.assertIn("LAB_TOKEN=" + ENV_KEY, lines)
        # The search of the guest's RAM sees it there ...
        self.assertEqual(self.env_in_memory, {ENV_KEY.encode()})
        # ... and no file holds it but the agent's own copy: not the
        # guest's writable files (in the tar), nor the host's data
        # directory (the store, audit, console logs, homes).
        self.assertGreater((lab / "lab-writable.tar").stat().st_size, 0)
        key = ENV_KEY.encode()
        self.assertEqual([str(path) for path in files_under(self.engine.data_dir)
                          if path != lab / "lab-env.dump" and key in path.read_bytes()], [])
        self.assertNotIn(ENV_KEY, self.env_result.stdout + self.env_result.stderr)
        rows = self.engine.run("--json", "audit", "--kind", "shell-env")
        entries = json.loads(rows.stdout)
        self.assertEqual([(e["subject"], e["detail"]["keys"], e["detail"]["turn"][:8])
                          for e in entries], [("lab", ["LAB_TOKEN"], self.env_name[3:])])
        self.assertNotIn(ENV_KEY, rows.stdout)
        self.assertNotIn(ENV_KEY, json.dumps(self.engine.events(self.env_name)))
        # The connector folder got no environment from it.
        self.assertNotIn(ENV_KEY.encode(), (self.home / "conn-env.dump").read_bytes())


if __name__ == "__main__":
    h.main()
