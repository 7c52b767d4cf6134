"""Test origins on loopback for the turns that reach them through their
proxy (issue 37's inspected hosts, the folders that ask): a CA of the
origin's own with a certificate for some names (made with the openssl CLI;
the proxy trusts that CA through EGRESS_TEST_UPSTREAM_CA), and Origin, the
HTTP(S) server that answers 200 with the path."""

import http.server
import ipaddress
import pathlib
import ssl
import subprocess
import threading


def alternative_name(name):
    """`name` as a subject alternative name: an IP literal as an address."""
    try:
        ipaddress.ip_address(name)
        return f"IP:{name}"
    except ValueError:
        return f"DNS:{name}"


def make_origin_certificates(directory, names, subject):
    """A CA of the origin's own (CN `subject`) and a certificate for `names`
    (host names, or IP literals) signed by it, in `directory`: the paths of
    the CA certificate, the certificate and its key."""
    d = pathlib.Path(directory)

    def openssl(*arguments):
        subprocess.run(["openssl", *arguments], check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", str(d / "origin-ca.key"), "-out", str(d / "origin-ca.pem"), "-days", "2",
            "-subj", f"/CN={subject}")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", str(d / "origin.key"), "-out", str(d / "origin.csr"),
            "-subj", f"/CN={names[0]}")
    (d / "origin.ext").write_text(
        "subjectAltName=" + ",".join(alternative_name(name) for name in names) + "\n")
    openssl("x509", "-req", "-in", str(d / "origin.csr"), "-CA", str(d / "origin-ca.pem"),
            "-CAkey", str(d / "origin-ca.key"), "-CAcreateserial", "-out", str(d / "origin.pem"),
            "-days", "2", "-extfile", str(d / "origin.ext"))
    return d / "origin-ca.pem", d / "origin.pem", d / "origin.key"


def server_context(certificate, key):
    """The server side of TLS with that certificate."""
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(str(certificate), str(key))
    return tls


class TlsHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that, with `tls` (an ssl.SSLContext for the server
    side) set on its class, does each connection's handshake in that
    connection's thread, so one peer that stalls it holds up no other."""

    tls = None

    def setup(self):
        if self.tls is not None:
            self.request.settimeout(60)
            self.request = self.tls.wrap_socket(self.request, server_side=True)
        super().setup()

    def finish(self):
        super().finish()
        # The server closes the socket it accepted, which the TLS one took over.
        if self.tls is not None:
            self.request.close()

    def answer(self, status, content, fields=()):
        """A response with these header fields and `content` (bytes) as its body."""
        self.send_response(status)
        for name, value in fields:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, *args):
        pass


class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1 (any port, `port`) serving a
    TlsHandler class with `tls` (None: plain HTTP) in a daemon thread."""

    def __init__(self, handler, tls):
        handler.tls = tls
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Origin(LoopbackServer):
    """A plain HTTP server on 127.0.0.1 that answers 200 with the path; with
    `tls` (an ssl.SSLContext for the server side) an HTTPS one. `seen`
    records each request's Host and Authorization header; a request with an
    Authorization header gets it echoed after the path (test_bound_secrets.py:
    the value the proxy put in, to be scrubbed)."""

    def __init__(self, tls=None):
        seen = self.seen = []

        class Handler(TlsHandler):
            def do_GET(self):
                authorization = self.headers.get("Authorization", "")
                seen.append((self.headers.get("Host", ""), authorization))
                echo = f" auth={authorization}" if authorization else ""
                self.answer(200, f"origin {self.path}{echo}\n".encode())

        super().__init__(Handler, tls)
