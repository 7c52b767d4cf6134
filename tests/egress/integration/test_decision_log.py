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
        raw_request(proxy.port, b"GET /health HTTP/1.1\r\nHost: egress\r\n\r\n")
        # The log is read by a thread: once the lines of a later request are in,
        # any line /health had logged would be in too.
        raw_request(proxy.port, absolute_get("barrier.invalid", "/"))
        proxy.wait_event(event="close", host="barrier.invalid")

        lines = list(proxy.lines)
        self.assertTrue(lines)
        for line in lines:
            with self.subTest(line=line):
                self.assertIsInstance(json.loads(line), dict)

        events = [json.loads(line) for line in lines]
        kinds = [e.get("event") for e in events]
        self.assertEqual(kinds.count("listening"), 1)
        listening = events[kinds.index("listening")]
        self.assertEqual(listening.get("addr"), "%s:%d" % (LOOPBACK, proxy.port))
        self.assertLess(kinds.index("listening"), kinds.index("ready"))

        expected = [
            ("GET", LOOPBACK, upstream.port, "allow", "allowed", 200),
            ("GET", "denied.invalid", 80, "deny", "host-not-allowed", 403),
            ("CONNECT", LOOPBACK, upstream.port, "allow", "allowed", 200),
            ("GET", "barrier.invalid", 80, "deny", "host-not-allowed", 403),
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

        # each decision is closed by exactly one line naming the same request;
        # /health logged neither
        closes = proxy.closes()
        self.assertEqual(len(closes), len(expected), closes)
        same = ("client", "method", "host", "port", "decision", "reason")
        for decision in decisions:
            with self.subTest(decision=decision):
                matching = [c for c in closes if all(c.get(k) == decision[k] for k in same)]
                self.assertEqual(len(matching), 1, closes)
                close = matching[0]
                self.assertIsInstance(close["bytes_up"], int)
                self.assertIsInstance(close["bytes_down"], int)
                self.assertGreaterEqual(close["duration_ms"], 0)
                self.assertRecentUtc(close["time"])
                if decision["decision"] == "deny":
                    self.assertEqual((close["bytes_up"], close["bytes_down"]), (0, 0))
                else:
                    self.assertGreater(close["bytes_down"], 0)

    def test_refusal_before_a_head_is_parsed_logs_an_empty_request(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--max-header-bytes", "1024")
        big = absolute_get("%s:1" % LOOPBACK, "/", "X-Big: %s\r\n" % ("b" * 2000))
        raw_request(proxy.port, big)
        (decision,) = proxy.wait_event(event="decision", reason="headers-too-large")
        self.assertEqual((decision["method"], decision["host"], decision["port"]), ("", "", 0))
        self.assertEqual(decision["decision"], "deny")
        self.assertEqual(decision["status"], 431)

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
        self.assertEqual(client.connect_tunnel(LOOPBACK, upstream.port).status, 200)
        client.send(up)
        self.assertEqual(client.read_exactly(len(down)), down)
        client.sock.shutdown(socket.SHUT_RDWR)
        client.close()

        (close,) = proxy.wait_event(event="close", method="CONNECT", port=upstream.port)
        # the tunnel payload, without the CONNECT request or the proxy's own 200
        self.assertEqual(close["bytes_up"], len(up), close)
        self.assertEqual(close["bytes_down"], len(down), close)
        self.assertEqual(close["decision"], "allow")
        self.assertEqual(close["client"], LOOPBACK)

    def test_close_totals_match_an_http_exchange(self):
        # request and response heads are counted with the bodies; heads are small
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK)
        upload = pattern_bytes(500000, seed=10)
        result = curl(upstream.url("/echo"), proxy_port=proxy.port, upload=upload)
        self.assertEqual(result.status, 200, result.stderr)
        (close,) = proxy.wait_event(event="close", method="POST")
        self.assertGreaterEqual(close["bytes_up"], len(upload), close)
        self.assertLess(close["bytes_up"], len(upload) + 4096, close)
        self.assertGreaterEqual(close["bytes_down"], len(upload), close)
        self.assertLess(close["bytes_down"], len(upload) + 4096, close)


if __name__ == "__main__":
    main()
