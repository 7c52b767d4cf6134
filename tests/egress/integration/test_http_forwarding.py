"""Absolute-form HTTP through arizuko-egress: bodies, headers, redirects and
keep-alive, as curl and a raw client see them."""

from egress_clients import absolute_get, curl
from egress_common import BULK_TIMEOUT, LOOPBACK, pattern_bytes, sha256
from egress_harness import EgressTestCase, main


class HttpForwardingTest(EgressTestCase):
    def setUp(self):
        self.upstream = self.start_upstream()
        self.proxy = self.start_proxy("--allow", LOOPBACK)

    def test_get_body_arrives_intact(self):
        result = curl(self.upstream.url("/bytes/70000"), proxy_port=self.proxy.port)
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.status, 200)
        self.assertEqual(result.body, pattern_bytes(70000))

    def test_large_post_is_streamed_both_ways(self):
        upload = pattern_bytes(8 * 1024 * 1024, seed=1)
        result = curl(
            self.upstream.url("/echo"),
            proxy_port=self.proxy.port,
            upload=upload,
            timeout=BULK_TIMEOUT,
        )
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.status, 200)
        (received,) = self.upstream.recorded("/echo")
        self.assertEqual(received.body_length, len(upload))
        self.assertEqual(received.body_sha256, sha256(upload))
        self.assertEqual(len(result.body), len(upload))
        self.assertEqual(sha256(result.body), sha256(upload))

    def test_chunked_upload_and_chunked_download_arrive_intact(self):
        upload = pattern_bytes(3 * 1024 * 1024 + 17, seed=2)
        result = curl(
            self.upstream.url("/echo"),
            "-H", "Transfer-Encoding: chunked",
            proxy_port=self.proxy.port,
            upload=upload,
            timeout=BULK_TIMEOUT,
        )
        self.assertEqual(result.exit_code, 0, result.stderr)
        (received,) = self.upstream.recorded("/echo")
        self.assertEqual(received.body_sha256, sha256(upload))
        self.assertEqual(sha256(result.body), sha256(upload))

        result = curl(self.upstream.url("/chunked/1000003"), proxy_port=self.proxy.port)
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.body, pattern_bytes(1000003))

    def test_hop_by_hop_request_headers_are_dropped(self):
        result = curl(
            self.upstream.url("/headers"),
            "-H", "Connection: keep-alive, X-Hop-Secret",
            "-H", "X-Hop-Secret: must-not-arrive",
            "-H", "Proxy-Connection: keep-alive",
            "-H", "Keep-Alive: timeout=30",
            "-H", "TE: trailers",
            "-H", "Trailer: X-Checksum",
            "-H", "Upgrade: h2c",
            "-H", "Proxy-Authorization: Basic c2VjcmV0OnNlY3JldA==",
            "-H", "X-End-To-End: arrives",
            "-H", "Authorization: Bearer upstream-token",
            "-A", "egress-it/1",
            proxy_port=self.proxy.port,
        )
        self.assertEqual(result.exit_code, 0, result.stderr)
        (received,) = self.upstream.recorded("/headers")
        names = received.header_names()
        for hop in ("proxy-connection", "keep-alive", "x-hop-secret", "te", "trailer", "upgrade",
                    "proxy-authorization"):
            self.assertNotIn(hop, names, "%s reached upstream: %r" % (hop, received.headers))
        # the proxy's own hop, not the client's Connection header
        self.assertEqual([v for n, v in received.headers if n.lower() == "connection"], ["close"])
        self.assertEqual(received.header("X-End-To-End"), "arrives")
        self.assertEqual(received.header("Authorization"), "Bearer upstream-token")
        self.assertEqual(received.header("User-Agent"), "egress-it/1")
        self.assertEqual(received.header("Host"), "%s:%d" % (LOOPBACK, self.upstream.port))

    def test_host_header_is_taken_from_the_url(self):
        client = self.raw_client(self.proxy.port)
        authority = "%s:%d" % (LOOPBACK, self.upstream.port)
        client.send(("GET http://%s/host-check HTTP/1.1\r\nHost: elsewhere.invalid\r\n\r\n"
                     % authority).encode())
        self.assertEqual(client.read_response().status, 200)
        (received,) = self.upstream.recorded("/host-check")
        self.assertEqual([v for n, v in received.headers if n.lower() == "host"], [authority])
        self.assertEqual(received.path, "/host-check", "request line not rewritten to origin form")

    def test_hop_by_hop_response_headers_are_dropped(self):
        result = curl(self.upstream.url("/hop-response"), proxy_port=self.proxy.port)
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.body, b"hop\n")
        for hop in ("X-Resp-Hop", "Keep-Alive", "Proxy-Authenticate", "Upgrade"):
            self.assertIsNone(result.header(hop), "%s reached the client" % hop)
        self.assertEqual(result.header("X-Resp-End"), "kept")

    def test_redirect_is_passed_to_the_client_not_followed(self):
        result = curl(self.upstream.url("/redirect"), proxy_port=self.proxy.port)
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.status, 302)
        self.assertEqual(result.header("Location"), "/target")
        self.assertEqual(result.body, b"moved\n")
        self.assertEqual(self.upstream.recorded("/target"), [], "the proxy followed the redirect")

    def test_two_requests_on_one_kept_alive_connection_are_each_served_and_decided(self):
        result = curl(
            [self.upstream.url("/hello"), self.upstream.url("/bytes/1000")],
            "-w", "%{num_connects}\n",
            proxy_port=self.proxy.port,
        )
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.write_out.split(), ["1", "0"], "curl did not reuse the connection")
        self.assertEqual([h[0] for h in result.heads], [200, 200])
        self.assertEqual(result.body, b"hello from upstream\n" + pattern_bytes(1000))
        self.assertEqual(len(self.upstream.recorded()), 2)
        self.proxy.wait_event(
            count=2, event="decision", method="GET", host=LOOPBACK, port=self.upstream.port,
            decision="allow",
        )

    def test_kept_alive_connection_rechecks_every_request(self):
        client = self.raw_client(self.proxy.port)
        allowed = "%s:%d" % (LOOPBACK, self.upstream.port)
        client.send(absolute_get(allowed, "/hello"))
        first = client.read_response()
        self.assertEqual(first.status, 200)
        self.assertEqual(first.body, b"hello from upstream\n")

        # Same upstream server, but `localhost` is not on the list (only the
        # literal is): a proxy that reused its upstream connection unchecked
        # would serve it.
        client.send(absolute_get("localhost:%d" % self.upstream.port, "/hello"))
        second = client.read_response()
        self.assertRefused(second, 403, "host-not-allowed")
        self.assertTrue(client.is_closed_by_peer(), "error response did not close the connection")
        self.assertEqual(len(self.upstream.recorded("/hello")), 1)
        self.proxy.wait_event(event="decision", host="localhost", decision="deny",
                              reason="host-not-allowed")

    def test_kept_alive_connection_to_a_second_disallowed_name_is_refused(self):
        client = self.raw_client(self.proxy.port)
        client.send(absolute_get("%s:%d" % (LOOPBACK, self.upstream.port), "/hello"))
        self.assertEqual(client.read_response().status, 200)
        client.send(absolute_get("not-allowed.invalid", "/"))
        self.assertRefused(client.read_response(), 403, "host-not-allowed")

    def test_head_request_has_no_body_and_keeps_the_connection(self):
        client = self.raw_client(self.proxy.port)
        authority = "%s:%d" % (LOOPBACK, self.upstream.port)
        head = "HEAD http://%s/bytes/5000 HTTP/1.1\r\nHost: %s\r\n\r\n" % (authority, authority)
        client.send(head.encode())
        head = client.read_response("HEAD")
        self.assertEqual(head.status, 200)
        self.assertEqual(head.header("Content-Length"), "5000")
        client.send(absolute_get(authority, "/hello"))
        self.assertEqual(client.read_response().body, b"hello from upstream\n")


if __name__ == "__main__":
    main()
