"""A guest that never reports fails its turn within the boot limit, and the
transcript says why with the last lines of the VM's console. The guest's
kernel is the real one; its initramfs runs silent-init, which announces
itself on the console and then never speaks on any channel."""

import json
import os
import pathlib
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

# Long enough for the kernel to reach /init on a loaded machine (30-45 s at
# load 13 on two cores), so the console shows silent-init when the limit hits.
BOOT_LIMIT = 90
MARKER = "silent-init: this guest never starts arizuko-guest"


def newc_entry(name, mode, data=b""):
    """One member of a cpio archive in the kernel's "newc" format."""
    name_bytes = name.encode() + b"\0"
    fields = [1, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_bytes), 0]
    header = b"070701" + b"".join(b"%08X" % field for field in fields)
    padded_name = header + name_bytes
    padded_name += b"\0" * (-len(padded_name) % 4)
    return padded_name + data + b"\0" * (-len(data) % 4)


def silent_image(parent, silent_init):
    """The real image with an initramfs whose /init is silent-init."""
    real = pathlib.Path(h.require_guest_image())
    directory = pathlib.Path(parent, "silent-image")
    directory.mkdir()
    for name in ("vmlinux", "root.img"):
        (directory / name).symlink_to(real / name)
    archive = (newc_entry("init", 0o100755, pathlib.Path(silent_init).read_bytes())
               + newc_entry("TRAILER!!!", 0))
    (directory / "initramfs.img").write_bytes(archive)
    manifest = json.loads((real / "manifest.json").read_text())
    manifest["files"]["initramfs.img"] = {"size": len(archive)}
    for name, entry in list(manifest["files"].items()):
        if name not in ("vmlinux", "initramfs.img", "root.img"):
            (directory / name).symlink_to(real / name)
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return str(directory)


class BootLimit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = h.Engine()
        cls.engine.add_folder("corp")
        cls.engine.environment.update({
            "ARIZUKO_GUEST_IMAGE_DIR": silent_image(cls.engine.directory.name, h.ARGS.silent_init),
            "ARIZUKO_BOOT_LIMIT": str(BOOT_LIMIT),
        })
        started = time.monotonic()
        process = cls.engine.start("run", "--agent", "command", "corp", "echo never-runs")
        try:
            cls.stdout, cls.stderr = process.communicate(timeout=BOOT_LIMIT + 60)
        except Exception:
            process.kill()
            cls.stdout, cls.stderr = process.communicate()
            cls.engine.close()
            raise AssertionError(f"arizukoctl run still going {BOOT_LIMIT + 60} s after the "
                                 f"submit, with a boot limit of {BOOT_LIMIT} s:\n{cls.stderr}")
        cls.seconds = time.monotonic() - started
        cls.returncode = process.returncode
        cls.name = h.turn_name_from(cls.stderr)
        cls.turn = cls.engine.turn(cls.name)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_fails_on_the_boot_limit(self):
        self.assertEqual(self.returncode, 1, self.stderr)
        self.assertEqual(self.turn["state"], "failed")
        self.assertEqual(self.turn["error_code"], "turns.boot-timeout", self.turn["error"])
        self.assertIn(f"boot limit of {BOOT_LIMIT} s", self.turn["error"])

    def test_it_fails_within_the_limit_of_entering_booting(self):
        booting = h.moment(self.turn["booting_at"])
        ended = h.moment(self.turn["ended_at"])
        self.assertGreaterEqual((ended - booting).total_seconds(), BOOT_LIMIT - 1)
        self.assertLess((ended - booting).total_seconds(), BOOT_LIMIT + 10)

    def test_the_transcript_quotes_the_console(self):
        errors = [e["json"]["message"] for e in self.events if e["kind"] == "error"]
        self.assertEqual(len(errors), 1, self.events)
        self.assertIn("the last lines of its console", errors[0])
        self.assertIn(MARKER, errors[0], errors[0])
        self.assertIn(MARKER, self.stderr, "arizukoctl run shows the console's tail too")

    def test_the_guest_never_spoke(self):
        kinds = {e["kind"] for e in self.events}
        self.assertFalse(kinds & {"status", "event", "log", "exit"}, kinds)

    def test_nothing_is_left(self):
        h.wait_for(lambda: not any(h.leftovers(self.name).values()), 60,
                   what=f"{self.name}'s VM, network, proxy and filter to go")


if __name__ == "__main__":
    h.main()
