"""The decision log on stderr: one JSON object per line, the documented
fields on every decision, and byte totals that match the traffic."""

import datetime
import json
import socket

from egress_clients import absolute_get, curl, raw_request
from egress_common import LOOPBACK, pattern_bytes, recv_exactly
from egress_harness import EgressTestCase, main

DECISION_FIELDS = ("time", "client", "method", "host", "port", "decision", "reason")


class DecisionLogTest(EgressTestCase):
    def test_every_line_is_json_and_decisions_carry_the_documented_fields(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK)
        curl(upstream.url("/hello"), proxy_port=proxy.port)
        raw_request(proxy.port, absolute_get("denied.invalid", "/"))
        curl(upstream.url("/bytes/10"), "--proxytunnel", proxy_port=proxy.port)
        proxy.wait_event(event="decision", count=3)
        proxy.wait_event(event="close", decision="allow", count=2)

        lines = list(proxy.lines)
        self.assertTrue(lines)
        for line in lines:
            with self.subTest(line=line):
                self.assertIsInstance(json.loads(line), dict)

        events = [json.loads(line) for line in lines]
        kinds = [e.get("event") for e in events]
        self.assertEqual(kinds.count("listening"), 1)
        self.assertEqual(events[kinds.index("listening")].get("addr"), "%s:%d" % (LOOPBACK, proxy.port))
        self.assertLess(kinds.index("listening"), kinds.index("ready"))

        expected = [
            ("GET", LOOPBACK, upstream.port, "allow", "allowed", 200),
            ("GET", "denied.invalid", 80, "deny", "host-not-allowed", 403),
            ("CONNECT", LOOPBACK, upstream.port, "allow", "allowed", 200),
        ]
        decisions = proxy.decisions()
        self.assertEqual(len(decisions), len(expected), decisions)
        for decision, (method, host, port, verdict, reason, status) in zip(decisions, expected):
            with self.subTest(decision=decision):
                for field in DECISION_FIELDS:
                    self.assertIn(field, decision)
                self.assertEqual(decision["client"], LOOPBACK)
                self.assertEqual(decision["method"], method)
                self.assertEqual(decision["host"], host)
                self.assertEqual(decision["port"], port)
                self.assertEqual(decision["decision"], verdict)
                self.assertEqual(decision["reason"], reason)
                self.assertEqual(decision["status"], status)
                self.assertRecentUtc(decision["time"])

        for close in proxy.closes():
            with self.subTest(close=close):
                for field in DECISION_FIELDS + ("bytes_up", "bytes_down", "duration_ms"):
                    self.assertIn(field, close)
                self.assertIsInstance(close["bytes_up"], int)
                self.assertIsInstance(close["bytes_down"], int)
                self.assertGreaterEqual(close["duration_ms"], 0)

    def assertRecentUtc(self, stamp):
        self.assertRegex(stamp, r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
        when = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        now = datetime.datetime.now(datetime.timezone.utc)
        self.assertLess(abs((now - when).total_seconds()), 120, "time is not now in UTC")

    def test_close_totals_match_the_bytes_tunnelled(self):
        up = pattern_bytes(1234567, seed=8)
        down = pattern_bytes(2345678, seed=9)

        def exchange(connection):
            recv_exactly(connection, len(up))
            connection.sendall(down)

        upstream = self.start_tcp_upstream(exchange)
        proxy = self.start_proxy("--allow", LOOPBACK)
        client = self.raw_client(proxy.port)
        request = "CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (
            LOOPBACK, upstream.port, LOOPBACK, upstream.port)
        client.send(request.encode())
        self.assertEqual(client.read_head()[0], 200)
        reply_head_size = client.last_head_size
        client.send(up)
        self.assertEqual(client.read_exactly(len(down)), down)
        client.sock.shutdown(socket.SHUT_RDWR)
        client.close()

        (close,) = proxy.wait_event(event="close", method="CONNECT", port=upstream.port)
        # The proxy may or may not count its own request/reply heads.
        self.assertGreaterEqual(close["bytes_up"], len(up), close)
        self.assertLessEqual(close["bytes_up"], len(up) + len(request), close)
        self.assertGreaterEqual(close["bytes_down"], len(down), close)
        self.assertLessEqual(close["bytes_down"], len(down) + reply_head_size, close)
        self.assertEqual(close["decision"], "allow")
        self.assertEqual(close["client"], LOOPBACK)

    def test_close_totals_match_an_http_exchange(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK)
        upload = pattern_bytes(500000, seed=10)
        result = curl(upstream.url("/echo"), proxy_port=proxy.port, upload=upload)
        self.assertEqual(result.status, 200, result.stderr)
        (close,) = proxy.wait_event(event="close", method="POST")
        # heads are included or not, but the bodies are in there and heads are small
        self.assertGreaterEqual(close["bytes_up"], len(upload), close)
        self.assertLess(close["bytes_up"], len(upload) + 4096, close)
        self.assertGreaterEqual(close["bytes_down"], len(upload), close)
        self.assertLess(close["bytes_down"], len(upload) + 4096, close)


if __name__ == "__main__":
    main()
