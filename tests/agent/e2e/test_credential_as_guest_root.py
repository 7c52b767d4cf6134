"""The model credential never enters the guest, searched for as root inside
it while Claude Code runs: a real turn whose Bash tool copies out everything
of the guest the credential could have been written into, for the host to
search (the canary never goes in, so nothing in the guest can look for it).

Root: the agent in a guest runs with the engine's uid, so only a root
engine's turn is root in its guest (guest root is assumed by the security
model; this test stands in for an agent that gained it)."""

import os
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream, files_under  # noqa: E402

# Every process's environment and command line (Claude Code's and PID 1's
# among them), the kernel's command line and log, and every writable mount
# but the home (the root image is read-only and built without secrets).
ROOT_DUMP_COMMAND = (
    "id -u > root-uid.dump; "
    "cat /proc/cmdline > root-cmdline.dump; "
    "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline; echo; done > root-proc.dump 2>/dev/null; "
    "tr '\\0' '\\n' < /proc/1/environ | grep -c = > root-pid1-variables.dump; "
    "dmesg > root-dmesg.dump; "
    "tar -cf root-writable.tar $(awk '$4 ~ /^rw/ && $3 !~ \"^(9p|devpts|devtmpfs)$\" "
    "&& $2 !~ \"^/(proc|sys)\" {print $2}' /proc/mounts) 2>/dev/null; "
    "ls root-writable.tar")
SCRIPT = {
    "name": "root-dump",
    "exchanges": [
        {"prompt": "copy out the guest", "steps": [
            {"text": "Copying out the guest.",
             "tool_use": {"name": "Bash", "input": {"command": ROOT_DUMP_COMMAND}}},
            {"text": "Done."}]},
    ],
}


class CredentialAsGuestRoot(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise AssertionError("runs as root (CMake's ARIZUKO_TESTS_NEED_ROOT): only a root "
                                 "engine's agent is root in its guest")
        h.require_guest_image()
        cls.canary = new_canary()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, cls.canary)
        cls.engine.add_folder("corp")
        cls.result = cls.engine.run("run", "--model", "claude-sonnet-4-5", "corp",
                                    "copy out the guest", timeout=600)
        cls.home = cls.engine.home("corp")

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    def test_the_dump_ran_as_root_and_read_pid_1(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual((self.home / "root-uid.dump").read_text().strip(), "0")
        self.assertGreater(int((self.home / "root-pid1-variables.dump").read_text()), 0)
        for dump in ("root-cmdline.dump", "root-proc.dump", "root-dmesg.dump", "root-writable.tar"):
            self.assertGreater((self.home / dump).stat().st_size, 0, dump)
        # Claude Code's own environment was among those read: its gateway token is.
        self.assertIn(b"ANTHROPIC_API_KEY=", (self.home / "root-proc.dump").read_bytes())

    def test_the_credential_is_nowhere_in_the_guest_or_the_data_directory(self):
        canary = self.canary.encode()
        leaked = [str(path) for path in files_under(self.engine.data_dir)
                  if canary in path.read_bytes()]
        self.assertEqual(leaked, [])
        self.assertNotIn(self.canary, self.result.stdout + self.result.stderr)
        # The canary is real: the upstream got it as the key.
        self.assertIn(canary, self.upstream.log.read_bytes())


if __name__ == "__main__":
    h.main()
