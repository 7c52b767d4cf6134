"""CONNECT tunnels through arizuko-egress: real TLS with curl, bulk transfers
and half-close with raw sockets."""

import socket

from egress_clients import curl
from egress_common import (
    BULK_TIMEOUT,
    IO_TIMEOUT,
    LOOPBACK,
    pattern_bytes,
    recv_exactly,
    recv_to_eof,
    sha256,
)
from egress_harness import EgressTestCase, main


class ConnectTunnelTest(EgressTestCase):
    def test_https_through_connect_body_intact(self):
        upstream, certificate = self.start_tls_upstream()
        proxy = self.start_proxy("--allow", "localhost")
        result = curl(
            upstream.url("/bytes/100000", host="localhost", scheme="https"),
            "--cacert", certificate.cert,
            proxy_port=proxy.port,
        )
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.heads[0][0], 200, "proxy CONNECT reply")
        self.assertEqual(result.status, 200)
        self.assertEqual(result.body, pattern_bytes(100000))
        proxy.wait_event(event="decision", method="CONNECT", host="localhost", port=upstream.port,
                         decision="allow", reason="allowed")

    def test_https_tens_of_mib_both_ways(self):
        upstream, certificate = self.start_tls_upstream()
        proxy = self.start_proxy("--allow", "localhost")
        size = 32 * 1024 * 1024
        download = curl(
            upstream.url("/bytes/%d" % size, host="localhost", scheme="https"),
            "--cacert", certificate.cert,
            proxy_port=proxy.port,
            timeout=BULK_TIMEOUT,
        )
        self.assertEqual(download.exit_code, 0, download.stderr)
        self.assertEqual(len(download.body), size)
        self.assertEqual(sha256(download.body), sha256(pattern_bytes(size)))

        upload = pattern_bytes(16 * 1024 * 1024, seed=3)
        echoed = curl(
            upstream.url("/echo", host="localhost", scheme="https"),
            "--cacert", certificate.cert,
            proxy_port=proxy.port,
            upload=upload,
            timeout=BULK_TIMEOUT,
        )
        self.assertEqual(echoed.exit_code, 0, echoed.stderr)
        self.assertEqual(upstream.recorded("/echo")[0].body_sha256, sha256(upload))
        self.assertEqual(sha256(echoed.body), sha256(upload))

    def test_plain_http_through_a_forced_tunnel(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK)
        result = curl(upstream.url("/bytes/4096"), "--proxytunnel", proxy_port=proxy.port)
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertEqual(result.body, pattern_bytes(4096))
        proxy.wait_event(event="decision", method="CONNECT", host=LOOPBACK, decision="allow")

    def test_half_close_still_delivers_the_full_reply(self):
        request = pattern_bytes(300000, seed=4)
        reply = pattern_bytes(2 * 1024 * 1024, seed=5)

        def answer_after_eof(connection):
            # Only the client's FIN, carried through the tunnel, ends the read.
            received = recv_to_eof(connection)
            connection.sendall(sha256(received).encode() + b"\n" + reply)
            connection.shutdown(socket.SHUT_WR)

        upstream = self.start_tcp_upstream(answer_after_eof)
        proxy = self.start_proxy("--allow", LOOPBACK)
        client = self.raw_client(proxy.port, timeout=IO_TIMEOUT)
        self.assertEqual(client.connect_tunnel(LOOPBACK, upstream.port).status, 200)
        client.send(request)
        client.sock.shutdown(socket.SHUT_WR)
        got = client.buffer + recv_to_eof(client.sock)
        digest, _, body = got.partition(b"\n")
        self.assertEqual(digest.decode(), sha256(request), "upstream did not get the whole request")
        self.assertEqual(len(body), len(reply))
        self.assertEqual(sha256(body), sha256(reply))

    def test_bytes_pass_unchanged_in_both_directions(self):
        up = pattern_bytes(5 * 1024 * 1024, seed=6)
        down = pattern_bytes(7 * 1024 * 1024, seed=7)

        def exchange(connection):
            received = recv_exactly(connection, len(up))
            if received != up:
                raise AssertionError("upstream got different bytes")
            connection.sendall(down)

        upstream = self.start_tcp_upstream(exchange)
        proxy = self.start_proxy("--allow", LOOPBACK)
        client = self.raw_client(proxy.port, timeout=BULK_TIMEOUT)
        self.assertEqual(client.connect_tunnel(LOOPBACK, upstream.port).status, 200)
        client.send(up)
        got = client.read_exactly(len(down))
        self.assertEqual(sha256(got), sha256(down))
        self.assertTrue(client.is_closed_by_peer(), "upstream close did not reach the client")


if __name__ == "__main__":
    main()
