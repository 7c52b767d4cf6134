"""An inspected host end to end (issue 37): a command turn of a folder with
`allow GET inspected.test /ok/**` fetches over HTTPS from an origin on
loopback that has its own CA (made here with the openssl CLI; the proxy
trusts it through EGRESS_TEST_UPSTREAM_CA). The guest's Node verifies the
proxy's certificate with its default trust (NODE_EXTRA_CA_CERTS) and with
the system store (--use-openssl-ca), never with verification off:

- GET /ok/x passes with the origin's body;
- POST /ok/x and GET /other are refused with 403 no-matching-rule;
- the turn's CA key is nowhere the agent can read (its environment, every
  process's environment and command line, every writable file of the
  guest), nor in the engine's data directory; the CA certificate is
  (the search reaches where the key would be)."""

import pathlib
import subprocess
import sys
import tarfile
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from ask_support import WRITABLE_FILES, inspect_results  # noqa: E402
from https_origin import Origin, make_origin_certificates, server_context  # noqa: E402
from confinement_support import h  # noqa: E402

HOST = "inspected.test"
DUMP = ("env > inspect-env.dump; "
        "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; echo; done > inspect-proc.dump "
        "2>/dev/null; "
        f"tar -cf inspect-writable.tar {WRITABLE_FILES}; "
        "cat /etc/ssl/certs/ca-certificates.crt > inspect-system-bundle.dump")


class InspectedHosts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        h.require_guest_image()
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="arizuko-inspect-"))
        origin_ca, certificate, key = make_origin_certificates(
            cls.scratch, [HOST], "inspected-hosts test origin CA")
        cls.origin_ca_key = (cls.scratch / "origin-ca.key").read_text()
        cls.engine = engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1",
                                        "EGRESS_TEST_UPSTREAM_CA": str(origin_ca)})
        origin = Origin(server_context(certificate, key))
        try:
            engine.add_folder("corp")
            rule = engine.run("network", "allow", "corp", HOST, "--method", "GET", "--path",
                              "/ok/**")
            if rule.returncode != 0:
                raise AssertionError(rule.stderr)
            cls.home = engine.home("corp")
            cls.home.mkdir(parents=True, exist_ok=True)
            (cls.home / "inspect_requests.mjs").write_text(
                (pathlib.Path(__file__).resolve().parent / "inspect_requests.mjs").read_text())
            base = f"https://{HOST}:{origin.port}"
            steps = (f"ok GET {base}/ok/x post POST {base}/ok/x other GET {base}/other")
            command = (f"echo ENV NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS "
                       f"GIT_SSL_CAINFO=$GIT_SSL_CAINFO REQUESTS_CA_BUNDLE=$REQUESTS_CA_BUNDLE "
                       f"SSL_CERT_FILE=$SSL_CERT_FILE; "
                       f"node inspect_requests.mjs {steps}; "
                       f"node --use-openssl-ca inspect_requests.mjs system GET {base}/ok/system; "
                       f"{DUMP}")
            run = engine.start("run", "--agent", "command", "--deadline", "300", "corp", command,
                               prefix=c.hosts_file_prefix(engine.directory.name,
                                                          {HOST: "127.0.0.1"}))
            try:
                cls.out, cls.err = run.communicate(timeout=900)
                cls.returncode = run.returncode
            finally:
                run.kill()
                run.communicate()
        except BaseException:
            engine.close()
            raise
        finally:
            origin.close()
        cls.name = h.turn_name_from(cls.err)
        cls.lines, cls.results = inspect_results(engine, cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()
        subprocess.run(["rm", "-rf", str(cls.scratch)], check=False)

    def test_an_allowed_get_passes_with_the_guests_default_trust(self):
        self.assertEqual(self.returncode, 0, self.err[-3000:])
        self.assertEqual(self.results.get("ok"), "http-200 reason=none body=origin /ok/x",
                         self.lines)

    def test_the_system_trust_store_holds_the_turns_ca(self):
        self.assertEqual(self.results.get("system"),
                         "http-200 reason=none body=origin /ok/system", self.lines)

    def test_a_post_and_another_path_are_refused_by_the_rules(self):
        for step in ("post", "other"):
            self.assertTrue(self.results.get(step, "").startswith(
                "http-403 reason=no-matching-rule body=arizuko-egress: no-matching-rule"),
                self.lines)

    def test_the_agent_gets_the_ca_variables(self):
        env = next(line for line in self.lines if line.startswith("ENV "))
        self.assertIn("NODE_EXTRA_CA_CERTS=/run/arizuko-turn-ca.crt", env)
        for name in ("GIT_SSL_CAINFO", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
            self.assertIn(f"{name}=/etc/ssl/certs/ca-certificates.crt", env)

    def test_the_ca_key_is_nowhere_in_the_guest(self):
        dumps = [self.home / name for name in ("inspect-env.dump", "inspect-proc.dump",
                                               "inspect-system-bundle.dump")]
        contents = b"".join(path.read_bytes() for path in dumps)
        with tarfile.open(self.home / "inspect-writable.tar") as archive:
            names = archive.getnames()
            for member in archive.getmembers():
                if member.isfile():
                    contents += archive.extractfile(member).read()
        # The search reaches where the key would be: the CA certificate is there.
        self.assertTrue(any(name.endswith("arizuko-turn-ca.crt") for name in names), names)
        self.assertIn(b"-----BEGIN CERTIFICATE-----", contents)
        self.assertNotIn(b"PRIVATE KEY", contents)
        # Nor did the engine leave it on its disk.
        found = subprocess.run(["grep", "-rl", "PRIVATE KEY", self.engine.data_dir],
                               capture_output=True, text=True)
        self.assertEqual(found.stdout, "")


if __name__ == "__main__":
    h.main()
