"""git over HTTPS through an inspected host (issue 37): `git http-backend`
behind TLS with its own CA and Basic authentication (git_server.py), on
loopback under the name git.test, and Debian's git in the guest. The folder
has `allow GET,POST git.test /repo.git/**` and `deny POST git.test
/**/git-receive-pack`, and its secret GIT_PASSWORD is bound to git.test as
HTTP Basic's password (`secret bind --basic`); git's credential helper in
the guest gives git $GIT_PASSWORD, the turn's placeholder:

- a first command turn clones and commits; its push is refused with 403,
  nothing of it reaches the server, and the ledger names the deny rule;
- with the deny rule removed (rules are fixed per turn, so a second,
  short turn) the push goes through and the server holds the guest's
  commit;
- the server got the secret's value on every authenticated request, never
  a placeholder; the guest held a placeholder made for its turn, and never
  the value in any form (its environment, every process's environment and
  command line, every writable file, the folder's home, and its whole RAM
  while the first turn waits, as turns.bound_secrets searches)."""

import base64
import json
import pathlib
import secrets
import subprocess
import sys
import tarfile
import tempfile
import unittest
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
import git_server  # noqa: E402
from ask_support import WRITABLE_FILES  # noqa: E402
from confinement_support import h  # noqa: E402
from https_origin import make_origin_certificates, server_context  # noqa: E402

HOST = "git.test"
ALLOW = ("allow", "corp", HOST, "--method", "GET,POST", "--path", "/repo.git/**")
DENY = ("deny", "corp", HOST, "--method", "POST", "--path", "/**/git-receive-pack")
USER, SECRET = "agent", "GIT_PASSWORD"
VALUE = "git-secret-" + secrets.token_hex(12)
DUMP = ("env > git-env.dump; "
        "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; echo; done > git-proc.dump "
        f"2>/dev/null; tar -cf git-writable.tar {WRITABLE_FILES}")


