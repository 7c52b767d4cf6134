"""arizuko-net-helper gives a normal user pretap's CAP_NET_ADMIN steps for
this app's taps and bridges only. Each call runs as the suite's normal user
(arizuko-test, in group libvirt) or as nobody (not in it); the test itself
runs as root, which it needs to switch users and to make the things the
user must not touch (a root tap, a bridge not named like a turn's)."""

import argparse
import errno
import fcntl
import grp
import os
import pathlib
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

import unittest_outcome

HELPER = None
TEST_USER = os.environ.get("ARIZUKO_TEST_USER", "arizuko-test")
REFUSED = 2


def helper_as(user, *arguments):
    return subprocess.run(["runuser", "-u", user, "--", HELPER, *arguments],
                          capture_output=True, text=True, timeout=30)


def ip(*arguments):
    subprocess.run(["ip", *arguments], check=True, capture_output=True, timeout=30)


def exists(device):
    return pathlib.Path("/sys/class/net", device).exists()


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def helper_forked(tracer):
    """Whether the helper that `tracer` (strace) started has forked the
    child it runs a program in, still held in that execve. Only that helper
    counts: turns of other tests run the same helper meanwhile."""
    parents = {}
    for stat_file in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat_file.read_text()
        except OSError:
            continue
        end = text.rindex(")")
        parents[int(stat_file.parent.name)] = (text[text.index("(") + 1:end],
                                               int(text[end + 2:].split()[1]))
    helper = "arizuko-net-hel"  # the kernel keeps 15 characters of a name
    return any(name == helper and parents.get(parent) == (helper, tracer)
               for name, parent in parents.values())


def root_makes_tap(name):
    """Makes a persistent tap as root only if no device of that name exists
    (IFF_TUN_EXCL), as `ip tuntap add` does not: it attaches to an idle tap
    someone else made and reports success. True if this call made it."""
    tun = os.open("/dev/net/tun", os.O_RDWR | os.O_CLOEXEC)
    try:
        iff_tap, iff_no_pi, iff_tun_excl = 0x0002, 0x1000, 0x8000
        request = struct.pack("16sH22x", name.encode(), iff_tap | iff_no_pi | iff_tun_excl)
        tunsetiff, tunsetpersist = 0x400454CA, 0x400454CB
        try:
            fcntl.ioctl(tun, tunsetiff, request)
        except OSError as error:
            if error.errno in (errno.EBUSY, errno.EEXIST):
                return False
            raise
        fcntl.ioctl(tun, tunsetpersist, 1)
        return True
    finally:
        os.close(tun)


def fresh(suffix=""):
    return f"az-{uuid.uuid4().hex[:8]}{suffix}"


