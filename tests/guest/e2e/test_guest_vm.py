"""End to end: the real guest image boots under QEMU (TCG, -cpu max), runs a
`command` turn as its unprivileged agent and powers itself off."""

import hashlib
import os
import pwd
import re
import shutil
import sys
import tempfile
import time
import unittest
from pathlib import Path

import unittest_outcome  # tests/support, on PYTHONPATH for every test

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guest_vm import GuestVm, MissingImage, find_image  # noqa: E402

AGENT_UID = 1000
# TCG on a loaded two-core machine: boot plus `claude --version` can take a while.
TURN_TIMEOUT = 240
POWER_OFF_TIMEOUT = 30


def turn(command, *, timeout_seconds=120, **extra):
    spec = {
        "type": "turn", "version": 1, "turn_id": "t-e2e-0001", "folder": "tests/guest",
        "topic": "e2e", "agent": "command", "command": command,
        "timeout_seconds": timeout_seconds,
    }
    spec.update(extra)
    return spec


def of_type(messages, kind):
    return [m.data for m in messages if m.data["type"] == kind]


class GuestImageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            cls.image, cls.manifest = find_image()
        except MissingImage as error:
            raise AssertionError(str(error)) from None
        # Testing an image built from older guest code would prove nothing.
        built = os.environ.get("ARIZUKO_GUEST_BINARY")
        if built:
            digest = hashlib.sha256(Path(built).read_bytes()).hexdigest()
            if digest != cls.manifest["guest"]["sha256"]:
                raise AssertionError(
                    f"the guest image in {cls.image} was built from another arizuko-guest than "
                    f"{built}; rebuild it with installer/build-guest-image --guest-binary {built}")

    def setUp(self):
        self.home = Path(tempfile.mkdtemp(prefix="arizuko-guest-home-"))
        # The agent runs as uid 1000; passthrough 9p shows it the host's owner.
        os.chown(self.home, AGENT_UID, AGENT_UID)
        self.addCleanup(shutil.rmtree, self.home, True)

    def boot(self, **options):
        vm = GuestVm(self.image, self.home, **options)
        self.addCleanup(vm.close)
        vm.start()
        return vm

    def assert_sequenced(self, messages):
        seqs = [m.data["seq"] for m in messages]
        self.assertEqual(seqs, sorted(set(seqs)), "seq must strictly increase")
        self.assertEqual(seqs[0], 1)

    def assert_booted_first(self, messages):
        first = messages[0].data
        self.assertEqual(first["type"], "status")
        self.assertEqual(first["state"], "booted")
        self.assertEqual(first["kernel"], self.manifest["kernel"]["release"])
        self.assertEqual(first["image"], self.manifest["inputs_hash"])

    def test_command_turn_streams_output_writes_home_and_powers_off(self):
        command = ("uname -sr; claude --version; echo hello > ~/proof.txt; echo to-stderr >&2; "
                   "ip -4 addr show dev eth0; ip -4 route; "
                   "bash -c 'echo \"bash $BASH_VERSION as $(id -un) in $PWD, SHELL=$SHELL\"'")
        vm = self.boot(with_nic=True)
        vm.send(turn(command, network={"address": "10.213.0.2/30", "gateway": "10.213.0.1"}))
        messages = vm.collect_until_exit(TURN_TIMEOUT)
        vm.wait_powered_off(POWER_OFF_TIMEOUT)
        powered_off = time.monotonic()

        self.assert_sequenced(messages)
        self.assert_booted_first(messages)
        states = [m["state"] for m in of_type(messages, "status")]
        self.assertEqual(states, ["booted", "running"])

        lines = [m["line"] for m in of_type(messages, "event")]
        release = self.manifest["kernel"]["release"]
        self.assertEqual(lines[0], f"Linux {release}")
        self.assertIn(self.manifest["claude_code"]["version"], lines[1])
        self.assertIn("Claude Code", lines[1])
        self.assertTrue(any("inet 10.213.0.2/30" in line for line in lines), lines)
        self.assertIn("default via 10.213.0.1 dev eth0", [line.strip() for line in lines])
        self.assertRegex(lines[-1], r"^bash 5\.\S+ as agent in /home/agent, SHELL=/bin/bash$")

        logs = of_type(messages, "log")
        self.assertEqual([(m["source"], m["line"]) for m in logs], [("agent", "to-stderr")])

        exit_message = messages[-1].data
        self.assertEqual(exit_message["reason"], "exited")
        self.assertEqual(exit_message["code"], 0)
        # A command is no agent: nothing of the image is read ahead beside it.
        self.assertNotIn("page cache:", vm.console())

        proof = self.home / "proof.txt"
        self.assertEqual(proof.read_text(), "hello\n")
        self.assertEqual(proof.stat().st_uid, AGENT_UID)

        booted = messages[0]
        events = [m for m in messages if m.data["type"] == "event"]
        print(f"\nTCG timings: QEMU start -> booted status {booted.arrived - vm.started:.2f} s "
              f"(guest uptime {booted.data['uptime_ms']} ms); "
              f"QEMU start -> first event {events[0].arrived - vm.started:.2f} s; "
              f"`claude --version` took {events[1].arrived - events[0].arrived:.2f} s; "
              f"exit -> QEMU gone {powered_off - messages[-1].arrived:.2f} s; "
              f"claude says {lines[1]!r}", file=sys.stderr)

    def test_a_started_agent_s_binary_is_read_into_the_page_cache(self):
        vm = self.boot()
        # A spare learns its agent from `prestart`; only then does the guest
        # read that agent's binary ahead, and says so on the console.
        vm.send({"type": "prestart", "version": 1, "folder": "tests/guest", "agent": "claude",
                 "session_id": "00000000-0000-4000-8000-000000000001",
                 "gateway_url": "http://127.0.0.1:9/", "gateway_token": "t"})
        deadline = time.monotonic() + TURN_TIMEOUT
        while "read ahead in" not in vm.console():
            self.assertLess(time.monotonic(), deadline,
                            f"no page-cache warm-up on the console:\n{vm.console()}")
            time.sleep(0.2)
        # A command spec cannot use the started agent: the guest drops it
        # and runs the command.
        vm.send(turn("awk '/^Cached:/ { print $2 * 1024 }' /proc/meminfo; "
                     "stat -c %s /usr/local/bin/claude"))
        messages = vm.collect_until_exit(TURN_TIMEOUT)
        vm.wait_powered_off(POWER_OFF_TIMEOUT)

        cached, binary = (int(m["line"]) for m in of_type(messages, "event"))
        # Started on demand, Claude Code itself reads about a quarter of it.
        self.assertGreaterEqual(cached, binary, "the binary is not all in the page cache")
        warmed = re.search(r"page cache: /usr/local/bin/claude \(\d+ MiB\) read ahead in \d+ ms",
                           vm.console())
        self.assertIsNotNone(warmed, vm.console())
        print(f"\nTCG: {warmed.group(0)}", file=sys.stderr)

    def test_watchdog_stops_a_command_past_its_deadline(self):
        vm = self.boot()
        vm.send(turn("echo started; sleep 600; echo never", timeout_seconds=3))
        messages = vm.collect_until_exit(TURN_TIMEOUT)
        vm.wait_powered_off(POWER_OFF_TIMEOUT)

        self.assert_sequenced(messages)
        self.assertEqual([m["line"] for m in of_type(messages, "event")], ["started"])
        exit_message = messages[-1].data
        self.assertEqual(exit_message["reason"], "timeout")
        self.assertEqual(exit_message["code"], 124)
        self.assertIn("deadline of 3 s", exit_message["message"])
        running = next(m for m in messages if m.data.get("state") == "running")
        waited = messages[-1].arrived - running.arrived
        self.assertGreaterEqual(waited, 2.5)
        self.assertLess(waited, 30)

    def test_cancel_from_the_host_stops_the_agent(self):
        vm = self.boot()
        vm.send(turn("echo started; sleep 600", timeout_seconds=600))
        collected = []
        while True:
            message = vm.next_message(TURN_TIMEOUT)
            collected.append(message)
            if message.data["type"] == "event":
                break
        vm.send({"type": "cancel"})
        asked = time.monotonic()
        collected += vm.collect_until_exit(60)
        vm.wait_powered_off(POWER_OFF_TIMEOUT)

        self.assert_sequenced(collected)
        self.assertEqual(collected[-1].data["reason"], "cancelled")
        self.assertLess(collected[-1].arrived - asked, 5)

    def test_a_bad_turn_spec_is_reported_and_the_vm_still_powers_off(self):
        vm = self.boot()
        vm.send({"type": "turn", "version": 1, "turn_id": "t-bad", "agent": "command",
                 "timeout_seconds": 30})
        messages = vm.collect_until_exit(TURN_TIMEOUT)
        vm.wait_powered_off(POWER_OFF_TIMEOUT)

        self.assert_sequenced(messages)
        self.assertEqual(of_type(messages, "event"), [])
        logs = of_type(messages, "log")
        self.assertEqual(len(logs), 1)
        self.assertEqual(logs[0]["source"], "guest")
        self.assertIn("command is required", logs[0]["line"])
        self.assertEqual(messages[-1].data["reason"], "error")
        self.assertEqual(messages[-1].data["code"], 125)
        self.assertIn("command is required", messages[-1].data["message"])


if __name__ == "__main__":
    unittest_outcome.run(sys.argv)
