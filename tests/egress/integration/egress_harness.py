"""Test base and entry point for the arizuko-egress integration tests.

Each test file drives the real proxy binary, real curl and real loopback
sockets; everything a test starts is torn down even when it fails.

The exit status tells CTest what happened, never more
(tests/support/unittest_outcome.py): a skip is never a pass.
"""

import os
import subprocess
import sys
import tempfile
import unittest

import unittest_outcome  # tests/support, on PYTHONPATH for every test
from egress_clients import RawClient
from egress_common import IO_TIMEOUT, LOOPBACK, REASON_HEADER
from egress_process import Proxy, set_egress_binary
from egress_upstreams import TlsCertificate, UpstreamHttp, UpstreamTcp


# Set in the environment of a test file re-run inside its own network namespace.
_IN_NAMESPACE = "ARIZUKO_EGRESS_IT_NETNS"
_UNSHARE_COMMANDS = (["unshare", "--net"], ["unshare", "--user", "--map-root-user", "--net"])


def main(private_network=False):
    """unittest.main() after taking `--egress PATH` (given by CMake) off argv.

    With `private_network`, the file runs in a network namespace of its own
    (loopback only, IPv4 and IPv6) when one can be made: as root, or through
    an unprivileged user namespace. Otherwise it runs on the host's network;
    see `in_private_network()`."""
    args = sys.argv[1:]
    if "--egress" not in args:
        sys.exit("usage: %s --egress PATH [unittest args]" % sys.argv[0])
    at = args.index("--egress")
    binary = args[at + 1]
    del args[at : at + 2]
    if not os.access(binary, os.X_OK):
        sys.exit("not an executable: %s" % binary)
    if private_network:
        _enter_private_network()
    set_egress_binary(binary)
    unittest_outcome.run([sys.argv[0]] + args)


def in_private_network():
    """Whether this process runs in the network namespace main() made."""
    return os.environ.get(_IN_NAMESPACE) == "1"


def _enter_private_network():
    """Re-run this file under unshare(1) in a new network namespace and bring
    its loopback up; stays on the host network when no namespace can be made."""
    if in_private_network():
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=30)
        return
    for command in _UNSHARE_COMMANDS:
        try:
            probe = subprocess.run(command + ["true"], capture_output=True, timeout=30)
        except OSError:
            return  # no unshare(1)
        if probe.returncode == 0:
            env = dict(os.environ, **{_IN_NAMESPACE: "1"})
            sys.stdout.flush()
            sys.stderr.flush()
            os.execvpe(command[0], command + [sys.executable] + sys.argv, env)
    sys.stderr.write("note: no network namespace could be made here; running on the host network\n")


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

    def start_proxy(
        self, *flags, env=None, ready=True, listen=LOOPBACK + ":0", answers=False, pass_fds=()
    ):
        """The proxy with `flags`; `listen=None` leaves --listen off the command
        line (to set it through EGRESS_LISTEN); `answers` gives it a stdin pipe
        to answer its questions on (--ask); `pass_fds` it inherits."""
        proxy = Proxy(flags, env, listen, answers, pass_fds)
        self._proxies.append(proxy)
        self.addCleanup(proxy.close)
        if ready:
            proxy.wait_ready()
        else:
            proxy.wait_listening()
        return proxy

    def write_list(self, text):
        """A host list file (--allow-file, --deny-file) that lives as long as the test."""
        scratch = tempfile.TemporaryDirectory(prefix="egress-it-list-")
        self.addCleanup(scratch.cleanup)
        path = os.path.join(scratch.name, "list")
        with open(path, "w") as f:
            f.write(text)
        return path

    def start_upstream(self, require_ipv6=False):
        server = UpstreamHttp(require_ipv6=require_ipv6)
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
        # Cleanups run last-in first-out: the handlers' errors are read only
        # after close() has waited for every handler to finish.
        self.addCleanup(lambda: self.assertEqual(server.errors, [], "upstream handler failed"))
        self.addCleanup(server.close)
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
