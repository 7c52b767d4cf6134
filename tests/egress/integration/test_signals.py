"""SIGTERM/SIGINT on arizuko-egress: stop accepting, drain open connections
for at most --drain-timeout, exit 0."""

import signal
import socket
import time

from egress_clients import absolute_get
from egress_common import LOOPBACK, pattern_bytes, sha256
from egress_harness import EgressTestCase, main

MARGIN = 5.0  # scheduling slack on a loaded machine


def new_connection_is_served(port):
    """Whether a fresh connection gets an answer to GET /health within 2s."""
    try:
        connection = socket.create_connection((LOOPBACK, port), timeout=2)
    except OSError:
        return False  # refused: the listener is gone
    with connection:
        try:
            connection.sendall(b"GET /health HTTP/1.1\r\nHost: egress\r\n\r\n")
            return connection.recv(64).startswith(b"HTTP/1.1 ")
        except OSError:
            return False


class SignalsTest(EgressTestCase):
    def open_drip_tunnel(self, proxy, upstream, size, seconds):
        tunnel = self.raw_client(proxy.port)
        self.assertEqual(tunnel.connect_tunnel(LOOPBACK, upstream.port).status, 200)
        tunnel.send(b"GET /drip/%d/%g HTTP/1.1\r\nHost: %s:%d\r\n\r\n"
                    % (size, seconds, LOOPBACK.encode(), upstream.port))
        status, _, headers = tunnel.read_head()
        self.assertEqual(status, 200)
        self.assertEqual(int(headers["content-length"][0]), size)
        return tunnel

    def test_sigterm_drains_a_flowing_tunnel_and_exits_0(self):
        upstream = self.start_upstream()
        drain = 10
        proxy = self.start_proxy("--allow", LOOPBACK, "--drain-timeout", str(drain))
        size, seconds = 2 * 1024 * 1024, 3.0
        tunnel = self.open_drip_tunnel(proxy, upstream, size, seconds)
        first = tunnel.read_exactly(1)  # data is flowing

        signalled = time.monotonic()
        proxy.signal(signal.SIGTERM)
        proxy.wait_event(event="draining", signal=signal.SIGTERM, open_connections=1)
        deadline = signalled + 3
        while new_connection_is_served(proxy.port):
            self.assertLess(time.monotonic(), deadline, "still accepting 3s after SIGTERM")
            time.sleep(0.1)

        rest = tunnel.read_exactly(size - 1)
        self.assertEqual(sha256(first + rest), sha256(pattern_bytes(size)), "tunnel cut short")
        self.assertIsNone(proxy.process.poll(), "exited before the open tunnel finished")
        tunnel.close()

        status = proxy.wait_exit(signalled + drain + MARGIN - time.monotonic())
        self.assertEqual(status, 0, "exit status after SIGTERM (None: still running)")

    def test_drain_timeout_bounds_the_wait_for_an_idle_tunnel(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK, "--drain-timeout", "1")
        tunnel = self.raw_client(proxy.port)
        self.assertEqual(tunnel.connect_tunnel(LOOPBACK, upstream.port).status, 200)

        signalled = time.monotonic()
        proxy.signal(signal.SIGTERM)
        status = proxy.wait_exit(1 + MARGIN)
        self.assertEqual(status, 0, "exit status after SIGTERM (None: still running)")
        self.assertGreaterEqual(time.monotonic() - signalled, 0.9,
                                "exited without letting the open tunnel drain")
        self.assertTrue(tunnel.is_closed_by_peer(5), "tunnel left open after exit")

    def test_connection_waiting_between_requests_closes_at_once(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK, "--drain-timeout", "30")
        client = self.raw_client(proxy.port)
        client.send(absolute_get("%s:%d" % (LOOPBACK, upstream.port), "/hello"))
        self.assertEqual(client.read_response().status, 200)

        signalled = time.monotonic()
        proxy.signal(signal.SIGTERM)
        self.assertTrue(client.is_closed_by_peer(MARGIN), "kept-alive connection held open")
        self.assertEqual(proxy.wait_exit(MARGIN), 0)
        self.assertLess(time.monotonic() - signalled, MARGIN, "waited for the drain timeout")

    def test_sigint_exits_0_when_idle(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        proxy.signal(signal.SIGINT)
        self.assertEqual(proxy.wait_exit(5 + MARGIN), 0)


if __name__ == "__main__":
    main()
