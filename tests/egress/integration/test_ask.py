"""--ask: a request for a host on no list waits while the proxy asks on its
decision log and the engine answers on its stdin (docs/egress.md, "Asking
while a request waits"). The real proxy, real sockets; the test plays the
engine."""

import signal
import socket
import time

from egress_clients import absolute_get, curl, raw_request
from egress_common import IO_TIMEOUT, LOOPBACK, recv_exactly
from egress_harness import EgressTestCase, main

HOST_HEADER = "x-arizuko-egress-host"
# How long a request that should be held is watched for an early answer.
HELD_CHECK = 0.5


def hint(host, folder="demo"):
    return ("The user can allow it in Arizuko's Network tab or with: "
            "arizukoctl network allow %s %s" % (folder, host))


class AskTest(EgressTestCase):
    def setUp(self):
        self.upstream = self.start_upstream()

    def asking_proxy(self, *flags):
        return self.start_proxy("--ask", "--folder", "demo", "--allow", "example.test", *flags,
                                answers=True)

    def authority(self, host="localhost"):
        return "%s:%d" % (host, self.upstream.port)

    def send_get(self, proxy, path="/hello", host="localhost"):
        """A plain-HTTP request for `host`, its answer not read yet."""
        client = self.raw_client(proxy.port)
        client.send(absolute_get(self.authority(host), path))
        return client

    def send_connect(self, proxy, host="localhost", port=None):
        client = self.raw_client(proxy.port)
        authority = "%s:%d" % (host, port or self.upstream.port)
        client.send(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (authority, authority)).encode())
        return client

    def assertHeld(self, client):
        self.assertFalse(client.wait_readable(HELD_CHECK), "the held request was answered early")

    def assertDenialNames(self, response, reason, host, why):
        """The documented denial: status, reason and host headers, and a body
        that says what happened and how the user can allow the host."""
        self.assertRefused(response, 403, reason)
        self.assertEqual(response.header(HOST_HEADER), host, response)
        body = response.body.decode().rstrip("\n")
        self.assertEqual(body, "arizuko-egress: %s: %s %s. %s" % (reason, host, why, hint(host)))

    def tunnel_echo(self, client):
        """Through an established CONNECT tunnel, one request to the upstream."""
        response = client.read_response("CONNECT")
        self.assertEqual(response.status, 200, response)
        client.send(b"GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer = client.read_response()
        self.assertEqual((answer.status, answer.body), (200, b"hello from upstream\n"))

    def test_once_lets_the_held_request_through_and_the_next_request_asks_again(self):
        proxy = self.asking_proxy("--allow-loopback")
        client = self.send_get(proxy, "/hello?token=secret")
        (ask,) = proxy.wait_event(event="ask")
        self.assertEqual({k: ask[k] for k in ("client", "method", "host", "port", "path")},
                         {"client": LOOPBACK, "method": "GET", "host": "localhost",
                          "port": self.upstream.port, "path": "/hello"})
        self.assertIsInstance(ask["id"], int)
        self.assertHeld(client)
        self.assertEqual(self.upstream.recorded(), [], "a held request reached the upstream")
        proxy.answer(ask, "once")
        response = client.read_response()
        self.assertEqual((response.status, response.body), (200, b"hello from upstream\n"))
        (decision,) = proxy.wait_event(event="decision", host="localhost")
        self.assertEqual(
            {k: decision.get(k) for k in ("path", "decision", "reason", "asked", "answer")},
            {"path": "/hello", "decision": "allow", "reason": "allowed", "asked": True,
             "answer": "once"})
        self.assertNotIn("secret", "\n".join(proxy.lines), "the query reached the log")

        # "once" was for that request: the next one, even on the same kept-alive
        # connection, is asked about again, under a new id
        client.send(absolute_get(self.authority(), "/hello"))
        first, second = proxy.wait_event(event="ask", count=2)
        self.assertNotEqual(first["id"], second["id"])
        self.assertHeld(client)
        proxy.answer(second, "deny")
        self.assertDenialNames(client.read_response(), "user-denied", "localhost",
                               "was denied by the user")
        self.assertEqual(len(self.upstream.recorded()), 1)
        proxy.wait_event(event="decision", decision="deny", reason="user-denied", asked=True,
                         answer="deny", status=403)

    def test_turn_allows_the_exact_host_for_the_rest_of_the_proxys_life(self):
        proxy = self.asking_proxy("--allow-loopback")
        client = self.send_connect(proxy)
        (ask,) = proxy.wait_event(event="ask", method="CONNECT")
        self.assertNotIn("path", ask)
        proxy.answer(ask, "turn")
        self.tunnel_echo(client)
        proxy.wait_event(event="decision", method="CONNECT", decision="allow", asked=True,
                         answer="turn")
        # later requests for the host pass without a question
        for _ in range(3):
            result = curl(self.upstream.url("/hello", host="localhost"), proxy_port=proxy.port)
            self.assertEqual((result.status, result.body), (200, b"hello from upstream\n"))
        self.assertEqual(len(proxy.events_named("ask")), 1, "an allowed-for-the-turn host was "
                                                           "asked about again")
        # the exact name only: a subdomain is another question
        other = self.send_get(proxy, host="api.localhost")
        proxy.wait_event(event="ask", host="api.localhost")
        self.assertHeld(other)

    def test_deny_answers_403_with_the_reason_the_engine_gave(self):
        proxy = self.asking_proxy()
        client = self.send_connect(proxy, "denied.test", 443)
        (ask,) = proxy.wait_event(event="ask", host="denied.test")
        proxy.answer(ask, "deny")
        self.assertDenialNames(client.read_response("CONNECT"), "user-denied", "denied.test",
                               "was denied by the user")
        self.assertTrue(client.is_closed_by_peer(), "a denial did not close the connection")
        other = self.send_get(proxy, host="limited.test")
        (ask,) = proxy.wait_event(event="ask", host="limited.test")
        proxy.answer(ask, "deny", "ask-limit")
        self.assertDenialNames(other.read_response(), "ask-limit", "limited.test",
                               "was denied (ask-limit)")
        proxy.wait_event(event="close", host="limited.test", reason="ask-limit", asked=True,
                         answer="deny", bytes_up=0, bytes_down=0)

    def test_an_unanswered_question_is_denied_at_the_timeout(self):
        proxy = self.asking_proxy("--ask-timeout", "1.5")
        started = time.monotonic()
        client = self.send_connect(proxy, "waiting.test", 443)
        (ask,) = proxy.wait_event(event="ask")
        response = client.read_response("CONNECT")
        waited = time.monotonic() - started
        self.assertDenialNames(response, "no-answer", "waiting.test",
                               "got no answer from the user within --ask-timeout (1.5 s)")
        self.assertGreaterEqual(waited, 1.4, "denied before the timeout")
        self.assertLess(waited, 10, "denied long after the timeout")
        proxy.wait_event(event="decision", host="waiting.test", reason="no-answer", asked=True,
                         answer="deny", status=403)
        # an answer that comes too late is ignored with a warning
        proxy.answer(ask, "turn")
        proxy.wait_event(event="warning", message="ignored the answer to question %d: no such "
                                                  "question is waiting" % ask["id"])
        late = raw_request(proxy.port, absolute_get("waiting.test"))
        self.assertEqual(late.status, 403, "a late answer allowed the host")
        self.assertEqual(len(proxy.events_named("ask")), 2)

    def test_requests_for_the_same_host_and_port_share_one_question(self):
        proxy = self.asking_proxy("--allow-loopback")
        first = self.send_connect(proxy)
        (ask,) = proxy.wait_event(event="ask")
        second = self.send_connect(proxy)
        third = self.send_get(proxy)  # also localhost:<port>
        self.assertHeld(second)
        self.assertHeld(third)
        self.assertEqual(len(proxy.events_named("ask")), 1, "a second question for one host:port")
        # another port is another question
        other_port = self.send_connect(proxy, port=1)
        proxy.wait_event(event="ask", port=1)
        proxy.answer(ask, "once")
        self.tunnel_echo(first)
        self.tunnel_echo(second)
        response = third.read_response()
        self.assertEqual((response.status, response.body), (200, b"hello from upstream\n"))
        # The log reaches this test on its own pipe, after the response may have.
        proxy.wait_event(event="decision", asked=True, answer="once", count=3)
        self.assertEqual(len(proxy.decisions(asked=True, answer="once")), 3)
        self.assertHeld(other_port)

    def test_500_unlisted_hosts_ask_at_most_the_limit(self):
        limit, count = 20, 500
        proxy = self.asking_proxy("--ask-limit", str(limit))
        hosts = ["host%d.test" % i for i in range(count)]
        clients = {host: self.send_connect(proxy, host, 443) for host in hosts}
        proxy.wait_event(event="decision", reason="ask-limit", count=count - limit)
        asks = proxy.events_named("ask")
        self.assertEqual(len(asks), limit, "questions beyond --ask-limit were asked")
        asked = {ask["host"] for ask in asks}
        for host, client in clients.items():
            if host in asked:
                self.assertFalse(client.wait_readable(0), "a question within the limit was "
                                                          "answered")
                continue
            response = client.read_response("CONNECT")
            self.assertRefused(response, 403, "ask-limit")
            self.assertIn("--ask-limit (%d) questions already wait" % limit,
                          response.body.decode())
        self.assertEqual(len(proxy.events_named("ask")), limit)
        # an answered question frees its place
        proxy.answer(asks[0], "deny")
        self.assertRefused(clients[asks[0]["host"]].read_response("CONNECT"), 403, "user-denied")
        after = self.send_connect(proxy, "after.test", 443)
        proxy.wait_event(event="ask", host="after.test")
        self.assertHeld(after)

    def test_held_requests_do_not_delay_other_connections(self):
        proxy = self.asking_proxy("--allow", "localhost", "--ask-limit", "100")
        held = [self.send_connect(proxy, "held%d.test" % i, 443) for i in range(50)]
        asks = proxy.wait_event(event="ask", count=50)
        # answering one reads the answer channel: the loop must go on serving after it
        proxy.answer(asks[0], "deny")
        self.assertRefused(held[0].read_response("CONNECT"), 403, "user-denied")
        timings = []
        for _ in range(20):
            started = time.monotonic()
            result = curl(self.upstream.url("/hello", host="localhost"), proxy_port=proxy.port,
                          timeout=5)
            timings.append(time.monotonic() - started)
            self.assertEqual((result.status, result.body), (200, b"hello from upstream\n"),
                             result.stderr)
        tunnel = self.send_connect(proxy)
        self.tunnel_echo(tunnel)
        self.assertLess(max(timings), 2.0, "an allowed request waited behind held ones: %r"
                        % timings)
        for client in held[1:]:
            self.assertFalse(client.wait_readable(0), "a held request was answered")

    def test_an_approved_host_still_passes_every_other_check(self):
        proxy = self.asking_proxy("--deny-private", "--deny", "blocked.test")
        client = self.send_get(proxy)  # localhost: loopback, refused by --deny-private
        (ask,) = proxy.wait_event(event="ask")
        proxy.answer(ask, "turn")
        response = client.read_response()
        self.assertRefused(response, 403, "private-address")
        self.assertEqual(response.header(HOST_HEADER), "localhost")
        proxy.wait_event(event="decision", host="localhost", reason="private-address",
                         asked=True, answer="turn")
        # allowed for the turn, and still refused on every later request
        self.assertRefused(raw_request(proxy.port, absolute_get(self.authority())), 403,
                           "private-address")
        self.assertEqual(self.upstream.recorded(), [], "an approved private address was dialled")
        # a denied host is refused at once, never asked about
        self.assertRefused(raw_request(proxy.port, absolute_get("blocked.test")), 403,
                           "host-denied")
        self.assertEqual(len(proxy.events_named("ask")), 1)

    def test_closed_stdin_denies_the_waiting_and_every_later_question(self):
        proxy = self.asking_proxy("--allow", "localhost")
        waiting = [self.send_connect(proxy, "a.test", 443), self.send_get(proxy, host="b.test")]
        proxy.wait_event(event="ask", count=2)
        proxy.close_answers()
        for client, method in zip(waiting, ("CONNECT", "GET")):
            self.assertRefused(client.read_response(method), 403, "no-answer")
        proxy.wait_event(event="decision", host="a.test", reason="no-answer", asked=True,
                         answer="deny")
        started = time.monotonic()
        later = raw_request(proxy.port, absolute_get("c.test"))
        self.assertLess(time.monotonic() - started, 5)
        self.assertDenialNames(later, "no-answer", "c.test",
                               "is not on this turn's allowlist and nobody is left to answer")
        self.assertEqual(len(proxy.events_named("ask")), 2, "asked with nobody left to answer")
        # allowed hosts are served as before
        result = curl(self.upstream.url("/hello", host="localhost"), proxy_port=proxy.port)
        self.assertEqual(result.status, 200, result.stderr)

    def test_sigterm_denies_the_waiting_questions_and_exits(self):
        proxy = self.asking_proxy("--drain-timeout", "5")
        client = self.send_connect(proxy, "waiting.test", 443)
        proxy.wait_event(event="ask")
        proxy.signal(signal.SIGTERM)
        self.assertRefused(client.read_response("CONNECT"), 403, "no-answer")
        client.close()
        self.assertEqual(proxy.wait_exit(10), 0)
        proxy.wait_event(event="close", host="waiting.test", reason="no-answer", asked=True)

    def test_without_a_pipe_on_stdin_nobody_can_answer(self):
        proxy = self.start_proxy("--ask", "--allow", "example.test")  # stdin is /dev/null
        proxy.wait_event(event="warning")
        response = raw_request(proxy.port, absolute_get("unlisted.test"))
        self.assertRefused(response, 403, "no-answer")
        self.assertIn("arizukoctl network allow <folder> unlisted.test", response.body.decode())
        self.assertEqual(proxy.events_named("ask"), [])

    def test_malformed_answer_lines_are_logged_and_ignored(self):
        proxy = self.asking_proxy("--allow-loopback")
        client = self.send_get(proxy)
        (ask,) = proxy.wait_event(event="ask")
        for line in ("not json", '{"id":%d,"answer":"always"}' % ask["id"],
                     '{"id":%d,"answer":"once","reason":"user-denied"}' % ask["id"],
                     '{"id":%d}' % ask["id"], "x" * 10000):
            proxy.send_answer_line(line)
        proxy.answer(ask["id"] + 1000, "once")
        warnings = proxy.wait_event(event="warning", count=6)
        self.assertTrue(all("ignored" in w["message"] for w in warnings), warnings)
        self.assertHeld(client)
        proxy.answer(ask, "once")
        self.assertEqual(client.read_response().status, 200)

    def test_a_held_client_that_leaves_is_logged_and_its_question_stays(self):
        proxy = self.asking_proxy("--allow-loopback")
        client = self.send_get(proxy)
        (ask,) = proxy.wait_event(event="ask")
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        client.close()  # a reset
        proxy.wait_event(event="close", host="localhost", decision="deny", reason="no-answer",
                         asked=True)
        # the user's answer still counts for the turn
        proxy.answer(ask, "turn")
        result = curl(self.upstream.url("/hello", host="localhost"), proxy_port=proxy.port)
        self.assertEqual(result.status, 200, result.stderr)
        self.assertEqual(len(proxy.events_named("ask")), 1)

    def test_without_ask_an_unlisted_host_is_refused_with_how_to_allow_it(self):
        proxy = self.start_proxy("--allow", "example.test", "--folder", "my folder")
        response = raw_request(proxy.port, absolute_get("unlisted.test", "/p?q=1"))
        self.assertRefused(response, 403, "host-not-allowed")
        self.assertEqual(response.header(HOST_HEADER), "unlisted.test")
        self.assertEqual(response.body.decode().rstrip("\n"),
                         "arizuko-egress: host-not-allowed: unlisted.test is not on this turn's "
                         "allowlist. " + hint("unlisted.test", "'my folder'"))
        proxy.wait_event(event="decision", host="unlisted.test", path="/p",
                         reason="host-not-allowed")
        self.assertEqual(proxy.events_named("ask"), [])
        self.assertNotIn("asked", proxy.decisions()[0])


if __name__ == "__main__":
    main()
