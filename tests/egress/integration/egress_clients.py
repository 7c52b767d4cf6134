"""Clients for the arizuko-egress integration tests: the real curl, and a
raw HTTP/1.1 client for what curl will not send."""

import dataclasses
import os
import select
import socket
import subprocess
import tempfile

from egress_common import IO_TIMEOUT, LOOPBACK, clean_environment, recv_to_eof


def _parse_head(text):
    """(status, reason, headers) from one response head; headers map lowercased
    names to lists of values."""
    lines = text.split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code, _, reason = rest.partition(" ")
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(code), reason, headers


@dataclasses.dataclass
class CurlResult:
    exit_code: int
    status: int  # of the final response; 0 when none arrived
    headers: dict  # lowercased name -> [values], final response
    body: bytes
    heads: list  # every response head curl saw, proxy CONNECT replies included
    stderr: str
    write_out: str

    def header(self, name):
        values = self.headers.get(name.lower())
        return values[0] if values else None


def curl(urls, *options, proxy_port=None, timeout=IO_TIMEOUT, upload=None):
    """Run the real curl on one URL or a list of them (one connection reused
    when curl can); `upload` bytes are sent as a POST body. The bodies of all
    URLs come back concatenated."""
    urls = [urls] if isinstance(urls, str) else list(urls)
    with tempfile.TemporaryDirectory(prefix="egress-it-curl-") as scratch:
        head_file = os.path.join(scratch, "head")
        body_files = [os.path.join(scratch, "body%d" % i) for i in range(len(urls))]
        command = [
            "curl", "-q", "-sS", "--max-time", str(timeout), "--connect-timeout", "10",
            "-D", head_file,
        ]
        if proxy_port is not None:
            command += ["--proxy", "http://%s:%d" % (LOOPBACK, proxy_port)]
        if upload is not None:
            upload_file = os.path.join(scratch, "upload")
            with open(upload_file, "wb") as f:
                f.write(upload)
            command += ["--data-binary", "@" + upload_file]
        command += list(options)
        for url, body_file in zip(urls, body_files):
            command += ["-o", body_file, url]
        done = subprocess.run(
            command, capture_output=True, env=clean_environment(), timeout=timeout + 15
        )
        heads = []
        if os.path.exists(head_file):
            with open(head_file, "rb") as f:
                raw = f.read().decode("latin-1")
            heads = [_parse_head(block) for block in raw.split("\r\n\r\n") if block.strip()]
        body = b""
        for body_file in body_files:
            if os.path.exists(body_file):
                with open(body_file, "rb") as f:
                    body += f.read()
    status, _, headers = heads[-1] if heads else (0, "", {})
    return CurlResult(
        done.returncode, status, headers, body, heads,
        done.stderr.decode("utf-8", "replace"), done.stdout.decode("utf-8", "replace"),
    )


@dataclasses.dataclass
class RawResponse:
    status: int
    reason: str
    headers: dict  # lowercased name -> [values]
    body: bytes

    def header(self, name):
        values = self.headers.get(name.lower())
        return values[0] if values else None


class RawClient:
    """A plain TCP connection to the proxy that speaks as much HTTP/1.1 as the
    tests need: send bytes, read one response, detect the close."""

    def __init__(self, port, source=None, timeout=IO_TIMEOUT):
        self.sock = socket.create_connection(
            (LOOPBACK, port), timeout=timeout, source_address=(source, 0) if source else None
        )
        self.buffer = b""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("proxy closed the connection")
        self.buffer += chunk

    def read_exactly(self, size):
        while len(self.buffer) < size:
            self._fill()
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def read_head(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        return _parse_head(head.decode("latin-1"))

    def read_response(self, method="GET"):
        """One response; the body is framed by Content-Length, chunked, or the close."""
        status, reason, headers = self.read_head()
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
            body = self._read_chunked()
        elif "content-length" in headers:
            body = self.read_exactly(int(headers["content-length"][0]))
        elif method == "CONNECT" and status == 200:
            body = b""
        else:
            body = self.buffer + recv_to_eof(self.sock)
            self.buffer = b""
        return RawResponse(status, reason, headers, body)

    def _read_chunked(self):
        chunks = []
        while True:
            while b"\r\n" not in self.buffer:
                self._fill()
            line, _, self.buffer = self.buffer.partition(b"\r\n")
            size = int(line.split(b";")[0], 16)
            if size == 0:
                while not self.buffer.startswith(b"\r\n"):
                    while b"\r\n" not in self.buffer:
                        self._fill()
                    _, _, self.buffer = self.buffer.partition(b"\r\n")
                self.buffer = self.buffer[2:]
                return b"".join(chunks)
            chunks.append(self.read_exactly(size))
            self.read_exactly(2)

    def wait_readable(self, timeout):
        """Whether bytes (or the close) are there to read within `timeout`."""
        if self.buffer:
            return True
        readable, _, _ = select.select([self.sock], [], [], timeout)
        return bool(readable)

    def is_closed_by_peer(self, timeout=IO_TIMEOUT):
        """True once the proxy closes (EOF or reset) within `timeout` with no
        further bytes; False if bytes arrive or it stays open."""
        if self.buffer:
            return False
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False

    def connect_tunnel(self, host, port):
        """CONNECT and return the proxy's response (the tunnel is open on 200)."""
        authority = "%s:%d" % (host, port)
        self.send(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (authority, authority)).encode())
        return self.read_response("CONNECT")


def raw_request(port, data, method="GET", source=None, timeout=IO_TIMEOUT):
    """Send `data` on a fresh connection and read one response."""
    with RawClient(port, source, timeout) as client:
        client.send(data)
        return client.read_response(method)


def absolute_get(host, path="/", extra_headers=""):
    """An absolute-form GET for `host` ("name" or "name:port")."""
    head = "GET http://%s%s HTTP/1.1\r\nHost: %s\r\n%s\r\n" % (host, path, host, extra_headers)
    return head.encode()
