"""What the tests of a folder that asks share (test_ask_approvals.py,
test_ask_on_terminal.py): an engine whose folder corp asks, with
ask_requests.sh in its home; the plain HTTP origin the asked hosts name; and
the guest's "ASKED" lines read back from the turn's events. And what the
HTTPS turn tests (test_inspected_hosts.py, test_bound_secrets.py) share:
the origin's own CA and certificate, the guest's writable files to search,
and the "INSPECT" lines of inspect_requests.mjs read back."""

import http.server
import pathlib
import subprocess
import sys
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from confinement_support import h  # noqa: E402


def asking_engine(*network_options):
    """An engine (proxies may reach loopback, where Origin listens) whose
    folder corp asks about hosts on no allow entry, `network_options` added
    to `folder network`; ask_requests.sh is in corp's home."""
    c.require_root_and_libvirt()
    h.require_guest_image()
    engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1"})
    try:
        engine.add_folder("corp")
        result = engine.run("folder", "network", "corp", "--unlisted", "ask", *network_options)
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        home = engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        c.put_guest_script(home, "ask_requests.sh", "ask_requests.sh")
    except BaseException:
        engine.close()
        raise
    return engine


def asked_results(events):
    """{step: (http-<status>, reason=<reason>, body=<first line>)} of ask_requests.sh."""
    results = {}
    for event in events:
        if event["kind"] == "event" and event["json"]["line"].startswith("ASKED "):
            words = event["json"]["line"].split(" ", 4)
            results[words[1]] = (words[2], words[3], words[4] if len(words) > 4 else "")
    return results


# The guest's writable files outside the home, as the agent reads them
# (test_connectors.py's search).
WRITABLE_FILES = ("$(awk '$4 ~ /^rw/ && $3 !~ \"^(9p|devpts|devtmpfs|proc|sysfs)$\" "
                  "{print $2}' /proc/mounts) 2>/dev/null")


def inspect_results(engine, name):
    """The turn's output lines and {step: result} of inspect_requests.mjs's
    "INSPECT STEP RESULT" lines; the lines go to stderr for the log."""
    lines = [e["json"]["line"] for e in engine.events(name) if e["kind"] == "event"]
    results = {}
    for line in lines:
        if line.startswith("INSPECT "):
            words = line.split(" ", 2)
            results[words[1]] = words[2]
    print("\n".join(lines), file=sys.stderr)
    return lines, results


def make_origin_certificates(directory, names, subject):
    """A CA of the origin's own (CN `subject`) and a certificate for `names`
    signed by it, in `directory`: (CA, certificate, key) paths."""
    d = pathlib.Path(directory)

    def openssl(*arguments):
        subprocess.run(["openssl", *arguments], check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", str(d / "origin-ca.key"), "-out", str(d / "origin-ca.pem"), "-days", "2",
            "-subj", f"/CN={subject}")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", str(d / "origin.key"), "-out", str(d / "origin.csr"),
            "-subj", f"/CN={names[0]}")
    (d / "origin.ext").write_text("subjectAltName=" + ",".join(f"DNS:{n}" for n in names) + "\n")
    openssl("x509", "-req", "-in", str(d / "origin.csr"), "-CA", str(d / "origin-ca.pem"),
            "-CAkey", str(d / "origin-ca.key"), "-CAcreateserial", "-out", str(d / "origin.pem"),
            "-days", "2", "-extfile", str(d / "origin.ext"))
    return d / "origin-ca.pem", d / "origin.pem", d / "origin.key"


class Origin:
    """A plain HTTP server on 127.0.0.1 that answers 200 with the path; with
    `tls` (an ssl.SSLContext for the server side) an HTTPS one, each
    connection's handshake in its own thread, so one peer that stalls it
    holds up no other. `seen` records each request's Host and Authorization
    header; a request with an Authorization header gets it echoed after the
    path (test_bound_secrets.py: the value the proxy put in, to be scrubbed)."""

    def __init__(self, tls=None):
        seen = self.seen = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def setup(self):
                if tls is not None:
                    self.request.settimeout(60)
                    self.request = tls.wrap_socket(self.request, server_side=True)
                super().setup()

            def do_GET(self):
                authorization = self.headers.get("Authorization", "")
                seen.append((self.headers.get("Host", ""), authorization))
                echo = f" auth={authorization}" if authorization else ""
                body = f"origin {self.path}{echo}\n".encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
