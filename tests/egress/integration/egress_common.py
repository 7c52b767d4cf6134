"""Constants and small helpers shared by the arizuko-egress integration tests."""

import hashlib
import os
import random
import socket

LOOPBACK = "127.0.0.1"
OTHER_LOOPBACK = "127.0.0.2"
THIRD_LOOPBACK = "127.0.0.3"
REASON_HEADER = "x-arizuko-egress-reason"

# The machine has 2 shared cores and other suites run beside us: waits are
# generous, but every one of them is bounded.
START_TIMEOUT = 20.0
IO_TIMEOUT = 30.0
BULK_TIMEOUT = 180.0


def clean_environment(extra=None):
    """The caller's environment without proxy settings that would reroute curl
    or EGRESS_* variables that would change the proxy under test."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("EGRESS_") and not key.lower().endswith("_proxy")
    }
    env.update(extra or {})
    return env


def pattern_bytes(size, seed=0):
    """Deterministic incompressible bytes, so a transfer can be checked by hash."""
    return random.Random(size * 7919 + seed).randbytes(size)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def unused_port():
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def recv_exactly(connection, size):
    chunks, left = [], size
    while left:
        chunk = connection.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("peer closed with %d of %d bytes unread" % (left, size))
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv_to_eof(connection):
    chunks = []
    while True:
        chunk = connection.recv(1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
