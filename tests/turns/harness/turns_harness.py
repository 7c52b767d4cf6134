"""Drives the real arizukoctl against the real libvirtd for the turn tests.

Every test gets its own data directory. Helpers read the store with sqlite3
and look at the host the way an administrator would (virsh, /sys/class/net,
/proc), so the assertions do not trust the engine's own account.
"""

import argparse
import datetime
import hashlib
import json
import os
import pathlib
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

import unittest_outcome  # tests/support, on PYTHONPATH for every test

ARGS = None


def parse_arguments():
    """--arizukoctl and --egress come from CMake; the rest goes to unittest."""
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--arizukoctl", required=True)
    parser.add_argument("--egress", required=True)
    # The long-lived runner of the warm-start tests (tests/turns/spare).
    parser.add_argument("--spare-driver")
    # The guest channel test's forger (tests/turns/e2e/channel_forger.c).
    parser.add_argument("--channel-forger")
    # The boot-limit test's /init, which never starts arizuko-guest.
    parser.add_argument("--silent-init")
    ARGS, rest = parser.parse_known_args()
    return [sys.argv[0]] + rest


def main():
    unittest_outcome.run(parse_arguments())


def virsh(*arguments):
    return subprocess.run(["virsh", "-q", "-c", libvirt_uri(), *arguments],
                          capture_output=True, text=True, timeout=60)


def libvirt_uri():
    return os.environ.get("ARIZUKO_LIBVIRT_URI", "qemu:///system")


def virsh_checked(*arguments):
    """virsh's output, or an AssertionError when virsh fails: an empty list
    from a libvirtd that did not answer must not read as "nothing there"."""
    result = virsh(*arguments)
    if result.returncode != 0:
        raise AssertionError(f"virsh {' '.join(arguments)} failed (exit {result.returncode}) at "
                             f"{libvirt_uri()}: {result.stderr.strip()}")
    return result.stdout


def active_domains():
    return set(virsh_checked("list", "--name").split())


def active_networks():
    return set(virsh_checked("net-list", "--name").split())


def bridge_exists(name):
    return pathlib.Path("/sys/class/net", name).exists()


def filter_binding_ports():
    lines = virsh_checked("nwfilter-binding-list").splitlines()
    return {line.split()[0] for line in lines if line.strip()}


