"""Credentials as placeholders (--secrets-fd): the guest holds a placeholder,
the proxy puts the secret's value into requests to the hosts it is bound to
(a header template, HTTP Basic's password), refuses a placeholder sent
anywhere else (placeholder-leak), and scrubs the value from what inspected
hosts answer. Real proxy, real curl, TLS and plain origins on loopback with
their own CA; the origins record what they got."""

import base64
import json
import os
import urllib.parse

from egress_clients import RawClient, curl
from egress_common import LOOPBACK
from egress_harness import EgressTestCase, main
from egress_process import run_egress
from egress_upstreams import UpstreamHttp
from test_inspect import Authority, InspectedConnection

import ssl

VALUE = b"s3cr3t-value/with+odd=chars%and:colon"
PLACEHOLDER = "arizuko-placeholder-" + "0123456789abcdef" * 2
BASIC_VALUE = b"git-password-0042"
BASIC_PLACEHOLDER = "arizuko-placeholder-" + "fedcba9876543210" * 2


def binding(name, placeholder, value, hosts, **where):
    line = {"name": name, "placeholder": placeholder,
            "value_b64": base64.b64encode(value).decode(), "hosts": hosts}
    line.update(where)
    return json.dumps(line)


def said(path, data):
    return "%s/%s" % (path, base64.urlsafe_b64encode(data).decode())