class NetHelper(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise AssertionError("this test switches to its users with runuser: run it as root")
        capability = subprocess.run(["getcap", HELPER], capture_output=True, text=True).stdout
        if "cap_net_admin" not in capability:
            raise AssertionError(f"{HELPER} has no CAP_NET_ADMIN (getcap: {capability.strip()!r}); "
                                 f"the build gives it as root, ./dev build otherwise")

    def setUp(self):
        self.made = []

    def tearDown(self):
        for device in self.made:
            if exists(device):
                ip("link", "del", "dev", device)

    def refused(self, result, words):
        self.assertEqual(result.returncode, REFUSED, result)
        self.assertIn(words, result.stderr)

    def test_the_user_makes_attaches_and_deletes_its_own_tap(self):
        tap, bridge = fresh("-g"), fresh()
        self.made += [tap, bridge]
        ip("link", "add", bridge, "type", "bridge")
        ip("addr", "add", "192.0.2.1/30", "dev", bridge)
        made = helper_as(TEST_USER, "tap-create", tap, "123:456")
        self.assertEqual(made.returncode, 0, made)
        uid = subprocess.run(["id", "-u", TEST_USER], capture_output=True, text=True).stdout.strip()
        self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/owner").read_text().strip(), uid)
        self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/ifalias").read_text().strip(),
                         "arizuko-engine=123:456")
        attached = helper_as(TEST_USER, "tap-attach", tap, bridge)
        self.assertEqual(attached.returncode, 0, attached)
        self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/master").resolve().name, bridge)
        flushed = helper_as(TEST_USER, "conntrack-flush", bridge)
        self.assertEqual(flushed.returncode, 0, flushed)
        for table in ("iptables", "ip6tables", "ebtables"):
            listing = helper_as(TEST_USER, "filter-rules", table)
            self.assertEqual(listing.returncode, 0, listing)
            self.assertTrue(listing.stdout.strip(), table)
        deleted = helper_as(TEST_USER, "tap-delete", tap)
        self.assertEqual(deleted.returncode, 0, deleted)
        self.assertFalse(exists(tap))

    def test_someone_elses_tap_is_not_touched(self):
        tap, bridge = fresh("-g"), fresh()
        self.made += [tap, bridge]
        ip("tuntap", "add", "dev", tap, "mode", "tap")  # root's
        ip("link", "add", bridge, "type", "bridge")
        self.refused(helper_as(TEST_USER, "tap-delete", tap), "is not yours")
        self.refused(helper_as(TEST_USER, "tap-attach", tap, bridge), "is not yours")
        self.refused(helper_as(TEST_USER, "tap-create", tap, "1:2"), "exists already")
        self.assertTrue(exists(tap))
        self.assertFalse(pathlib.Path(f"/sys/class/net/{tap}/master").exists())

    def test_only_this_apps_names(self):
        for name in ("eth0", "az-1234567-g", "az-12345678", "az-1234567g-g", "az-12345678-g;id",
                     "az-12345678-g ", "../az-12345678-g", "AZ-12345678-G"):
            self.refused(helper_as(TEST_USER, "tap-create", name, "1:2"), "is not a turn's tap name")
        tap = fresh("-g")
        self.made.append(tap)
        # pid:starttime exactly as /proc writes them: a pid the kernel can
        # give (1 to 2^22), a start time that fits 64 bits, no leading zero.
        for owner in ("1:2 up", "1:2\nlink del dev eth0", "x:1", "", "01:2", "1:02", "0:2",
                      "4194305:1", "1:18446744073709551616", "+1:2", "1:+2", " 1:2", "1:2 ",
                      "1:2:3", "1:", ":1", "1", "1\uff12:2"):
            self.refused(helper_as(TEST_USER, "tap-create", tap, owner), "is not an engine's pid:starttime")
        self.assertFalse(exists(tap))
        made = helper_as(TEST_USER, "tap-create", tap, "4194304:18446744073709551615")
        self.assertEqual(made.returncode, 0, made)
        self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/ifalias").read_text().strip(),
                         "arizuko-engine=4194304:18446744073709551615")

    def test_the_tap_is_made_as_ip_tuntap_makes_it(self):
        tap, reference = fresh("-g"), fresh("-g")
        self.made += [tap, reference]
        ip("tuntap", "add", "dev", reference, "mode", "tap", "vnet_hdr")
        self.assertEqual(helper_as(TEST_USER, "tap-create", tap, "1:2").returncode, 0)
        flags = lambda device: pathlib.Path(f"/sys/class/net/{device}/tun_flags").read_text()
        self.assertEqual(flags(tap), flags(reference))

    def test_a_device_made_meanwhile_is_never_taken_or_deleted(self):
        """Root makes a tap of the name the helper was asked for while the
        helper runs: once it has forked the first program it runs, which
        strace holds in execve, so the device appears after any check the
        helper made before and before that program acts. Whoever made the
        name first keeps it: root's tap stays root's, or the helper's tap is
        the caller's; nothing is deleted or handed over."""
        if shutil.which("strace") is None:
            raise AssertionError("this test holds the helper up with strace: install strace")
        tap = fresh("-g")
        self.made.append(tap)
        delay = 2.0
        helper = subprocess.Popen(
            ["strace", "-f", "-qq", "-o", "/dev/null", "-u", TEST_USER,
             "-e", "trace=execve", "-e", f"inject=execve:delay_enter={int(delay * 1e6)}",
             HELPER, "tap-create", tap, "1:2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertTrue(wait_for(lambda: helper_forked(helper.pid), delay * 5),
                        "the helper never ran a program")
        root_made = root_makes_tap(tap)
        _, err = helper.communicate(timeout=60)
        uid = subprocess.run(["id", "-u", TEST_USER], capture_output=True, text=True).stdout.strip()
        if root_made:
            self.assertTrue(exists(tap), f"the helper deleted root's tap {tap}: {err}")
            self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/owner").read_text().strip(), "-1",
                             f"the helper took root's tap {tap}: {err}")
            self.assertNotIn("arizuko-engine",
                             pathlib.Path(f"/sys/class/net/{tap}/ifalias").read_text(), err)
        else:
            self.assertEqual(helper.returncode, 0, err)
            self.assertEqual(pathlib.Path(f"/sys/class/net/{tap}/owner").read_text().strip(), uid)

    def test_only_a_turns_bridge(self):
        tap = fresh("-g")
        self.made.append(tap)
        self.assertEqual(helper_as(TEST_USER, "tap-create", tap, "1:2").returncode, 0)
        for bridge in ("lo", "eth0", "virbr0", "az-1234567"):
            self.refused(helper_as(TEST_USER, "tap-attach", tap, bridge), "is not a turn's bridge name")
        self.refused(helper_as(TEST_USER, "tap-attach", tap, fresh()), "there is no bridge")
        not_a_turns = fresh()
        self.made.append(not_a_turns)
        ip("link", "add", not_a_turns, "type", "bridge")
        ip("addr", "add", "198.51.100.1/24", "dev", not_a_turns)
        self.refused(helper_as(TEST_USER, "conntrack-flush", not_a_turns), "is not a turn's")
        self.refused(helper_as(TEST_USER, "conntrack-flush", "eth0"), "is not a turn's bridge name")

    def test_nothing_else(self):
        self.refused(helper_as(TEST_USER, "filter-rules", "nft"), "is not one of")
        self.refused(helper_as(TEST_USER, "link-del", "eth0"), "unknown command")
        self.refused(helper_as(TEST_USER, "tap-delete"), "takes 1 argument")
        self.refused(helper_as(TEST_USER), "usage")

    def test_a_user_outside_group_libvirt_cannot_run_it(self):
        """The file is root:libvirt 0750 (the build tree's as the package's):
        anyone else cannot even execute it."""
        info = os.stat(HELPER)
        self.assertEqual((info.st_uid, grp.getgrgid(info.st_gid).gr_name,
                          oct(stat.S_IMODE(info.st_mode))), (0, "libvirt", "0o750"))
        tap = fresh("-g")
        self.made.append(tap)
        for arguments in (["tap-create", tap, "1:2"], ["check"]):
            result = helper_as("nobody", *arguments)
            self.assertNotEqual(result.returncode, 0, result)
            self.assertIn(f"failed to execute {HELPER}: Permission denied", result.stderr)
        self.assertFalse(exists(tap))
        self.assertEqual(helper_as(TEST_USER, "check").returncode, 0)

    def test_its_own_group_check_holds_without_the_file_mode(self):
        """A copy anyone may execute, with the capability, still refuses a
        caller outside group libvirt."""
        with tempfile.TemporaryDirectory() as directory:
            os.chmod(directory, 0o755)
            copy = os.path.join(directory, "arizuko-net-helper")
            shutil.copy(HELPER, copy)
            os.chmod(copy, 0o755)
            subprocess.run(["setcap", "cap_net_admin+ep", copy], check=True)
            tap = fresh("-g")
            self.made.append(tap)
            for arguments in (["tap-create", tap, "1:2"], ["check"]):
                result = subprocess.run(["runuser", "-u", "nobody", "--", copy, *arguments],
                                        capture_output=True, text=True, timeout=30)
                self.refused(result, "only members of group libvirt")
            self.assertFalse(exists(tap))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--helper", required=True)
    arguments, rest = parser.parse_known_args()
    HELPER = arguments.helper
    unittest_outcome.run([sys.argv[0]] + rest)
