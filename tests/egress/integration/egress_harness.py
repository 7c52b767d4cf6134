"""Test base and entry point for the arizuko-egress integration tests.

Each test file drives the real proxy binary, real curl and real loopback
sockets; everything a test starts is torn down even when it fails.
"""

import os
import sys
import unittest

from egress_clients import RawClient
from egress_common import IO_TIMEOUT, REASON_HEADER
from egress_process import Proxy, set_egress_binary
from egress_upstreams import TlsCertificate, UpstreamHttp, UpstreamTcp


def main():
    """unittest.main() after taking `--egress PATH` (given by CMake) off argv."""
    args = sys.argv[1:]
    if "--egress" not in args:
        sys.exit("usage: %s --egress PATH [unittest args]" % sys.argv[0])
    at = args.index("--egress")
    binary = args[at + 1]
    del args[at : at + 2]
    if not os.access(binary, os.X_OK):
        sys.exit("not an executable: %s" % binary)
    set_egress_binary(binary)
    unittest.main(argv=[sys.argv[0]] + args, verbosity=2)


class EgressTestCase(unittest.TestCase):
    """Starts proxies and servers that are torn down even when a test fails,
    and prints the proxy's log when it does."""

    def run(self, result=None):
        self._proxies = []
        result = result if result is not None else self.defaultTestResult()
        before = len(result.failures) + len(result.errors)
        super().run(result)
        if len(result.failures) + len(result.errors) > before:
            for proxy in self._proxies:
                sys.stderr.write(proxy.log_text() + "\n")
        return result

    def start_proxy(self, *flags, env=None, ready=True):
        proxy = Proxy(flags, env)
        self._proxies.append(proxy)
        self.addCleanup(proxy.close)
        if ready:
            proxy.wait_ready()
        else:
            proxy.wait_listening()
        return proxy

    def start_upstream(self):
        server = UpstreamHttp()
        self.addCleanup(server.close)
        return server

    def start_tls_upstream(self):
        certificate = TlsCertificate()
        self.addCleanup(certificate.close)
        server = UpstreamHttp(certificate.server_context())
        self.addCleanup(server.close)
        return server, certificate

    def start_tcp_upstream(self, handle):
        server = UpstreamTcp(handle)
        self.addCleanup(server.close)
        self.addCleanup(lambda: self.assertEqual(server.errors, [], "upstream handler failed"))
        return server

    def raw_client(self, port, source=None, timeout=IO_TIMEOUT):
        client = RawClient(port, source, timeout)
        self.addCleanup(client.close)
        return client

    def assertRefused(self, response, status, reason):
        """The documented refusal: status, reason header and the one-line body
        `arizuko-egress: <reason>: <detail>`."""
        self.assertEqual(response.status, status, response)
        self.assertEqual(response.header(REASON_HEADER), reason, response)
        body = response.body.decode("utf-8", "replace")
        self.assertTrue(
            body.startswith("arizuko-egress: %s: " % reason),
            "body %r does not name %s" % (body, reason),
        )
        self.assertNotIn("\n", body.rstrip("\r\n"), "body is not one line: %r" % body)
        prefix = "arizuko-egress: %s: " % reason
        self.assertGreater(len(body.rstrip("\r\n")), len(prefix), "no detail")
