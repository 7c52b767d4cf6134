"""Who and what arizuko-egress lets through: allow/deny lists, the client pin,
private addresses and the documented refusals for each."""

import os
import socket
import time

from egress_clients import absolute_get, curl, raw_request
from egress_common import LOOPBACK, OTHER_LOOPBACK, START_TIMEOUT, unused_port
from egress_harness import EgressTestCase, main


class PolicyTest(EgressTestCase):
    def setUp(self):
        self.upstream = self.start_upstream()

    def curl_localhost(self, proxy):
        return curl(self.upstream.url("/hello", host="localhost"), proxy_port=proxy.port)

    def authority(self, host):
        return "%s:%d" % (host, self.upstream.port)

    def test_host_not_on_allowlist_is_refused_over_http(self):
        proxy = self.start_proxy("--allow", "example.test")
        result = curl("http://blocked.invalid/secret", proxy_port=proxy.port)
        self.assertRefused(result, 403, "host-not-allowed")
        proxy.wait_event(event="decision", host="blocked.invalid", decision="deny",
                         reason="host-not-allowed", status=403)

    def test_host_not_on_allowlist_is_refused_over_connect(self):
        proxy = self.start_proxy("--allow", "example.test")
        client = self.raw_client(proxy.port)
        self.assertRefused(client.connect_tunnel("blocked.invalid", 443), 403, "host-not-allowed")
        self.assertTrue(client.is_closed_by_peer(), "refusal did not close the connection")
        # curl reports the refused tunnel as a failure, not as a response
        result = curl("https://blocked.invalid/", proxy_port=proxy.port)
        self.assertNotEqual(result.exit_code, 0)
        self.assertEqual(result.heads[0][0] if result.heads else None, 403, result.stderr)

    def test_lookalike_of_an_allowed_name_is_refused(self):
        proxy = self.start_proxy("--allow", "example.test")
        response = raw_request(proxy.port, absolute_get("evilexample.test"))
        self.assertRefused(response, 403, "host-not-allowed")

    def test_numeric_names_a_resolver_would_read_as_addresses_are_bad_requests(self):
        proxy = self.start_proxy("--allow-all")
        # every one of these is 127.0.0.1 to getaddrinfo, so a miss stays on loopback
        for host in ("127.1", "0x7f.0.0.1", "2130706433"):
            with self.subTest(host=host):
                self.assertRefused(
                    raw_request(proxy.port, absolute_get(self.authority(host), "/hello")),
                    400, "bad-request",
                )
        self.assertEqual(self.upstream.recorded(), [], "a numeric alias reached the upstream")

    def test_denied_host_is_refused_even_with_allow_all(self):
        proxy = self.start_proxy("--allow-all", "--deny", "localhost")
        refused = self.curl_localhost(proxy)
        self.assertRefused(refused, 403, "host-denied")
        # allow-all is in force for everything not denied
        served = curl(self.upstream.url("/hello"), proxy_port=proxy.port)
        self.assertEqual(served.status, 200, served.stderr)
        self.assertEqual(served.body, b"hello from upstream\n")
        self.assertEqual(len(self.upstream.recorded()), 1)

    def test_deny_wins_over_an_allow_and_covers_subdomains(self):
        proxy = self.start_proxy("--allow", "localhost,example.test", "--deny", "localhost",
                                 "--deny", "api.example.test")
        self.assertRefused(
            raw_request(proxy.port, absolute_get(self.authority("localhost"), "/hello")),
            403, "host-denied",
        )
        self.assertRefused(raw_request(proxy.port, absolute_get("deep.api.example.test")),
                           403, "host-denied")
        self.assertEqual(self.upstream.recorded(), [])

    def test_empty_allowlist_warns_and_denies_everything(self):
        proxy = self.start_proxy()
        proxy.wait_event(event="warning")
        self.assertRefused(
            raw_request(proxy.port, absolute_get(self.authority(LOOPBACK), "/hello")),
            403, "host-not-allowed",
        )
        self.assertRefused(
            raw_request(proxy.port, absolute_get(self.authority("localhost"), "/hello")),
            403, "host-not-allowed",
        )
        self.assertEqual(self.upstream.recorded(), [])

    def test_list_files_add_entries_with_comments(self):
        allow = self.write_list(
            "# allowed for this turn\n\nexample.test\n  localhost  \n%s\n" % LOOPBACK)
        deny = self.write_list("# never\nlocalhost\n")
        proxy = self.start_proxy("--allow-file", allow, "--deny-file", deny)
        served = curl(self.upstream.url("/hello"), proxy_port=proxy.port)
        self.assertEqual(served.status, 200, served.stderr)
        self.assertRefused(self.curl_localhost(proxy), 403, "host-denied")
        self.assertRefused(raw_request(proxy.port, absolute_get("allowed.invalid")), 403,
                           "host-not-allowed")

    def test_invalid_list_file_entry_exits_2(self):
        proxy = self.start_proxy("--allow-file", self.write_list("github.com\nnot a host\n"),
                                 ready=False)
        self.assertEqual(proxy.wait_exit(START_TIMEOUT), 2, proxy.log_text())
        self.assertIn("--allow-file", "\n".join(proxy.lines))
        self.assertEqual(proxy.events_named("ready"), [])

    def test_missing_list_file_fails_closed(self):
        missing = os.path.join(os.path.dirname(self.write_list("")), "missing")
        proxy = self.start_proxy("--deny-file", missing, "--allow-all", ready=False)
        self.assertNotIn(proxy.wait_exit(START_TIMEOUT), (0, None), proxy.log_text())
        self.assertIn("--deny-file", "\n".join(proxy.lines))
        self.assertEqual(proxy.events_named("ready"), [])

    def test_peer_other_than_client_is_refused(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--client", LOOPBACK)
        refused = curl(self.upstream.url("/hello"), "--interface", OTHER_LOOPBACK,
                       proxy_port=proxy.port)
        self.assertRefused(refused, 403, "client-not-allowed")
        self.assertEqual(self.upstream.recorded(), [])
        proxy.wait_event(event="decision", client=OTHER_LOOPBACK, decision="deny",
                         reason="client-not-allowed")

        served = curl(self.upstream.url("/hello"), "--interface", LOOPBACK, proxy_port=proxy.port)
        self.assertEqual(served.status, 200, served.stderr)
        self.assertEqual(served.body, b"hello from upstream\n")

    def test_peer_other_than_client_is_refused_a_tunnel(self):
        proxy = self.start_proxy("--allow", LOOPBACK, "--client", LOOPBACK)
        client = self.raw_client(proxy.port, source=OTHER_LOOPBACK)
        self.assertRefused(client.connect_tunnel(LOOPBACK, self.upstream.port), 403,
                           "client-not-allowed")

    def test_localhost_allowed_by_name_reaches_the_local_server(self):
        proxy = self.start_proxy("--allow", "localhost")
        result = self.curl_localhost(proxy)
        self.assertEqual(result.status, 200, result.stderr)
        self.assertEqual(result.body, b"hello from upstream\n")

    def test_deny_private_refuses_loopback_resolution(self):
        proxy = self.start_proxy("--allow", "localhost," + LOOPBACK, "--deny-private")
        self.assertRefused(self.curl_localhost(proxy), 403, "private-address")
        self.assertRefused(curl(self.upstream.url("/hello"), proxy_port=proxy.port),
                           403, "private-address")
        client = self.raw_client(proxy.port)
        self.assertRefused(client.connect_tunnel("localhost", self.upstream.port), 403,
                           "private-address")
        self.assertEqual(self.upstream.recorded(), [])

    def test_allow_loopback_lifts_deny_private_for_loopback(self):
        proxy = self.start_proxy("--allow", "localhost", "--deny-private", "--allow-loopback")
        result = self.curl_localhost(proxy)
        self.assertEqual(result.status, 200, result.stderr)
        self.assertEqual(result.body, b"hello from upstream\n")

    def test_ip_literal_is_allowed_only_by_the_identical_literal(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        served = curl(self.upstream.url("/hello"), proxy_port=proxy.port)
        self.assertEqual(served.status, 200, served.stderr)
        # the literal does not allow the name that resolves to it
        self.assertRefused(self.curl_localhost(proxy), 403, "host-not-allowed")

        for entry in ("localhost", "0.0.1", "0.1", "127.0.0.10"):
            with self.subTest(entry=entry):
                proxy = self.start_proxy("--allow", entry)
                self.assertRefused(curl(self.upstream.url("/hello"), proxy_port=proxy.port),
                                   403, "host-not-allowed")
        self.assertEqual(len(self.upstream.recorded()), 1)

    def test_allowed_name_that_does_not_resolve_is_a_bad_gateway(self):
        proxy = self.start_proxy("--allow", "nonexistent.invalid")
        self.assertRefused(curl("http://nonexistent.invalid/", proxy_port=proxy.port),
                           502, "resolve-failed")
        client = self.raw_client(proxy.port)
        self.assertRefused(client.connect_tunnel("nonexistent.invalid", 443), 502, "resolve-failed")

    def test_allowed_host_with_a_closed_port_is_a_bad_gateway(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        closed = unused_port()
        self.assertRefused(curl("http://%s:%d/" % (LOOPBACK, closed), proxy_port=proxy.port),
                           502, "connect-failed")
        client = self.raw_client(proxy.port)
        self.assertRefused(client.connect_tunnel(LOOPBACK, closed), 502, "connect-failed")
        proxy.wait_event(event="decision", port=closed, reason="connect-failed")

    def test_upstream_connect_that_hangs_is_a_gateway_timeout(self):
        listener = self.listener_with_full_backlog()
        port = listener.getsockname()[1]
        proxy = self.start_proxy("--allow", LOOPBACK, "--connect-timeout", "1")
        started = time.monotonic()
        client = self.raw_client(proxy.port)
        self.assertRefused(client.connect_tunnel(LOOPBACK, port), 504, "connect-timeout")
        waited = time.monotonic() - started
        self.assertGreaterEqual(waited, 0.9, "gave up before --connect-timeout 1")
        # the default is 10 s: a proxy ignoring the flag answers far later
        self.assertLess(waited, 6, "504 long after --connect-timeout 1")
        self.assertRefused(curl("http://%s:%d/" % (LOOPBACK, port), proxy_port=proxy.port),
                           504, "connect-timeout")
        proxy.wait_event(event="decision", port=port, reason="connect-timeout", status=504,
                         count=2)

    def listener_with_full_backlog(self):
        """A loopback listener that never accepts and whose queue is full, so a
        further connect hangs. Linux drops a SYN to a listener whose accept
        queue is full, so this holds wherever the proxy runs; if it does not,
        the fixture fails loudly rather than the test being skipped."""
        listener = socket.socket()
        self.addCleanup(listener.close)
        listener.bind((LOOPBACK, 0))
        listener.listen(0)
        address = listener.getsockname()
        for _ in range(8):
            probe = socket.socket()
            self.addCleanup(probe.close)
            probe.settimeout(1)
            try:
                probe.connect(address)
            except TimeoutError:
                return listener
        raise AssertionError("fixture: 8 connects to a loopback listener that never accepts "
                             "were all answered; no upstream connect can be made to hang")


if __name__ == "__main__":
    main()
