"""A bound secret end to end (issue 37, "Credentials as placeholders"): the
secret TOKEN of folder corp is bound to bound.test with `Authorization:
Bearer {}`; other.test is allowed too, and inspected (a rule by method and
path). One command turn, whose guest's Node sends `Authorization: Bearer
$TOKEN` over HTTPS through the turn's proxy to an origin on loopback with
its own CA (as test_inspected_hosts.py):

- to bound.test the request arrives with the value (the origin records
  it), and the origin's echo of the value arrives in the guest scrubbed;
- to other.test the same placeholder is refused (403 placeholder-leak),
  reaches no origin, and the ledger holds the leak, naming the secret;
- the guest's environment holds the placeholder, never the value, and so
  do every process's environment and command line, every writable file of
  the guest and its whole RAM (a memory-only dump taken while the command
  waits, as agent.connectors takes it); the placeholder is found there,
  which shows the search finds what is there."""

import base64
import json
import pathlib
import secrets
import ssl
import subprocess
import sys
import tarfile
import tempfile
import unittest
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from ask_support import WRITABLE_FILES, inspect_results  # noqa: E402
from https_origin import Origin, make_origin_certificates  # noqa: E402
from confinement_support import h  # noqa: E402

BOUND = "bound.test"
OTHER = "other.test"
VALUE = "bound-value-" + secrets.token_hex(12)
DUMP = ("env > secret-env.dump; "
        "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; echo; done > secret-proc.dump "
        "2>/dev/null; "
        f"tar -cf secret-writable.tar {WRITABLE_FILES}")


