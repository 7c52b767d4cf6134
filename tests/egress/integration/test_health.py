"""The /health endpoint of arizuko-egress: ready vs starting, answered to any
peer in origin form, ordinary traffic in absolute form."""

import errno
import json
import os
import tempfile
import time

from egress_clients import absolute_get, curl, raw_request
from egress_common import LOOPBACK, OTHER_LOOPBACK, START_TIMEOUT
from egress_harness import EgressTestCase, main

HEALTH = b"GET /health HTTP/1.1\r\nHost: egress\r\n\r\n"


class HealthTest(EgressTestCase):
    def assertHealth(self, response, status, state):
        self.assertEqual(response.status, status, response)
        self.assertEqual(json.loads(response.body), {"status": state})

    def test_health_is_ok_when_ready(self):
        proxy = self.start_proxy("--allow", LOOPBACK)
        result = curl("http://%s:%d/health" % (LOOPBACK, proxy.port))
        self.assertEqual(result.exit_code, 0, result.stderr)
        self.assertHealth(result, 200, "ok")

    def test_health_is_answered_to_a_peer_that_is_not_the_client(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK, "--client", OTHER_LOOPBACK)
        self.assertHealth(raw_request(proxy.port, HEALTH, source=LOOPBACK), 200, "ok")
        # the pin is in force for traffic from that same peer
        refused = raw_request(proxy.port, absolute_get("%s:%d" % (LOOPBACK, upstream.port)),
                              source=LOOPBACK)
        self.assertRefused(refused, 403, "client-not-allowed")

    def test_health_is_starting_until_the_allow_file_is_loaded(self):
        upstream = self.start_upstream()
        fifo = self._make_fifo()
        # The proxy blocks on the FIFO until we write it, so it stays "starting".
        proxy = self.start_proxy("--allow-file", fifo, ready=False)

        self.assertHealth(raw_request(proxy.port, HEALTH), 503, "starting")
        self.assertRefused(
            raw_request(proxy.port, absolute_get("%s:%d" % (LOOPBACK, upstream.port))),
            503, "starting",
        )
        self.assertEqual(proxy.decisions(decision="allow"), [])

        writer = self._open_fifo_writer(fifo)
        with os.fdopen(writer, "w") as f:
            f.write("# written by the test\n%s\n\nlocalhost\n" % LOOPBACK)
        proxy.wait_event(event="ready")

        self.assertHealth(raw_request(proxy.port, HEALTH), 200, "ok")
        for host in (LOOPBACK, "localhost"):
            with self.subTest(host=host):
                served = curl(upstream.url("/hello", host=host), proxy_port=proxy.port)
                self.assertEqual(served.status, 200, served.stderr)
                self.assertEqual(served.body, b"hello from upstream\n")
        self.assertRefused(raw_request(proxy.port, absolute_get("other.invalid")),
                           403, "host-not-allowed")

    def test_health_answers_a_peer_that_is_not_the_client_while_starting_and_after(self):
        upstream = self.start_upstream()
        fifo = self._make_fifo()
        proxy = self.start_proxy("--client", OTHER_LOOPBACK, "--allow-file", fifo, ready=False)
        target = absolute_get("%s:%d" % (LOOPBACK, upstream.port), "/hello")

        # LOOPBACK is not the client: /health still answers it, "starting" ...
        self.assertHealth(raw_request(proxy.port, HEALTH, source=LOOPBACK), 503, "starting")
        # ... while its traffic meets the client check first, and the client's
        # traffic waits for the lists
        self.assertRefused(raw_request(proxy.port, target, source=LOOPBACK),
                           403, "client-not-allowed")
        self.assertRefused(raw_request(proxy.port, target, source=OTHER_LOOPBACK),
                           503, "starting")

        writer = self._open_fifo_writer(fifo)
        with os.fdopen(writer, "w") as f:
            f.write("%s\n" % LOOPBACK)
        proxy.wait_event(event="ready")

        self.assertHealth(raw_request(proxy.port, HEALTH, source=LOOPBACK), 200, "ok")
        self.assertRefused(raw_request(proxy.port, target, source=LOOPBACK),
                           403, "client-not-allowed")
        served = raw_request(proxy.port, target, source=OTHER_LOOPBACK)
        self.assertEqual(served.status, 200, served)
        self.assertEqual(len(upstream.recorded()), 1)

    def _make_fifo(self):
        """A FIFO to pass as --allow-file: the proxy stays "starting" until
        the test writes it."""
        scratch = tempfile.TemporaryDirectory(prefix="egress-it-fifo-")
        self.addCleanup(scratch.cleanup)
        fifo = os.path.join(scratch.name, "allow")
        os.mkfifo(fifo)
        return fifo

    def _open_fifo_writer(self, fifo):
        """Open the FIFO for writing once the proxy has it open for reading."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno != errno.ENXIO or time.monotonic() > deadline:
                    raise AssertionError("the proxy never opened its --allow-file FIFO") from error
                time.sleep(0.05)
                continue
            os.set_blocking(writer, True)
            return writer

    def test_absolute_form_health_is_ordinary_traffic(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow", LOOPBACK)
        self.assertRefused(raw_request(proxy.port, absolute_get("x", "/health")), 403,
                           "host-not-allowed")
        authority = "%s:%d" % (LOOPBACK, upstream.port)
        forwarded = raw_request(proxy.port, absolute_get(authority, "/health"))
        self.assertEqual(forwarded.status, 200)
        self.assertEqual(forwarded.body, b"GET /health\n", "not answered by the upstream")
        self.assertEqual(len(upstream.recorded("/health")), 1)


if __name__ == "__main__":
    main()
