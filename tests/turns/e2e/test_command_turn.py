"""A real turn under libvirt: the command agent prints the guest's kernel and
Claude Code's version, writes a file into the folder's home, and every
event arrives in order."""

import json
import os
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

COMMAND = ("uname -sr; claude --version; echo written-in-the-guest > $HOME/from-guest.txt; "
           "grep ' 9p ' /proc/mounts")


class CommandTurn(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        # Pinned: the order below is pretap's, asserted, never assumed.
        cls.engine = h.Engine({"ARIZUKO_FILTER_MODE": "pretap"})
        cls.engine.add_folder("corp")
        cls.result = cls.engine.run("run", "--agent", "command", "corp", COMMAND, timeout=600)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_is_done_and_exits_zero(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        turn = self.engine.turn(self.name)
        self.assertEqual(turn["state"], "done")
        self.assertEqual(turn["exit_code"], 0)
        for column in ("queued_at", "preparing_at", "booting_at", "running_at", "finishing_at", "ended_at"):
            self.assertTrue(turn[column], column)
        self.assertIn(turn["accelerator"], ("kvm", "tcg"))
        self.assertTrue(turn["subnet"].endswith("/30"))

    def test_the_guest_kernel_and_claude_version_are_printed(self):
        lines = self.result.stdout.splitlines()
        self.assertTrue(any(line.startswith("Linux 6.") for line in lines), self.result.stdout)
        self.assertTrue(any(line.endswith("(Claude Code)") for line in lines), self.result.stdout)

    def test_events_arrive_in_order(self):
        self.assertEqual([e["seq"] for e in self.events], list(range(1, len(self.events) + 1)))
        phases = [e["json"]["state"] for e in self.events if e["kind"] == "phase"]
        self.assertEqual(phases, ["preparing", "booting", "running", "finishing", "done"])
        guest = [e for e in self.events if e["kind"] in ("status", "event", "log", "exit")]
        guest_seqs = [e["json"]["seq"] for e in guest]
        self.assertEqual(guest_seqs, sorted(guest_seqs))
        self.assertEqual(len(set(guest_seqs)), len(guest_seqs))
        self.assertEqual(guest[0]["kind"], "status")
        self.assertEqual(guest[0]["json"]["state"], "booted")
        self.assertEqual(guest[-1]["kind"], "exit")
        output = [e["json"]["line"] for e in guest if e["kind"] == "event"]
        self.assertTrue(output[0].startswith("Linux "), output)
        self.assertTrue(output[1].endswith("(Claude Code)"), output)
        # The guest reports before the engine leaves the running phase.
        kinds = [e["kind"] if e["kind"] != "phase" else e["json"]["state"] for e in self.events]
        self.assertLess(kinds.index("running"), kinds.index("exit"))
        self.assertLess(kinds.index("exit"), kinds.index("finishing"))

    def test_the_spec_went_out_only_after_the_proxy_and_the_filter(self):
        """The spec starts the agent: the engine sends it once the proxy is
        healthy and, in mode pretap, the filter's rules are seen in force."""
        steps = [e["json"]["step"] if e["kind"] == "timing" else e["kind"] for e in self.events
                 if e["kind"] in ("timing", "status")]
        self.assertEqual(steps.count("spec"), 1, steps)
        self.assertLess(steps.index("proxy-healthy"), steps.index("spec"), steps)
        parts = next(e["json"]["ms"] for e in self.events
                     if e["kind"] == "timing" and e["json"]["step"] == "domain-create-parts")
        self.assertIn("tap", parts, "mode pretap: the engine made the tap and the binding")
        self.assertLess(steps.index("filter"), steps.index("spec"), steps)
        running = next(i for i, e in enumerate(self.events)
                       if e["kind"] == "status" and e["json"].get("state") == "running")
        spec = next(i for i, e in enumerate(self.events)
                    if e["kind"] == "timing" and e["json"]["step"] == "spec")
        self.assertLess(spec, running)

    def test_the_turn_is_done_before_its_teardown(self):
        """The user's wait ends with the guest's exit and its last event: the
        VM, filter, tap and network are destroyed after `done` is stored."""
        kinds = [e["kind"] if e["kind"] != "phase" else e["json"]["state"] for e in self.events]
        teardown = [i for i, e in enumerate(self.events)
                    if e["kind"] == "timing" and e["json"]["step"] == "teardown"]
        self.assertEqual(len(teardown), 1, kinds)
        self.assertLess(kinds.index("done"), teardown[0])
        exit_event = next(e for e in self.events if e["kind"] == "exit")
        ended = h.moment(self.engine.turn(self.name)["ended_at"])
        self.assertLess((ended - h.moment(exit_event["at"])).total_seconds(), 1.0,
                        "guest exit to done")
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left}, "the teardown after done ran to its end")

    def test_a_file_written_in_the_guest_home_appears_on_the_host(self):
        written = self.engine.home("corp") / "from-guest.txt"
        self.assertEqual(written.read_text(), "written-in-the-guest\n")
        # The agent runs as the engine's user, so the file is the user's.
        self.assertEqual(written.stat().st_uid, os.getuid())
        self.assertEqual(written.stat().st_gid, os.getgid())

    def test_only_the_home_is_shared_with_the_guest(self):
        mounts = [line for line in self.result.stdout.splitlines() if " 9p " in line]
        self.assertEqual(len(mounts), 1, mounts)
        self.assertTrue(mounts[0].startswith("home /home/agent 9p "), mounts)

    def test_turns_lists_the_phase_timings(self):
        listed = self.engine.run("--json", "turns")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        turn = next(t for t in json.loads(listed.stdout) if t["name"] == self.name)
        self.assertEqual(turn["state"], "done")
        for phase in ("queued", "preparing", "booting", "running", "finishing"):
            self.assertGreaterEqual(turn["phase_ms"][phase], 0, phase)
        table = self.engine.run("turns")
        self.assertIn(self.name, table.stdout)
        self.assertIn("PREPARE_MS", table.stdout)

    def test_the_console_is_logged(self):
        turn = self.engine.turn(self.name)
        console = pathlib.Path(self.engine.data_dir, "turns", turn["id"], "console.log")
        self.assertIn("Linux version", console.read_text(errors="replace"))

    def test_nothing_of_the_turn_is_left(self):
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