class GitThroughAnInspectedHost(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        h.require_guest_image()
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="arizuko-git-"))
        origin_ca, certificate, key = make_origin_certificates(cls.scratch, [HOST],
                                                               "git test origin CA")
        cls.repositories = cls.scratch / "repositories"
        cls.repositories.mkdir()
        cls.first_head = git_server.make_repository(cls.repositories, "repo.git")
        cls.server = git_server.GitServer(server_context(certificate, key), cls.repositories)
        cls.engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1", "ARIZUKO_KEY_STORE": "file",
                               "EGRESS_TEST_UPSTREAM_CA": str(origin_ca)})
        try:
            cls._run()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        for rule in (ALLOW, DENY):
            cls.network(*rule)
        stored = subprocess.run(engine.command("secret", "set", SECRET, "--folder", "corp"),
                                input=VALUE, text=True, capture_output=True,
                                env=engine.environment, timeout=60)
        if stored.returncode != 0:
            raise AssertionError(stored.stderr)
        bound = engine.run("secret", "bind", SECRET, "--folder", "corp", "--host", HOST, "--basic")
        if bound.returncode != 0:
            raise AssertionError(bound.stderr)
        home = engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        git_server.install_guest_git(home / "gitbin")
        (home / "git_steps.sh").write_text((c.HERE / "git_steps.sh").read_text())
        cls.pushed = cls.turn("clone", "commit", "push", search=True)
        cls.requests_of_the_first_turn = list(cls.server.requests)
        cls.network("rm", *DENY[1:])
        cls.allowed = cls.turn("push")

    @classmethod
    def network(cls, *arguments):
        result = cls.engine.run("network", *arguments)
        if result.returncode != 0:
            raise AssertionError(f"network {arguments}: {result.stderr}")

    @classmethod
    def turn(cls, *steps, search=False):
        """One command turn running git_steps.sh's steps: its exit status,
        turn row, ledger rows and {step: result} (the commit it made under
        "head", $GIT_PASSWORD under "password"). With `search`, the guest
        then dumps what the agent can read into the home and waits while
        the host searches its RAM (`in_memory`: the needles found)."""
        url = f"https://{HOST}:{cls.server.port}/repo.git"
        command = (f"{git_server.guest_git_environment('$HOME/gitbin')}; "
                   f'echo "GIT password $GIT_PASSWORD"; sh git_steps.sh {url} {" ".join(steps)}')
        if search:
            command += (f"; {DUMP}; touch searched.wait; "
                        "while [ ! -e searched.done ]; do sleep 0.2; done")
        home = cls.engine.home("corp")
        run = cls.engine.start("run", "--agent", "command", "--deadline", "300", "corp", command,
                               prefix=c.hosts_file_prefix(cls.engine.directory.name,
                                                          {HOST: "127.0.0.1"}))
        in_memory = None
        try:
            if search:
                def waiting_domain():
                    if not (home / "searched.wait").exists():
                        return None
                    with cls.engine.database() as db:
                        row = db.execute("SELECT vm_name FROM turns WHERE group_folder = 'corp' "
                                         "AND state = 'running'").fetchone()
                    return row[0] if row else None

                try:
                    domain = h.wait_for(waiting_domain, 600, 0.5, "the command to wait")
                    in_memory = h.guest_memory_holds(domain, needles() + [b"arizuko-placeholder-"],
                                                     cls.engine.directory.name)
                finally:
                    (home / "searched.done").touch()
            out, err = run.communicate(timeout=900)
        finally:
            run.kill()
            run.communicate()
        name = h.turn_name_from(err)
        lines = [e["json"]["line"] for e in cls.engine.events(name) if e["kind"] == "event"]
        print("\n".join(lines), file=sys.stderr)
        turn = cls.engine.turn(name)
        with cls.engine.database() as db:
            ledger = [dict(row) for row in db.execute(
                "SELECT * FROM egress_ledger WHERE turn = ? AND source = 'proxy' AND host = ?",
                (turn["id"], HOST))]
        results = {}
        for line in lines:
            words = line.split(" ", 2)
            if words[0] == "GIT" and len(words) == 3:
                results[words[1]] = words[2]
        return {"returncode": run.returncode, "err": err, "turn": turn, "ledger": ledger,
                "results": results, "events": cls.engine.events(name), "in_memory": in_memory}

    @classmethod
    def tearDownClass(cls):
        cls.server.close()
        cls.engine.close()
        subprocess.run(["rm", "-rf", str(cls.scratch)], check=False)

    def test_a_clone_works_and_a_push_is_refused_by_the_deny_rule(self):
        results = self.pushed["results"]
        self.assertEqual(self.pushed["returncode"], 0, self.pushed["err"][-3000:])
        self.assertEqual(results.get("clone"), "ok", results)
        self.assertEqual(results.get("commit"), "ok", results)
        self.assertTrue(results.get("push", "").startswith("failed"), results)
        self.assertIn("403", results["push"])
        # Nothing of the push reached the server (its refs were asked for:
        # a GET the rules allow).
        self.assertNotIn(("POST", "/repo.git/git-receive-pack"), self.requests_of_the_first_turn)
        self.assertIn(("POST", "/repo.git/git-upload-pack"), self.requests_of_the_first_turn)

    def test_the_ledger_names_the_deny_rule(self):
        rows = {(row["method"], row["path"]): row for row in self.pushed["ledger"]}
        denied = rows.get(("POST", "/repo.git/git-receive-pack"))
        self.assertIsNotNone(denied, rows)
        self.assertEqual((denied["decision"], denied["reason"], denied["status"]),
                         ("deny", "denied-by-rule", 403))
        self.assertEqual((denied["rule_text"], denied["rule_folder"]),
                         (f"deny POST {HOST} /**/git-receive-pack", "corp"))
        fetched = rows.get(("POST", "/repo.git/git-upload-pack"))
        self.assertIsNotNone(fetched, rows)
        self.assertEqual((fetched["decision"], fetched["rule_text"]),
                         ("allow", f"allow GET,POST {HOST} /repo.git/**"))

    def test_without_the_deny_rule_the_push_lands_on_the_server(self):
        self.assertEqual(self.allowed["returncode"], 0, self.allowed["err"][-3000:])
        self.assertEqual(self.allowed["results"].get("push"), "ok", self.allowed["results"])
        head = self.pushed["results"].get("head")
        self.assertRegex(head or "", r"^[0-9a-f]{40}$")
        self.assertNotEqual(head, self.first_head)
        self.assertEqual(git_server.head_of(self.repositories / "repo.git"), head)
        rows = {(row["method"], row["path"]): row for row in self.allowed["ledger"]}
        pushed = rows.get(("POST", "/repo.git/git-receive-pack"))
        self.assertIsNotNone(pushed, rows)
        self.assertEqual(pushed["decision"], "allow", rows)

    def test_the_guest_had_a_placeholder_and_the_server_got_the_value(self):
        placeholders = [turn["results"].get("password") for turn in (self.pushed, self.allowed)]
        for placeholder in placeholders:
            self.assertRegex(placeholder or "", r"^arizuko-placeholder-[0-9a-f]{32}$")
        self.assertNotEqual(placeholders[0], placeholders[1], "made fresh for each turn")
        self.assertGreaterEqual(len(self.server.credentials), 3)
        self.assertEqual(set(self.server.credentials), {(USER, VALUE)})

    def test_the_value_is_nowhere_in_the_guest(self):
        home = self.engine.home("corp")
        contents = b"".join((home / name).read_bytes() for name in ("git-env.dump", "git-proc.dump"))
        with tarfile.open(home / "git-writable.tar") as archive:
            for member in archive.getmembers():
                if member.isfile():
                    contents += archive.extractfile(member).read()
        self.assertEqual([needle for needle in needles() if needle in contents], [])
        # The search reaches where the value would be: the placeholder is there.
        self.assertTrue(f"{SECRET}=arizuko-placeholder-".encode() in contents,
                        "no placeholder in the guest's dumps")
        # Nor in any file of the home (the clone and its .git included), or the events.
        for path in home.rglob("*"):
            if path.is_file():
                data = path.read_bytes()
                self.assertEqual([n for n in needles() if n in data], [], path)
        for turn in (self.pushed, self.allowed):
            self.assertNotIn(VALUE, json.dumps(turn["events"]))
        # The whole RAM while the first turn waited: the placeholder, never the value.
        self.assertEqual(self.pushed["in_memory"], {b"arizuko-placeholder-"})


def needles():
    """The value in every form a tool might hold it, Basic's included."""
    raw = VALUE.encode()
    return [raw, base64.b64encode(raw), base64.b64encode(f"{USER}:{VALUE}".encode()),
            urllib.parse.quote(VALUE).encode(), raw.hex().encode()]


if __name__ == "__main__":
    h.main()
