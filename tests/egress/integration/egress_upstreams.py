"""Local upstream servers on loopback for the arizuko-egress integration
tests: threaded HTTP/1.1 (optionally TLS with a certificate made now) that
records what it receives, and a raw TCP server for byte-exact checks."""

import base64
import dataclasses
import http.server
import os
import shutil
import socket
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from egress_common import IO_TIMEOUT, LOOPBACK, pattern_bytes, sha256


@dataclasses.dataclass
class RecordedRequest:
    method: str
    path: str
    headers: list  # [(name, value)] exactly as received
    body_length: int
    body_sha256: str
    peer: tuple

    def header_names(self):
        return {name.lower() for name, _ in self.headers}

    def header(self, name):
        values = [v for n, v in self.headers if n.lower() == name.lower()]
        return values[0] if values else None


class UpstreamHandler(http.server.BaseHTTPRequestHandler):
    """Routes:
    /hello                      a short text
    /bytes/N                    N pattern bytes with Content-Length
    /chunked/N                  N pattern bytes, Transfer-Encoding: chunked
    /drip/N/SECONDS             N pattern bytes spread over SECONDS
    /echo                       (POST/PUT) the request body back
    /redirect                   302 to /target
    /hop-response               a response carrying hop-by-hop headers
    /huge-header/N              a response head with an N-byte header
    /say/B64                    the bytes B64 (urlsafe base64) with Content-Length
    /say-chunked/N/B64          the same in chunks of N bytes
    /say-header/B64             a short body, the bytes in an X-Said header
    anything else               200 with the method and path
    """

    protocol_version = "HTTP/1.1"
    timeout = 120  # a held-open keep-alive or tunnel ends by itself

    def log_message(self, *args):
        pass

    def setup(self):
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(self.timeout)
            self.request.do_handshake()
        super().setup()

    def do_GET(self):
        self._serve()

    do_HEAD = do_POST = do_PUT = do_DELETE = do_GET

    def _serve(self):
        body = self._read_body()
        self.server.owner.record(
            RecordedRequest(
                self.command,
                self.path,
                list(self.headers.items()),
                len(body),
                sha256(body),
                self.client_address,
            )
        )
        # The path as an origin server sees it, whether the proxy forwarded the
        # origin form or the absolute form (both are valid HTTP/1.1).
        path = urllib.parse.urlsplit(self.path).path
        parts = path.strip("/").split("/")
        route, args = parts[0], parts[1:]
        if route == "bytes":
            self._send(200, pattern_bytes(int(args[0])))
        elif route == "chunked":
            self._send_chunked(pattern_bytes(int(args[0])))
        elif route == "drip":
            self._drip(pattern_bytes(int(args[0])), float(args[1]))
        elif route == "echo":
            self._send(200, body)
        elif route == "redirect":
            self._send(302, b"moved\n", [("Location", "/target")])
        elif route == "hop-response":
            self._send(
                200,
                b"hop\n",
                [
                    ("Connection", "X-Resp-Hop"),
                    ("X-Resp-Hop", "must-not-arrive"),
                    ("Keep-Alive", "timeout=5"),
                    ("Proxy-Authenticate", "Basic realm=upstream"),
                    ("Upgrade", "h2c"),
                    ("X-Resp-End", "kept"),
                ],
            )
        elif route == "huge-header":
            self._send(200, b"huge\n", [("X-Huge", "h" * int(args[0]))])
        elif route in ("say", "say-chunked", "say-header"):
            said = base64.urlsafe_b64decode(args[-1])
            if route == "say":
                self._send(200, said)
            elif route == "say-chunked":
                self._send_chunked(said, int(args[0]))
            else:
                self._send(200, b"said\n", [("X-Said", said.decode("latin-1"))])
        elif route == "hello":
            self._send(200, b"hello from upstream\n")
        else:
            self._send(200, ("%s %s\n" % (self.command, path)).encode())

    def _read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def _send(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            view = memoryview(body)
            for at in range(0, len(body), 256 * 1024):
                self.wfile.write(view[at : at + 256 * 1024])

    def _send_chunked(self, body, size=100_000):
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for at in range(0, len(body), size):
            piece = body[at : at + size]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        self.wfile.write(b"0\r\n\r\n")

    def _drip(self, body, seconds):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        pieces = 20
        step = -(-len(body) // pieces)
        for at in range(0, len(body), step):
            self.wfile.write(body[at : at + step])
            self.wfile.flush()
            time.sleep(seconds / pieces)


class _ThreadingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, owner, address, family, tls_context=None):
        self.owner = owner
        self.address_family = family
        self.tls_context = tls_context
        super().__init__(address, UpstreamHandler)

    def handle_error(self, request, client_address):
        # The proxy hanging up on us is what several tests provoke; anything
        # else is a fault in the fixture and stays loud.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, ssl.SSLError)):
            super().handle_error(request, client_address)

    def get_request(self):
        connection, peer = self.socket.accept()
        if self.tls_context is not None:
            # The handshake runs in the request's own thread (see setup()), so a
            # stalled client cannot hold up accept().
            connection = self.tls_context.wrap_socket(
                connection, server_side=True, do_handshake_on_connect=False
            )
        return connection, peer


class UpstreamHttp:
    """A threaded HTTP/1.1 server on 127.0.0.1 (and ::1 on the same port when
    that is free, so `localhost` reaches it whichever address it resolves to).
    Records every request it receives."""

    def __init__(self, tls_context=None, require_ipv6=False):
        self.requests = []
        self._lock = threading.Lock()
        self._servers = [_ThreadingServer(self, (LOOPBACK, 0), socket.AF_INET, tls_context)]
        self.port = self._servers[0].server_address[1]
        try:
            self._servers.append(
                _ThreadingServer(self, ("::1", self.port), socket.AF_INET6, tls_context)
            )
        except OSError:
            # no IPv6 loopback, or the port is taken there: IPv4 only, unless
            # the test is about IPv6
            if require_ipv6:
                self._servers[0].server_close()
                raise
        self.serves_ipv6 = len(self._servers) == 2
        self._threads = [
            threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
            for s in self._servers
        ]
        for thread in self._threads:
            thread.start()

    def record(self, request):
        with self._lock:
            self.requests.append(request)

    def recorded(self, path=None):
        with self._lock:
            return [
                r for r in self.requests
                if path is None or urllib.parse.urlsplit(r.path).path == path
            ]

    def url(self, path, host=LOOPBACK, scheme="http"):
        return "%s://%s:%d%s" % (scheme, host, self.port, path)

    def close(self):
        for server in self._servers:
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(5)


class TlsCertificate:
    """A self-signed certificate for localhost/127.0.0.1 made with openssl now."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="egress-it-tls-")
        self.cert = os.path.join(self.directory, "cert.pem")
        self.key = os.path.join(self.directory, "key.pem")
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", self.key, "-out", self.cert, "-days", "1",
                "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def server_context(self):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, self.key)
        return context

    def close(self):
        shutil.rmtree(self.directory, ignore_errors=True)


class UpstreamTcp:
    """A raw TCP server on 127.0.0.1: each connection runs `handle(socket)` in
    its own thread (for byte-exact tunnel checks)."""

    def __init__(self, handle):
        self._handle = handle
        self._listener = socket.socket()
        self._listener.bind((LOOPBACK, 0))
        self._listener.listen(16)
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self.errors = []
        self._stopping = threading.Event()
        self._workers = []
        self._acceptor = threading.Thread(target=self._accept, daemon=True)
        self._acceptor.start()

    def _accept(self):
        while not self._stopping.is_set():
            try:
                connection, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            worker = threading.Thread(target=self._run, args=(connection,), daemon=True)
            self._workers.append(worker)
            worker.start()

    def _run(self, connection):
        connection.settimeout(IO_TIMEOUT)
        with connection:
            try:
                self._handle(connection)
            except Exception as error:  # reported by the test, not lost in a thread
                self.errors.append(error)

    def close(self):
        self._stopping.set()
        self._acceptor.join(5)
        self._listener.close()
        for worker in self._workers:
            worker.join(5)
            if worker.is_alive():
                self.errors.append(TimeoutError("a connection handler still runs after close"))
