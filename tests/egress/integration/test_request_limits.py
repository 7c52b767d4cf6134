"""Malformed and abusive clients: bad request heads, oversized heads, a slow
head (slowloris) and the connection limit."""

import socket
import time

from egress_clients import absolute_get, raw_request
from egress_common import IO_TIMEOUT, LOOPBACK
from egress_harness import EgressTestCase, main


class RequestLimitsTest(EgressTestCase):
    def setUp(self):
        self.upstream = self.start_upstream()

    def authority(self):
        return "%s:%d" % (LOOPBACK, self.upstream.port)

    def test_malformed_request_heads_are_bad_requests(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        target = self.authority()
        malformed = {
            "no spaces": b"GARBAGE\r\n\r\n",
            "no version": b"GET http://%s/hello\r\n\r\n" % target.encode(),
            "extra token": b"GET http://%s/hello HTTP/1.1 extra\r\n\r\n" % target.encode(),
            "not HTTP": b"GET http://%s/hello FTP/1.0\r\n\r\n" % target.encode(),
            "empty host": b"GET http:///hello HTTP/1.1\r\nHost: \r\n\r\n",
            "CONNECT without port": b"CONNECT %s HTTP/1.1\r\n\r\n" % LOOPBACK.encode(),
            "CONNECT port not a number": b"CONNECT %s:https HTTP/1.1\r\n\r\n" % LOOPBACK.encode(),
            "CONNECT port out of range": b"CONNECT %s:70000 HTTP/1.1\r\n\r\n" % LOOPBACK.encode(),
            "header without colon": absolute_get(target, "/hello", "NoColonHere\r\n"),
            "Content-Length not a number": absolute_get(target, "/echo", "Content-Length: ten\r\n"),
            "conflicting Content-Length": absolute_get(
                target, "/echo", "Content-Length: 3\r\nContent-Length: 5\r\n"),
            "Content-Length with chunked": absolute_get(
                target, "/echo", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"),
            "transfer coding other than chunked": absolute_get(
                target, "/echo", "Transfer-Encoding: gzip\r\n"),
            "origin form other than /health": b"GET /hello HTTP/1.1\r\nHost: %s\r\n\r\n"
            % target.encode(),
        }
        for name, head in malformed.items():
            with self.subTest(name):
                with self.raw_client(proxy.port) as client:
                    client.send(head)
                    self.assertRefused(client.read_response(), 400, "bad-request")
                    self.assertTrue(client.is_closed_by_peer(), "400 did not close the connection")
        self.assertEqual(self.upstream.recorded(), [], "a malformed request was forwarded")
        proxy.wait_event(event="decision", reason="bad-request", count=len(malformed))

    def test_oversized_request_head_is_refused(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--max-header-bytes", "4096")
        big_header = absolute_get(self.authority(), "/hello", "X-Big: %s\r\n" % ("b" * 8000))
        self.assertRefused(raw_request(proxy.port, big_header), 431, "headers-too-large")
        long_line = absolute_get(self.authority(), "/hello?" + "q" * 8000)
        self.assertRefused(raw_request(proxy.port, long_line), 431, "headers-too-large")
        many_headers = absolute_get(self.authority(), "/hello",
                                    "".join("X-H%d: v\r\n" % i for i in range(600)))
        self.assertRefused(raw_request(proxy.port, many_headers), 431, "headers-too-large")
        # just under the limit is served
        fits = absolute_get(self.authority(), "/hello", "X-Fits: %s\r\n" % ("f" * 3000))
        self.assertEqual(raw_request(proxy.port, fits).status, 200)
        self.assertEqual(len(self.upstream.recorded()), 1)

    def test_default_header_limit_refuses_a_large_head(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        big = absolute_get(self.authority(), "/hello", "X-Big: %s\r\n" % ("b" * 20000))
        self.assertRefused(raw_request(proxy.port, big), 431, "headers-too-large")

    def test_oversized_response_head_is_a_bad_gateway(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--max-header-bytes", "4096")
        response = raw_request(proxy.port, absolute_get(self.authority(), "/huge-header/8000"))
        self.assertRefused(response, 502, "bad-response")
        self.assertIsNone(response.header("X-Huge"))

    def test_upstream_closing_without_a_response_is_a_bad_gateway(self):
        def hang_up_after_the_head(connection):
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = connection.recv(65536)
                if not chunk:
                    raise ConnectionError("the proxy closed before the whole request head")
                received += chunk

        silent = self.start_tcp_upstream(hang_up_after_the_head)
        proxy = self.start_proxy("--allow", LOOPBACK)
        response = raw_request(proxy.port, absolute_get("%s:%d" % (LOOPBACK, silent.port), "/"))
        self.assertRefused(response, 502, "bad-response")

    def test_slow_request_head_is_cut_off_and_its_slot_freed(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--header-timeout", "1",
                                 "--max-connections", "1")
        slow = self.raw_client(proxy.port)
        started = time.monotonic()
        slow.send(b"GET http://%s/hello HTTP/1.1\r\nX-Slow: " % self.authority().encode())
        answered_after = None
        # A byte every 200 ms: an idle timer alone would never fire.
        while time.monotonic() - started < 10:
            slow.send(b"z")
            if slow.wait_readable(0.2):
                answered_after = time.monotonic() - started
                break
        self.assertIsNotNone(answered_after, "a head dribbled for 10s was never cut off")
        self.assertGreaterEqual(answered_after, 0.9, "cut off before --header-timeout")
        self.assertLess(answered_after, 6, "cut off long after --header-timeout 1")
        self.assertRefused(slow.read_response(), 408, "header-timeout")
        self.assertTrue(slow.is_closed_by_peer(), "408 did not close the connection")
        self.assertEqual(self.upstream.recorded(), [])
        self._assert_served_within(proxy, 3)

    def test_silent_connection_is_closed_after_header_timeout(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--header-timeout", "1")
        silent = self.raw_client(proxy.port)
        opened = time.monotonic()
        self.assertTrue(silent.is_closed_by_peer(10), "silent connection still open after 10s")
        self.assertGreaterEqual(time.monotonic() - opened, 0.9)
        # The log is read by a thread: a later request's lines are the barrier
        # after which a decision for the silent connection would have been read.
        self.assertRefused(raw_request(proxy.port, absolute_get("barrier.invalid")),
                           403, "host-not-allowed")
        proxy.wait_event(event="close", host="barrier.invalid")
        self.assertEqual([d["host"] for d in proxy.decisions()], ["barrier.invalid"],
                         "a connection that sent nothing logged a decision")
        self.assertEqual([c["host"] for c in proxy.closes()], ["barrier.invalid"])

    def _assert_served_within(self, proxy, seconds):
        """A fresh request is served (not refused with 503) within `seconds`:
        the proxy notices a freed slot asynchronously."""
        deadline = time.monotonic() + seconds
        while True:
            response = raw_request(proxy.port, absolute_get(self.authority(), "/hello"))
            if response.status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual(response.status, 200, response)
        self.assertEqual(response.body, b"hello from upstream\n")

    def test_connection_limit_refuses_the_extra_connection_until_one_closes(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--max-connections", "2")
        tunnels = []
        for _ in range(2):
            tunnel = self.raw_client(proxy.port)
            self.assertEqual(tunnel.connect_tunnel(LOOPBACK, self.upstream.port).status, 200)
            tunnels.append(tunnel)

        refused = raw_request(proxy.port, absolute_get(self.authority(), "/hello"))
        self.assertRefused(refused, 503, "connection-limit")

        tunnels[0].close()
        self._assert_served_within(proxy, 5)

        # the tunnel still held open works
        tunnels[1].send(b"GET /bytes/10 HTTP/1.1\r\nHost: %s\r\n\r\n" % self.authority().encode())
        self.assertEqual(tunnels[1].read_response().status, 200)

    def test_idle_tunnel_is_closed_after_idle_timeout(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--idle-timeout", "1")
        tunnel = self.raw_client(proxy.port)
        self.assertEqual(tunnel.connect_tunnel(LOOPBACK, self.upstream.port).status, 200)
        opened = time.monotonic()
        self.assertTrue(tunnel.is_closed_by_peer(10), "idle tunnel still open after 10s")
        self.assertGreaterEqual(time.monotonic() - opened, 0.9, "closed before --idle-timeout")

    def test_busy_tunnel_outlives_idle_timeout(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--idle-timeout", "1")
        tunnel = self.raw_client(proxy.port)
        self.assertEqual(tunnel.connect_tunnel(LOOPBACK, self.upstream.port).status, 200)
        # 3 s of data in 20 steps of 0.15 s: never 1 s without a byte
        size = 200000
        tunnel.send(b"GET /drip/%d/3 HTTP/1.1\r\nHost: %s\r\n\r\n"
                    % (size, self.authority().encode()))
        response = tunnel.read_response()
        self.assertEqual(response.status, 200)
        self.assertEqual(len(response.body), size)

    def test_idle_kept_alive_connection_is_closed_after_idle_timeout(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--idle-timeout", "1")
        client = self.raw_client(proxy.port)
        client.send(absolute_get(self.authority(), "/hello"))
        self.assertEqual(client.read_response().status, 200)
        self.assertTrue(client.is_closed_by_peer(10), "idle keep-alive still open after 10s")

    def test_connection_limit_counts_idle_connections_without_a_request(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--max-connections", "2")
        idle = [socket.create_connection((LOOPBACK, proxy.port), timeout=IO_TIMEOUT)
                for _ in range(2)]
        for connection in idle:
            self.addCleanup(connection.close)
        # accepted in connect order, so these two hold the slots
        refused = raw_request(proxy.port, absolute_get(self.authority(), "/hello"))
        self.assertRefused(refused, 503, "connection-limit")


if __name__ == "__main__":
    main()
