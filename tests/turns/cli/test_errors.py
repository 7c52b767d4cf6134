"""Errors a person can act on: libvirtd unreachable, the guest image missing,
the subnet pool exhausted. Each fails the turn (or the start) with advice
and leaves nothing behind."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


def a_routed_network():
    """An IPv4 network this host routes (not the default route), and not
    another turn's bridge, which may vanish while this test runs."""
    for line in pathlib.Path("/proc/net/route").read_text().splitlines()[1:]:
        columns = line.split()
        if columns[0].startswith("az"):
            continue
        destination = int.from_bytes(bytes.fromhex(columns[1]), "little")
        mask = int.from_bytes(bytes.fromhex(columns[7]), "little")
        if mask and bin(mask).count("1") <= 30:
            return ".".join(str((destination >> s) & 255) for s in (24, 16, 8, 0))
    raise AssertionError("this host routes no IPv4 network")


class Errors(unittest.TestCase):
    def setUp(self):
        self.engine = h.Engine({"ARIZUKO_ACCELERATOR": "tcg"})
        self.engine.add_folder("corp")

    def tearDown(self):
        self.engine.close()

    def test_unreachable_libvirtd_names_the_uri_and_how_to_start_it(self):
        uri = "qemu+unix:///system?socket=/nonexistent/libvirt-sock"
        result = self.engine.run("--libvirt-uri", uri, "run", "--agent", "command", "corp", "true")
        self.assertEqual(result.returncode, 1)
        self.assertIn(uri, result.stderr)
        self.assertIn("is libvirtd running?", result.stderr)
        self.assertEqual(self.engine.turns(), [], "no turn is recorded without libvirt")

    def test_a_missing_guest_image_says_how_to_build_it(self):
        self.engine.environment["ARIZUKO_GUEST_IMAGE_DIR"] = "/nonexistent/arizuko-guest-image"
        result = self.engine.run("run", "--agent", "command", "corp", "true")
        self.assertEqual(result.returncode, 1)
        name = h.turn_name_from(result.stderr)
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "failed")
        self.assertEqual(turn["error_code"], "turns.image-missing")
        self.assertIn("first-run guide", turn["error"])
        self.assertIn("`arizukoctl image build`", turn["error"])
        self.assertIn("vmlinux", turn["error"])
        self.assertIn("`arizukoctl image build`", result.stderr)
        self.assertIsNone(turn["network_name"], "no network for a turn that cannot boot")

    def test_an_exhausted_pool_fails_the_turn_naming_the_pool(self):
        pool = a_routed_network() + "/30"
        self.engine.environment["ARIZUKO_GUEST_IMAGE_DIR"] = h.fake_image_directory(self.engine.directory.name)
        self.engine.environment["ARIZUKO_SUBNET_POOL"] = pool
        result = self.engine.run("run", "--agent", "command", "corp", "true")
        self.assertEqual(result.returncode, 1)
        turn = self.engine.turn(h.turn_name_from(result.stderr))
        self.assertEqual(turn["error_code"], "turns.pool-exhausted")
        self.assertIn(pool, turn["error"])
        left = h.leftovers(turn["name"])
        self.assertEqual(left, {key: [] for key in left})

    def test_a_bad_pool_setting_is_refused(self):
        self.engine.environment["ARIZUKO_SUBNET_POOL"] = "10.213.0.1/16"
        result = self.engine.run("run", "--agent", "command", "corp", "true")
        self.assertEqual(result.returncode, 1)
        self.assertIn("10.213.0.1/16", result.stderr)


if __name__ == "__main__":
    h.main()