def turn_proxy_processes():
    """(pid, turn name) of every process whose environment names a turn."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        for variable in environment:
            if variable.startswith(b"ARIZUKO_TURN="):
                found.append((int(entry.name), variable.split(b"=", 1)[1].decode()))
    return found


def leftovers(name_prefix="az-"):
    """Everything named like a turn that is still on the host. Raises when
    libvirtd does not answer, so "nothing left" is never read from silence."""
    return {
        "domains": sorted(d for d in active_domains() if d.startswith(name_prefix)),
        "networks": sorted(n for n in active_networks() if n.startswith(name_prefix)),
        "bridges": sorted(p.name for p in pathlib.Path("/sys/class/net").iterdir()
                          if p.name.startswith(name_prefix)),
        "proxies": sorted(pid for pid, turn in turn_proxy_processes() if turn.startswith(name_prefix)),
        "filter_bindings": sorted(p for p in filter_binding_ports() if p.startswith(name_prefix)),
    }


def guest_memory_holds(domain, needles, scratch_directory):
    """Which of `needles` (bytes) are in the running domain's RAM, free
    pages and page cache included: a memory-only dump that libvirtd writes
    into a file this process made (so it stays this user's to read),
    searched in pieces and deleted. The search that proves a secret never
    entered the guest; a needle the guest does hold shows that it works."""
    dump = pathlib.Path(scratch_directory, f"{domain}.memory")
    dump.touch(mode=0o600)
    try:
        virsh_checked("dump", "--memory-only", "--format", "elf", domain, str(dump))
        size = dump.stat().st_size
        if size < 64 << 20:
            raise AssertionError(f"the memory dump of {domain} is {size} bytes, not a guest's RAM")
        found = set()
        overlap = max(len(needle) for needle in needles) - 1
        with dump.open("rb") as memory:
            tail = b""
            while piece := memory.read(64 << 20):
                window = tail + piece
                found.update(needle for needle in needles if needle in window)
                tail = window[-overlap:]
        return found
    finally:
        dump.unlink(missing_ok=True)


def wait_for(predicate, timeout, interval=0.1, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Engine:
    """One data directory and the arizukoctl that works on it."""

    def __init__(self, extra_environment=None):
        self.directory = tempfile.TemporaryDirectory(prefix="arizuko-turns-test-")
        self.data_dir = os.path.join(self.directory.name, "data")
        self.environment = dict(os.environ)
        self.environment["ARIZUKO_EGRESS_BIN"] = ARGS.egress
        self.environment.setdefault("ARIZUKO_ACCELERATOR", "auto")
        self.environment.update(extra_environment or {})

    def close(self):
        self.directory.cleanup()

    def command(self, *arguments):
        return [ARGS.arizukoctl, "--data-dir", self.data_dir, *arguments]

    def run(self, *arguments, timeout=300):
        """arizukoctl to its end. When the test gives up on it (this timeout,
        the test's deadline), it is stopped as a user's Ctrl-C would, so the
        turn it runs ends its VM and proxy; killed only if that takes over a
        minute."""
        with subprocess.Popen(self.command(*arguments), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=self.environment) as process:
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except BaseException:
                process.terminate()
                try:
                    process.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                raise
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

    def start(self, *arguments, prefix=()):
        """arizukoctl in the background; `prefix` runs it through a wrapper
        (e.g. unshare), whose children (the turn's proxy) inherit it."""
        return subprocess.Popen([*prefix, *self.command(*arguments)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.environment)

    def add_folder(self, folder):
        result = self.run("folder", "add", folder)
        if result.returncode != 0:
            raise AssertionError(f"folder add {folder}: {result.stderr}")

    def database(self):
        connection = sqlite3.connect(os.path.join(self.data_dir, "arizuko.db"), timeout=10)
        connection.row_factory = sqlite3.Row
        return connection

    def turns(self):
        with self.database() as db:
            return [dict(row) for row in db.execute("SELECT * FROM turns ORDER BY queued_at")]

    def turn(self, name):
        with self.database() as db:
            row = db.execute("SELECT * FROM turns WHERE name = ?", (name,)).fetchone()
            return dict(row) if row else None

    def events(self, name):
        with self.database() as db:
            rows = db.execute(
                "SELECT e.seq, e.kind, e.json, e.at FROM turn_events e JOIN turns t ON t.id = e.turn "
                "WHERE t.name = ? ORDER BY e.seq", (name,)).fetchall()
            return [{"seq": r["seq"], "kind": r["kind"], "json": json.loads(r["json"]), "at": r["at"]}
                    for r in rows]

    def home(self, folder):
        """Where `folder list --json` says the folder's home is: the tests do
        not know the layout."""
        result = self.run("--json", "folder", "list")
        if result.returncode != 0:
            raise AssertionError(f"folder list: {result.stderr}")
        for entry in json.loads(result.stdout):
            if entry["folder"] == folder:
                return pathlib.Path(entry["home"])
        raise AssertionError(f"no folder {folder!r} in {result.stdout}")


def moment(timestamp):
    """A store timestamp (ISO 8601, UTC, "Z") as a datetime."""
    return datetime.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def set_up_engine(test_class, extra_environment=None):
    """`test_class.engine` for a class whose `_run()` drives it in
    setUpClass; the engine's directory goes if `_run()` fails, since
    tearDownClass does not run then."""
    test_class.engine = Engine(extra_environment)
    try:
        test_class._run()
    except BaseException:
        test_class.engine.close()
        raise


def turn_name_from(stderr):
    """The turn's name from arizukoctl run's "[engine] turn az-xxxxxxxx (...)" line."""
    for line in stderr.splitlines():
        if line.startswith("[engine] turn az-"):
            return line.split()[2]
    raise AssertionError(f"no turn line in:\n{stderr}")


def fake_image_directory(parent):
    """A guest image that passes the engine's checks (complete, its manifest
    naming these files and this build's arizuko-guest) but cannot boot, for
    tests that must fail before any VM starts."""
    directory = pathlib.Path(parent, "fake-image")
    directory.mkdir()
    files = {}
    for name in ("vmlinux", "initramfs.img", "root.img"):
        (directory / name).write_bytes(b"\0" * 4096)
        files[name] = {"size": 4096}
    guest = pathlib.Path(ARGS.arizukoctl).with_name("arizuko-guest")
    manifest = {"format": 1, "files": files,
                "guest": {"sha256": hashlib.sha256(guest.read_bytes()).hexdigest()}}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return str(directory)


def require_guest_image():
    """End-to-end tests need the real image; say how to build it if it is absent."""
    directory = os.environ.get("ARIZUKO_GUEST_IMAGE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "arizuko-desktop", "guest")
    missing = [n for n in ("vmlinux", "initramfs.img", "root.img", "manifest.json")
               if not os.path.isfile(os.path.join(directory, n))]
    if missing:
        raise AssertionError(f"the guest image in {directory} is missing {', '.join(missing)}: build it "
                             f"with installer/build-guest-image --guest-binary <build>/bin/arizuko-guest")
    return directory
