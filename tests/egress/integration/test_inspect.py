"""Inspected hosts (--rule, --inspect-ca-fd): the proxy terminates TLS for a
host a rule names, with a leaf from the turn's CA handed over on a
descriptor, verifies the upstream against its own trust store, and judges
every request on the connection by method and path. Real curl, real TLS
origins on loopback with their own CA, certificates made by openssl now."""

import datetime
import os
import shutil
import socket
import ssl
import subprocess
import tempfile

from egress_clients import RawClient, absolute_get, curl, raw_request
from egress_common import IO_TIMEOUT, LOOPBACK, REASON_HEADER
from egress_harness import EgressTestCase, main
from egress_process import run_egress
from egress_upstreams import UpstreamHttp


def _openssl(*args):
    subprocess.run(["openssl"] + list(args), check=True, capture_output=True, timeout=60)


class Authority:
    """A certificate authority made with the openssl CLI, and leaves it signs."""

    def __init__(self, name):
        self.directory = tempfile.mkdtemp(prefix="egress-it-ca-")
        self.cert = os.path.join(self.directory, "ca.pem")
        self.key = os.path.join(self.directory, "ca.key")
        _openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", self.key, "-out", self.cert, "-days", "2", "-subj", "/CN=" + name,
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        )
        self._issued = 0

    def pem_bundle(self):
        """The certificate and its key, as the engine hands them to the proxy."""
        with open(self.cert, "rb") as cert, open(self.key, "rb") as key:
            return cert.read() + key.read()

    def issue(self, names):
        """(cert, key) paths of a server leaf for `names` ("DNS:x", "IP:y")."""
        self._issued += 1
        stem = os.path.join(self.directory, "leaf%d" % self._issued)
        with open(stem + ".ext", "w") as f:
            f.write("subjectAltName=%s\nbasicConstraints=CA:FALSE\n"
                    "extendedKeyUsage=serverAuth\n" % ",".join(names))
        _openssl(
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", stem + ".key", "-out", stem + ".csr", "-subj", "/CN=origin",
        )
        _openssl(
            "x509", "-req", "-in", stem + ".csr", "-CA", self.cert, "-CAkey", self.key,
            "-CAcreateserial", "-out", stem + ".pem", "-days", "1", "-extfile", stem + ".ext",
        )
        return stem + ".pem", stem + ".key"

    def close(self):
        shutil.rmtree(self.directory, ignore_errors=True)


