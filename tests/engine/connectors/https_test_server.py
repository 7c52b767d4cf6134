#!/usr/bin/env python3
"""A loopback HTTPS server for the connector tests.

Makes its own CA and a certificate for 127.0.0.1 in DIR (so only a client
told to trust DIR/ca.pem trusts it), listens on 127.0.0.1:0, prints the port,
and appends one JSON line per request (method, raw target, headers, body) to
DIR/requests.jsonl. A few paths misbehave on purpose: /echo-key answers with
the request's credentials (its headers, its target as sent and its query
decoded), /away redirects to another host, /here to itself,
/slow waits, /huge streams without end.
"""
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse

DIR = sys.argv[1]


def make_certificates():
    def run(*args):
        subprocess.run(args, check=True, cwd=DIR, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=arizuko connector test CA")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
        "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(DIR, "san.ext"), "w") as ext:
        ext.write("subjectAltName=IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-out", "server.pem", "-extfile", "san.ext")


LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body):
        entry = {"method": self.command, "target": self.path,
                 "headers": {k.lower(): v for k, v in self.headers.items()},
                 "body": body.decode("utf-8", "replace")}
        with LOCK, open(os.path.join(DIR, "requests.jsonl"), "a") as log:
            log.write(json.dumps(entry) + "\n")

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.record(body)
        path = self.path.split("?")[0]
        if path.endswith("/echo-key"):
            query = urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query)
            echoed = {"authorization": self.headers.get("Authorization"),
                      "x-api-key": self.headers.get("X-Api-Key"), "target": self.path,
                      "query": dict(query)}
            return self.reply(200, json.dumps(echoed).encode())
        if path.endswith("/away"):
            return self.reply(302, b"{}", [("Location", "https://127.0.0.2:%d/stolen" %
                                            self.server.server_port)])
        if path.endswith("/here"):
            return self.reply(302, b"{}", [("Location", "/api/elsewhere")])
        if path.endswith("/slow"):
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"{")
            self.wfile.flush()
            time.sleep(8)
            return
        if path.endswith("/huge"):
            # No Content-Length and no end: the cap must hold on
            # the bytes as they arrive, not on a finished reply.
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
            return
        self.reply(200, json.dumps({"ok": True, "method": self.command,
                                    "target": self.path}).encode())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


def exit_with_parent():
    """A test that dies (a failed QVERIFY's qFatal) leaves no server behind."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main():
    threading.Thread(target=exit_with_parent, daemon=True).start()
    make_certificates()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(DIR, "server.pem"), os.path.join(DIR, "server.key"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