class BoundSecrets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        h.require_guest_image()
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="arizuko-bound-"))
        origin_ca, certificate, key = make_origin_certificates(
            cls.scratch, [BOUND, OTHER], "bound-secrets test origin CA")
        cls.engine = engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1",
                                        "ARIZUKO_KEY_STORE": "file",
                                        "EGRESS_TEST_UPSTREAM_CA": str(origin_ca)})
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(str(certificate), str(key))
        cls.origin = origin = Origin(tls)
        try:
            engine.add_folder("corp")
            stored = subprocess.run(engine.command("secret", "set", "TOKEN", "--folder", "corp"),
                                    input=VALUE, text=True, capture_output=True,
                                    env=engine.environment)
            if stored.returncode != 0:
                raise AssertionError(stored.stderr)
            for arguments in (("network", "allow", "corp", BOUND),
                              ("network", "allow", "corp", OTHER, "--method", "GET", "--path",
                               "/**"),
                              ("secret", "bind", "TOKEN", "--folder", "corp", "--host", BOUND,
                               "--header", "Authorization: Bearer {}")):
                done = engine.run(*arguments)
                if done.returncode != 0:
                    raise AssertionError(done.stderr)
            cls.home = engine.home("corp")
            cls.home.mkdir(parents=True, exist_ok=True)
            (cls.home / "inspect_requests.mjs").write_text(
                (pathlib.Path(__file__).resolve().parent / "inspect_requests.mjs").read_text())
            steps = (f"bound GET https://{BOUND}:{origin.port}/echo "
                     f"leak GET https://{OTHER}:{origin.port}/echo")
            # The command waits for the host's RAM search before it ends.
            command = ('echo "TOKEN=$TOKEN"; '
                       'INSPECT_AUTHORIZATION="Bearer $TOKEN" '
                       f"node inspect_requests.mjs {steps}; {DUMP}; touch searched.wait; "
                       "while [ ! -e searched.done ]; do sleep 0.2; done")
            run = engine.start("run", "--agent", "command", "--deadline", "300", "corp", command,
                               prefix=c.hosts_file_prefix(engine.directory.name,
                                                          {BOUND: "127.0.0.1",
                                                           OTHER: "127.0.0.1"}))
            try:
                def waiting_domain():
                    if not (cls.home / "searched.wait").exists():
                        return None
                    with engine.database() as db:
                        row = db.execute("SELECT vm_name FROM turns WHERE group_folder = 'corp' "
                                         "AND state = 'running'").fetchone()
                    return row[0] if row else None

                try:
                    domain = h.wait_for(waiting_domain, 600, 0.5, "the command to wait")
                    cls.in_memory = h.guest_memory_holds(
                        domain, cls.needles() + [b"arizuko-placeholder-"],
                        engine.directory.name)
                finally:
                    (cls.home / "searched.done").touch()
                cls.out, cls.err = run.communicate(timeout=600)
                cls.returncode = run.returncode
            finally:
                run.kill()
                run.communicate()
        except BaseException:
            engine.close()
            origin.close()
            raise
        origin.close()
        cls.name = h.turn_name_from(cls.err)
        cls.lines, cls.results = inspect_results(engine, cls.name)

    @classmethod
    def needles(cls):
        """The value in every form a tool might hold it."""
        raw = VALUE.encode()
        return [raw, base64.b64encode(raw), urllib.parse.quote(VALUE).encode(), raw.hex().encode()]

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()
        subprocess.run(["rm", "-rf", str(cls.scratch)], check=False)

    def placeholder(self):
        line = next(line for line in self.lines if line.startswith("TOKEN="))
        return line[len("TOKEN="):]

    def test_the_guest_gets_a_placeholder_for_the_turn(self):
        self.assertEqual(self.returncode, 0, self.err[-3000:])
        self.assertRegex(self.placeholder(), r"^arizuko-placeholder-[0-9a-f]{32}$")

    def test_the_bound_host_gets_the_value_and_its_echo_is_scrubbed(self):
        self.assertIn((f"{BOUND}:{self.origin.port}", f"Bearer {VALUE}"), self.origin.seen)
        self.assertEqual(self.results.get("bound"),
                         f"http-200 reason=none body=origin /echo auth=Bearer {'*' * len(VALUE)}",
                         self.lines)

    def test_the_placeholder_to_another_host_is_refused_and_recorded(self):
        self.assertTrue(self.results.get("leak", "").startswith(
            "http-403 reason=placeholder-leak"), self.lines)
        self.assertEqual([seen for seen in self.origin.seen if seen[0].startswith(OTHER)], [])
        log = self.engine.run("network", "log", "--turn", self.name, "--format", "jsonl")
        self.assertEqual(log.returncode, 0, log.stderr)
        rows = [json.loads(line) for line in log.stdout.splitlines() if line.strip()]
        leaks = [row for row in rows if row.get("reason") == "placeholder-leak"]
        self.assertEqual([(row["host"], row["decision"]) for row in leaks], [(OTHER, "deny")],
                         rows)
        self.assertNotIn(self.placeholder(), log.stdout)
        self.assertNotIn(VALUE, log.stdout)

    def test_the_value_is_nowhere_in_the_guest(self):
        contents = b"".join((self.home / name).read_bytes()
                            for name in ("secret-env.dump", "secret-proc.dump"))
        with tarfile.open(self.home / "secret-writable.tar") as archive:
            for member in archive.getmembers():
                if member.isfile():
                    contents += archive.extractfile(member).read()
        self.assertEqual([needle for needle in self.needles() if needle in contents], [])
        # The whole RAM: the value in no form; the placeholder is there, so
        # the search finds what is there.
        self.assertEqual(self.in_memory, {b"arizuko-placeholder-"})
        # The search of the files reaches the environment, which holds the placeholder.
        self.assertIn(f"TOKEN={self.placeholder()}\n".encode(),
                      (self.home / "secret-env.dump").read_bytes())
        # Nor is the value in the events, or any file of the folder's home.
        self.assertNotIn(VALUE, json.dumps(self.engine.events(self.name)))
        self.assertEqual([path for path in self.home.rglob("*")
                          if path.is_file() and VALUE.encode() in path.read_bytes()], [])

if __name__ == "__main__":
    h.main()