def _der(pem_path):
    with open(pem_path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


class InspectedConnection:
    """CONNECT through the proxy, then TLS trusting the turn's CA, then as
    many HTTP/1.1 requests as the test sends on that one connection."""

    def __init__(self, proxy_port, host, port, turn_ca):
        self.raw = RawClient(proxy_port)
        reply = self.raw.connect_tunnel(host, port)
        if reply.status != 200:
            self.raw.close()
            raise AssertionError("CONNECT answered %d %r" % (reply.status, reply.headers))
        context = ssl.create_default_context(cafile=turn_ca)
        context.set_alpn_protocols(["h2", "http/1.1"])
        self.tls = context.wrap_socket(self.raw.sock, server_hostname=host)
        self.raw.sock = self.tls  # RawClient reads responses off the TLS socket now
        self.host = host

    def request(self, method, path, body=b""):
        head = "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n" % (
            method, path, self.host, len(body))
        self.raw.send(head.encode() + body)
        return self.raw.read_response(method)

    def close(self):
        self.raw.close()


class InspectTest(EgressTestCase):
    def setUp(self):
        self.turn_ca = self.make_authority("turn CA")
        self.origin_ca = self.make_authority("origin CA")

    def make_authority(self, name):
        authority = Authority(name)
        self.addCleanup(authority.close)
        return authority

    def start_origin(self, cert_and_key=None):
        """An HTTPS origin on loopback serving a leaf of the origin CA."""
        cert, key = cert_and_key or self.origin_ca.issue(["DNS:localhost", "IP:127.0.0.1"])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server = UpstreamHttp(context)
        self.addCleanup(server.close)
        server.leaf = cert
        return server

    def start_inspecting(self, *flags, turn_ca=None, upstream_ca=None):
        """The proxy with `flags` and the turn's CA on an inherited pipe."""
        reading, writing = os.pipe()
        os.write(writing, (turn_ca or self.turn_ca).pem_bundle())
        os.close(writing)
        pipe = "pipe:[%d]" % os.fstat(reading).st_ino
        try:
            proxy = self.start_proxy(
                "--inspect-ca-fd", str(reading), *flags,
                env={"EGRESS_TEST_UPSTREAM_CA": upstream_ca or self.origin_ca.cert},
                pass_fds=[reading],
            )
        finally:
            os.close(reading)
        proxy.ca_pipe = pipe
        return proxy

    def inspected(self, proxy, origin, host="localhost"):
        connection = InspectedConnection(proxy.port, host, origin.port, self.turn_ca.cert)
        self.addCleanup(connection.close)
        return connection

    # -- rules ---------------------------------------------------------------

    def test_curl_allowed_get_passes_and_denied_post_gets_the_denial(self):
        origin = self.start_origin()
        proxy = self.start_inspecting(
            "--rule", "allow GET,HEAD localhost /repos/acme/**",
            "--rule", "deny POST localhost /**/git-receive-pack",
            "--rule", "allow POST localhost /repos/acme/*",
        )
        url = origin.url("/repos/acme/widget?token=secret", host="localhost", scheme="https")
        allowed = curl(url, "--cacert", self.turn_ca.cert, proxy_port=proxy.port)
        self.assertEqual(allowed.exit_code, 0, allowed.stderr)
        self.assertEqual(allowed.status, 200)
        self.assertEqual(allowed.body, b"GET /repos/acme/widget\n")
        (seen,) = origin.recorded("/repos/acme/widget")
        self.assertEqual(seen.header("Host"), "localhost:%d" % origin.port)
        proxy.wait_event(event="decision", method="GET", host="localhost", port=origin.port,
                         path="/repos/acme/widget", decision="allow", reason="allowed",
                         rule="allow GET,HEAD localhost /repos/acme/**", status=200)

        push = origin.url("/repos/acme/x.git/git-receive-pack", host="localhost", scheme="https")
        denied = curl(push, "--cacert", self.turn_ca.cert, proxy_port=proxy.port, upload=b"pack")
        self.assertEqual(denied.exit_code, 0, denied.stderr)
        self.assertRefused(denied, 403, "denied-by-rule")
        self.assertEqual(denied.header("x-arizuko-egress-host"), "localhost")
        self.assertIn("deny POST localhost /**/git-receive-pack", denied.body.decode())
        self.assertEqual(origin.recorded("/repos/acme/x.git/git-receive-pack"), [])
        proxy.wait_event(event="decision", method="POST", path="/repos/acme/x.git/git-receive-pack",
                         decision="deny", reason="denied-by-rule", status=403,
                         rule="deny POST localhost /**/git-receive-pack")
        # The query never reaches the log.
        self.assertFalse([line for line in proxy.lines if "token=secret" in line])

    def test_each_request_on_a_kept_alive_connection_is_judged_on_its_own(self):
        origin = self.start_origin()
        proxy = self.start_inspecting("--rule", "allow GET localhost /open/**")
        connection = self.inspected(proxy, origin)
        self.assertEqual(connection.tls.selected_alpn_protocol(), "http/1.1")
        first = connection.request("GET", "/open/one")
        self.assertEqual((first.status, first.body), (200, b"GET /open/one\n"))
        denied = connection.request("POST", "/open/one", b"a body that is dropped")
        self.assertRefused(denied, 403, "no-matching-rule")
        self.assertNotIn("close", (denied.header("connection") or "").lower())
        other = connection.request("GET", "/closed/two")
        self.assertRefused(other, 403, "no-matching-rule")
        last = connection.request("GET", "/open/three")
        self.assertEqual((last.status, last.body), (200, b"GET /open/three\n"))
        self.assertEqual([r.path for r in origin.recorded()], ["/open/one", "/open/three"])
        self.assertEqual(len(proxy.decisions(method="CONNECT", inspected=True)), 1)
        for method, path, decision in [("GET", "/open/one", "allow"),
                                       ("POST", "/open/one", "deny"),
                                       ("GET", "/closed/two", "deny"),
                                       ("GET", "/open/three", "allow")]:
            proxy.wait_event(event="close", method=method, path=path, decision=decision)

    def test_paths_a_server_could_read_otherwise_are_refused(self):
        origin = self.start_origin()
        proxy = self.start_inspecting("--rule", "allow GET localhost /repos/acme/**")
        connection = self.inspected(proxy, origin)
        refused = connection.request("GET", "/repos/acme/../other/secret")
        self.assertRefused(refused, 400, "bad-request")
        self.assertEqual(origin.recorded(), [])

    def test_plain_http_to_an_inspected_host_follows_the_rules(self):
        upstream = self.start_upstream()
        proxy = self.start_inspecting("--rule", "allow GET 127.0.0.1 /ok/**")
        host = "%s:%d" % (LOOPBACK, upstream.port)
        allowed = raw_request(proxy.port, absolute_get(host, "/ok/yes"))
        self.assertEqual((allowed.status, allowed.body), (200, b"GET /ok/yes\n"))
        denied = raw_request(proxy.port, absolute_get(host, "/no"))
        self.assertRefused(denied, 403, "no-matching-rule")
        self.assertEqual([r.path for r in upstream.recorded()], ["/ok/yes"])
        proxy.wait_event(event="decision", method="GET", path="/ok/yes", decision="allow",
                         rule="allow GET 127.0.0.1 /ok/**")

    # -- host checks still come first ------------------------------------

    def test_the_deny_list_and_address_checks_still_apply(self):
        origin = self.start_origin()
        denied = self.start_inspecting("--deny", "localhost", "--rule", "allow * localhost /**")
        with RawClient(denied.port) as client:
            self.assertRefused(client.connect_tunnel("localhost", origin.port), 403, "host-denied")
        private = self.start_inspecting("--deny-private", "--rule", "allow * localhost /**")
        with RawClient(private.port) as client:
            self.assertRefused(client.connect_tunnel("localhost", origin.port), 403,
                               "private-address")

    # -- the leaf and the turn's CA ------------------------------------------

    def test_the_leaf_is_for_the_host_from_the_turn_ca_and_short_lived(self):
        origin = self.start_origin()
        proxy = self.start_inspecting("--rule", "allow GET localhost /**")
        connection = self.inspected(proxy, origin)
        leaf = connection.tls.getpeercert()
        self.assertEqual(leaf["subjectAltName"], (("DNS", "localhost"),))
        self.assertEqual(dict(pair[0] for pair in leaf["issuer"])["commonName"], "turn CA")
        lifetime = ssl.cert_time_to_seconds(leaf["notAfter"]) - ssl.cert_time_to_seconds(
            leaf["notBefore"])
        self.assertLessEqual(lifetime, 24 * 3600 + 600)
        self.assertLess(ssl.cert_time_to_seconds(leaf["notBefore"]),
                        datetime.datetime.now().timestamp())
        # The descriptor the CA came on is closed once read.
        fd_directory = "/proc/%d/fd" % proxy.process.pid
        held = [os.readlink(os.path.join(fd_directory, fd)) for fd in os.listdir(fd_directory)]
        self.assertNotIn(proxy.ca_pipe, held)
        self.assertEqual(connection.request("GET", "/x").status, 200)

    def test_a_client_trusting_another_ca_cannot_talk_to_the_proxy(self):
        origin = self.start_origin()
        proxy = self.start_inspecting("--rule", "allow GET localhost /**")
        other = self.make_authority("another turn")
        with self.assertRaises(ssl.SSLCertVerificationError):
            InspectedConnection(proxy.port, "localhost", origin.port, other.cert)

    # -- the upstream is verified ------------------------------------------

    def test_an_upstream_with_an_untrusted_certificate_is_refused(self):
        stranger = self.make_authority("stranger")
        origin = self.start_origin(stranger.issue(["DNS:localhost", "IP:127.0.0.1"]))
        proxy = self.start_inspecting("--rule", "allow GET localhost /**")
        refused = self.inspected(proxy, origin).request("GET", "/x")
        self.assertRefused(refused, 502, "upstream-not-trusted")
        self.assertEqual(origin.recorded(), [])
        proxy.wait_event(event="decision", method="GET", path="/x", decision="deny",
                         reason="upstream-not-trusted", status=502)

    def test_an_upstream_with_a_certificate_for_another_name_is_refused(self):
        origin = self.start_origin(self.origin_ca.issue(["DNS:elsewhere.test"]))
        proxy = self.start_inspecting("--rule", "allow GET localhost /**")
        refused = self.inspected(proxy, origin).request("GET", "/x")
        self.assertRefused(refused, 502, "upstream-not-trusted")
        self.assertEqual(origin.recorded(), [])

    # -- everything else stays opaque ----------------------------------------

    def test_a_host_no_rule_names_is_still_an_opaque_tunnel(self):
        origin = self.start_origin()
        proxy = self.start_inspecting("--allow", LOOPBACK,
                                      "--rule", "allow GET localhost /**")
        with RawClient(proxy.port) as client:
            self.assertEqual(client.connect_tunnel(LOOPBACK, origin.port).status, 200)
            context = ssl.create_default_context(cafile=self.origin_ca.cert)
            tls = context.wrap_socket(client.sock, server_hostname=LOOPBACK)
            self.assertEqual(tls.getpeercert(binary_form=True), _der(origin.leaf))
            tls.close()
        result = curl(origin.url("/plain", scheme="https"), "--cacert", self.origin_ca.cert,
                      proxy_port=proxy.port)
        self.assertEqual((result.exit_code, result.status), (0, 200), result.stderr)
        (connect,) = proxy.decisions(method="CONNECT", host=LOOPBACK)[:1]
        self.assertNotIn("inspected", connect)
        self.assertEqual(proxy.decisions(method="GET"), [])

    # -- startup -------------------------------------------------------------

    def test_a_rule_without_the_turn_ca_refuses_to_start(self):
        status, output = run_egress(["--listen", LOOPBACK + ":0",
                                     "--rule", "allow GET localhost /**"])
        self.assertEqual(status, 2, output)
        self.assertIn("--inspect-ca-fd", output)

    def test_a_bad_rule_or_ca_refuses_to_start(self):
        status, output = run_egress(["--rule", "allow GET localhost repos", "--inspect-ca-fd", "3"])
        self.assertEqual(status, 2, output)
        self.assertIn("--rule", output)
        reading, writing = os.pipe()
        os.write(writing, b"not a certificate\n")
        os.close(writing)
        try:
            done = subprocess.run(
                [proxy_binary(), "--listen", LOOPBACK + ":0", "--inspect-ca-fd", str(reading),
                 "--rule", "allow GET localhost /**"],
                pass_fds=[reading], capture_output=True, timeout=IO_TIMEOUT,
            )
        finally:
            os.close(reading)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(b"--inspect-ca-fd", done.stderr)


def proxy_binary():
    from egress_process import egress_binary

    return egress_binary()


if __name__ == "__main__":
    main()
