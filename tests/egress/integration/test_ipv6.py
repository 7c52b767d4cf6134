"""IPv6 through arizuko-egress: a bracketed literal is allowed only by its
literal, and --deny-private judges IPv6 loopback and IPv4-mapped addresses.

The file runs in a network namespace of its own where it can (see
egress_harness.main), so ::1 exists even on hosts and containers that have
IPv6 turned off; only a kernel without IPv6 makes these tests skip, and
CTest then reports them as skipped."""

import socket

from egress_clients import absolute_get, curl, raw_request
from egress_common import LOOPBACK
from egress_harness import EgressTestCase, in_private_network, main

IPV6_LOOPBACK = "::1"


def ipv6_loopback_missing():
    """Why ::1 cannot be used here, or None when it can."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind((IPV6_LOOPBACK, 0))
    except OSError as error:
        where = "in a private network namespace" if in_private_network() else "on the host network"
        return "no IPv6 loopback %s: %s" % (where, error)
    return None


class Ipv6Test(EgressTestCase):
    def setUp(self):
        missing = ipv6_loopback_missing()
        if missing:
            self.skipTest(missing)
        self.upstream = self.start_upstream(require_ipv6=True)

    def authority(self, host):
        return "%s:%d" % (host, self.upstream.port)

    def test_ipv6_literal_is_allowed_by_its_literal(self):
        proxy = self.start_proxy("--allow", IPV6_LOOPBACK)
        served = curl(self.upstream.url("/hello", host="[::1]"), proxy_port=proxy.port)
        self.assertEqual(served.status, 200, served.stderr)
        self.assertEqual(served.body, b"hello from upstream\n")
        (received,) = self.upstream.recorded("/hello")
        self.assertEqual(received.peer[0], IPV6_LOOPBACK, "not dialled over IPv6")
        client = self.raw_client(proxy.port)
        self.assertEqual(client.connect_tunnel("[::1]", self.upstream.port).status, 200)
        proxy.wait_event(event="decision", method="CONNECT", host=IPV6_LOOPBACK,
                         decision="allow")
        self.assertRefused(curl(self.upstream.url("/hello"), proxy_port=proxy.port),
                           403, "host-not-allowed")

    def test_ipv6_literal_is_not_allowed_by_other_entries(self):
        proxy = self.start_proxy("--allow", "localhost," + LOOPBACK)
        self.assertRefused(raw_request(proxy.port, absolute_get(self.authority("[::1]"), "/hello")),
                           403, "host-not-allowed")
        self.assertEqual(self.upstream.recorded(), [])

    def test_deny_private_refuses_ipv6_loopback_unless_allow_loopback(self):
        proxy = self.start_proxy("--allow", IPV6_LOOPBACK, "--deny-private")
        self.assertRefused(raw_request(proxy.port, absolute_get(self.authority("[::1]"), "/hello")),
                           403, "private-address")
        self.assertRefused(self.raw_client(proxy.port).connect_tunnel("[::1]", self.upstream.port),
                           403, "private-address")
        self.assertEqual(self.upstream.recorded(), [])

        proxy = self.start_proxy("--allow", IPV6_LOOPBACK, "--deny-private", "--allow-loopback")
        served = raw_request(proxy.port, absolute_get(self.authority("[::1]"), "/hello"))
        self.assertEqual(served.status, 200, served)
        self.assertEqual(len(self.upstream.recorded("/hello")), 1)

    def test_ipv4_mapped_address_is_judged_by_the_ipv4_address(self):
        mapped = "::ffff:" + LOOPBACK
        proxy = self.start_proxy("--allow", mapped, "--deny-private")
        self.assertRefused(
            raw_request(proxy.port, absolute_get(self.authority("[%s]" % mapped), "/hello")),
            403, "private-address",
        )
        self.assertEqual(self.upstream.recorded(), [])


if __name__ == "__main__":
    main(private_network=True)