class SecretsTest(EgressTestCase):
    def setUp(self):
        self.turn_ca = Authority("turn CA")
        self.addCleanup(self.turn_ca.close)
        self.origin_ca = Authority("origin CA")
        self.addCleanup(self.origin_ca.close)

    def start_origin(self, tls=True):
        context = None
        if tls:
            cert, key = self.origin_ca.issue(["DNS:localhost", "IP:127.0.0.1"])
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
        server = UpstreamHttp(context)
        self.addCleanup(server.close)
        return server

    def start_with_secrets(self, lines, *flags):
        """The proxy with the turn's CA on one inherited pipe and the bindings on another."""
        ca_read, ca_write = os.pipe()
        os.write(ca_write, self.turn_ca.pem_bundle())
        os.close(ca_write)
        secrets_read, secrets_write = os.pipe()
        os.write(secrets_write, ("\n".join(lines) + "\n").encode())
        os.close(secrets_write)
        try:
            return self.start_proxy(
                "--inspect-ca-fd", str(ca_read), "--secrets-fd", str(secrets_read), *flags,
                env={"EGRESS_TEST_UPSTREAM_CA": self.origin_ca.cert},
                pass_fds=[ca_read, secrets_read])
        finally:
            os.close(ca_read)
            os.close(secrets_read)

    def standard_proxy(self):
        """TOKEN bound to localhost as a Bearer header, GIT_PASSWORD to localhost for Basic;
        127.0.0.1 is another allowed (and inspected) host."""
        return self.start_with_secrets(
            [binding("TOKEN", PLACEHOLDER, VALUE, ["localhost"], header="Authorization",
                     template="Bearer {}"),
             binding("GIT_PASSWORD", BASIC_PLACEHOLDER, BASIC_VALUE, ["localhost"], basic=True)],
            "--rule", "allow * localhost /**", "--rule", "allow * 127.0.0.1 /**",
            "--allow", "127.0.0.1")

    def inspected(self, proxy, origin, host="localhost"):
        connection = InspectedConnection(proxy.port, host, origin.port, self.turn_ca.cert)
        self.addCleanup(connection.close)
        return connection

    def send(self, connection, method, path, headers="", body=b""):
        head = "%s %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: %d\r\n\r\n" % (
            method, path, connection.host, headers, len(body))
        connection.raw.send(head.encode() + body)
        return connection.raw.read_response(method)

    def assertNeverLogged(self, proxy):
        for line in proxy.lines:
            self.assertNotIn(VALUE.decode(), line)
            self.assertNotIn(BASIC_VALUE.decode(), line)
            self.assertNotIn(PLACEHOLDER, line)
            self.assertNotIn(BASIC_PLACEHOLDER, line)

    # -- substitution ----------------------------------------------------------

    def test_template_reaches_the_bound_host_on_every_request_of_a_connection(self):
        origin = self.start_origin()
        proxy = self.standard_proxy()
        connection = self.inspected(proxy, origin)
        bearer = "Authorization: Bearer %s\r\nAccept-Encoding: gzip, br\r\n" % PLACEHOLDER
        for path in ("/first", "/second"):
            response = self.send(connection, "GET", path, bearer)
            self.assertEqual((response.status, response.body), (200, b"GET %s\n" % path.encode()))
            (seen,) = origin.recorded(path)
            self.assertEqual(seen.header("Authorization"), "Bearer " + VALUE.decode())
            self.assertEqual(seen.header("Accept-Encoding"), "identity")
        # Only the exact template is filled: another header keeps the placeholder.
        self.send(connection, "GET", "/other", "X-Token: %s\r\n" % PLACEHOLDER)
        (other,) = origin.recorded("/other")
        self.assertEqual(other.header("X-Token"), PLACEHOLDER)
        proxy.wait_event(event="decision", method="CONNECT", inspected=True,
                         rule="allow * localhost /**")
        self.assertNeverLogged(proxy)

    def test_basic_password_is_decoded_and_re_encoded_for_curl(self):
        origin = self.start_origin()
        proxy = self.standard_proxy()
        result = curl(origin.url("/repo.git/info/refs", host="localhost", scheme="https"),
                      "--cacert", self.turn_ca.cert, "-u", "git:" + BASIC_PLACEHOLDER,
                      proxy_port=proxy.port)
        self.assertEqual((result.exit_code, result.status), (0, 200), result.stderr)
        (seen,) = origin.recorded("/repo.git/info/refs")
        self.assertEqual(seen.header("Authorization"),
                         "Basic " + base64.b64encode(b"git:" + BASIC_VALUE).decode())
        self.assertNeverLogged(proxy)

    def test_plain_http_to_the_bound_host_is_substituted(self):
        origin = self.start_origin(tls=False)
        proxy = self.standard_proxy()
        result = curl(origin.url("/plain", host="localhost"), "-H",
                      "Authorization: Bearer " + PLACEHOLDER, proxy_port=proxy.port)
        self.assertEqual((result.exit_code, result.status), (0, 200), result.stderr)
        (seen,) = origin.recorded("/plain")
        self.assertEqual(seen.header("Authorization"), "Bearer " + VALUE.decode())

    # -- leaks -----------------------------------------------------------------

    def assertLeakRefused(self, proxy, response, name, path):
        self.assertRefused(response, 403, "placeholder-leak")
        self.assertIn(name, response.body.decode())
        self.assertNotIn(PLACEHOLDER, response.body.decode())
        proxy.wait_event(event="decision", decision="deny", reason="placeholder-leak",
                         secret=name, path=path, status=403)

    def test_a_placeholder_to_another_inspected_host_is_refused(self):
        origin = self.start_origin()
        proxy = self.standard_proxy()
        connection = self.inspected(proxy, origin, host=LOOPBACK)
        cases = [
            ("/in-header", "Authorization: Bearer %s\r\n" % PLACEHOLDER, b"", "TOKEN"),
            ("/in-basic", "Authorization: Basic %s\r\n"
             % base64.b64encode(b"git:" + BASIC_PLACEHOLDER.encode()).decode(), b"",
             "GIT_PASSWORD"),
            ("/in-path/" + PLACEHOLDER, "", b"", "TOKEN"),
            ("/in-query?key=" + urllib.parse.quote(PLACEHOLDER, safe=""), "", b"", "TOKEN"),
            ("/in-query-escaped?key=%61rizuko" + PLACEHOLDER[7:], "", b"", "TOKEN"),
            ("/in-body", "", b"x" * 60000 + PLACEHOLDER.encode() + b"y" * 100000, "TOKEN"),
        ]
        for path, headers, body, name in cases:
            response = self.send(connection, "POST" if body else "GET", path, headers, body)
            self.assertLeakRefused(proxy, response, name,
                                   path.split("?")[0].replace(PLACEHOLDER, "{TOKEN}"))
        # The connection goes on, and the placeholder past the first 64 KiB is not looked for.
        late = b"x" * 70000 + PLACEHOLDER.encode()
        self.assertEqual(self.send(connection, "POST", "/late", "", late).status, 200)
        self.assertEqual([r.path for r in origin.recorded()], ["/late"])
        self.assertNeverLogged(proxy)

    def test_a_placeholder_in_plain_http_to_another_host_is_refused(self):
        origin = self.start_origin(tls=False)
        proxy = self.standard_proxy()
        for path, headers, body in [
            ("/h", "Authorization: Bearer %s\r\n" % PLACEHOLDER, b""),
            ("/q?x=" + PLACEHOLDER, "", b""),
            ("/b", "", b"z" * 1000 + PLACEHOLDER.encode()),
        ]:
            with RawClient(proxy.port) as client:
                client.send(("%s http://%s:%d%s HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n"
                             % ("POST" if body else "GET", LOOPBACK, origin.port, path, headers,
                                len(body))).encode() + body)
                self.assertLeakRefused(proxy, client.read_response(), "TOKEN", path.split("?")[0])
        self.assertEqual(origin.recorded(), [])
        self.assertNeverLogged(proxy)

    # -- scrubbing ---------------------------------------------------------------

    def test_the_value_is_scrubbed_from_responses_and_framing_holds(self):
        origin = self.start_origin()
        proxy = self.standard_proxy()
        connection = self.inspected(proxy, origin)
        stars = b"*" * len(VALUE)
        forms = [VALUE, base64.b64encode(VALUE),
                 urllib.parse.quote_from_bytes(VALUE, safe="").encode()]
        text = b"<" + b"> <".join(forms) + b"> and <" + base64.b64encode(b"git:" + BASIC_VALUE) + b">"
        header = self.send(connection, "GET", said("/say-header", b"token=" + VALUE))
        self.assertEqual(header.header("x-said"), "token=" + "*" * len(VALUE))
        for route in ("/say", "/say-chunked/7", "/say-chunked/1"):
            response = self.send(connection, "GET", said(route, text))
            self.assertEqual(response.status, 200)
            self.assertEqual(len(response.body), len(text))
            for form in forms:
                self.assertNotIn(form, response.body)
            self.assertIn(b"<" + stars + b">", response.body)
            self.assertNotIn(base64.b64encode(BASIC_VALUE)[:8], response.body)
            self.assertEqual(response.body.count(b"<"), 4)
        # Still well framed: the next request on the connection is answered.
        self.assertEqual(self.send(connection, "GET", "/after").body, b"GET /after\n")

    def test_plain_http_responses_of_the_bound_host_are_scrubbed(self):
        origin = self.start_origin(tls=False)
        proxy = self.standard_proxy()
        text = b"a" * 5000 + VALUE + b"b" * 10
        for route in ("/say", "/say-chunked/5"):
            result = curl(origin.url(said(route, text), host="localhost"), proxy_port=proxy.port)
            self.assertEqual((result.exit_code, result.status), (0, 200), result.stderr)
            self.assertEqual(result.body, b"a" * 5000 + b"*" * len(VALUE) + b"b" * 10)

    # -- start-up ----------------------------------------------------------------

    def test_bad_bindings_fail_closed_with_the_line_and_the_problem(self):
        good = binding("TOKEN", PLACEHOLDER, VALUE, ["localhost"], header="Authorization",
                       template="Bearer {}")
        cases = [
            ([good, "not json"], "line 2: not a JSON object"),
            ([binding("TOKEN", "arizuko-placeholder-XYZ", VALUE, ["localhost"], basic=True)],
             "line 1: \"placeholder\""),
            ([binding("TOKEN", PLACEHOLDER, VALUE, ["localhost"], header="Authorization",
                      template="Bearer")], "template"),
            ([binding("TOKEN", PLACEHOLDER, VALUE, ["localhost"], basic=True,
                      header="Authorization", template="Bearer {}")], "both"),
            ([binding("TOKEN", PLACEHOLDER, VALUE, [], basic=True)], "\"hosts\""),
            ([binding("TOKEN", PLACEHOLDER, VALUE, ["bad host!"], basic=True)], "\"hosts\""),
            ([good, binding("TOKEN", BASIC_PLACEHOLDER, VALUE, ["x.test"], basic=True)],
             "line 2: secret TOKEN is bound twice"),
            (['{"name":"TOKEN","placeholder":"%s","value_b64":"!!","hosts":["a.test"],'
              '"basic":true}' % PLACEHOLDER], "\"value_b64\" is not base64"),
        ]
        for lines, message in cases:
            ca_read, ca_write = os.pipe()
            os.write(ca_write, self.turn_ca.pem_bundle())
            os.close(ca_write)
            secrets_read, secrets_write = os.pipe()
            os.write(secrets_write, ("\n".join(lines) + "\n").encode())
            os.close(secrets_write)
            try:
                status, output = run_egress(
                    ["--listen", LOOPBACK + ":0", "--inspect-ca-fd", str(ca_read),
                     "--secrets-fd", str(secrets_read)], pass_fds=[ca_read, secrets_read])
            finally:
                os.close(ca_read)
                os.close(secrets_read)
            self.assertEqual(status, 2, output)
            self.assertIn("--secrets-fd %d: " % secrets_read, output)
            self.assertIn(message, output)
            self.assertNotIn(VALUE.decode(), output)
            self.assertNotIn("listening", output)
        status, output = run_egress(["--secrets-fd", "4"])
        self.assertEqual(status, 2, output)
        self.assertIn("--secrets-fd needs --inspect-ca-fd", output)


if __name__ == "__main__":
    main()
