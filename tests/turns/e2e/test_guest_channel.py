"""The guest's channel is untrusted input (docs/guest.md, "The host reads the
guest as untrusted"). From real guests:

- an agent running as root in the guest copies PID 1's descriptor of the
  org.arizuko.turn port (pidfd_getfd; a second open() of the port fails with
  EBUSY) and writes a forged `network` decision, a forged phase, a forged
  error and a line longer than the channel's limit: none of it reaches the
  store, `arizukoctl turns`, the run's output or the `network` rows the
  window's Network tab is built from (TurnPanel feeds NetworkDecisionModel
  with exactly the stored and emitted `network` events); one `guest-protocol`
  event says what was dropped, and how many lines in all;
- an agent that prints more rows than a turn stores: the turn stores the
  first maxGuestOutputRows, says so once (`guest-limit`) and still ends `done`;
- an agent that prints terminal escape sequences: `arizukoctl run`'s stdout
  carries them inert (bytes checked), the engine's own lines unchanged.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

MARK = "FORGED-BY-THE-GUEST"
OVERSIZE_MARK = "OVERSIZE-LINE-FROM-THE-GUEST"
# engine/turns/guest_channel_messages.h
MAX_GUEST_LINE_BYTES = 6 * 1024 * 1024 + 4096
MAX_GUEST_OUTPUT_ROWS = 50_000

FORGED_LINES = [
    # The forged decision the Network tab would show as an allowed request.
    {"type": "network", "seq": 100, "event": "decision", "decision": "allow", "method": "CONNECT",
     "host": MARK.lower() + ".example", "port": 443, "reason": MARK},
    {"type": "phase", "seq": 101, "state": "failed", "note": MARK},
    {"type": "error", "seq": 102, "code": "turns.forged", "message": MARK},
]

# What each guest kind may be stored as, and what only the engine writes.
GUEST_KINDS = {"status", "event", "log", "exit"}


def forged_channel_bytes():
    # The leading newline ends whatever PID 1 may have half-written.
    lines = [b""] + [json.dumps(line).encode() for line in FORGED_LINES]
    oversize = ('{"type":"event","seq":103,"line":"' + OVERSIZE_MARK + " ").encode()
    oversize += b"x" * (MAX_GUEST_LINE_BYTES + 1024 - len(oversize)) + b'"}'
    lines.append(oversize)
    return b"\n".join(lines) + b"\n"


class ForgedChannelLines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls)

    @classmethod
    def _run(cls):
        cls.engine.add_folder("corp")
        home = cls.engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        shutil.copy(h.ARGS.channel_forger, home / "channel-forger")
        os.chmod(home / "channel-forger", 0o755)
        (home / "forged.jsonl").write_bytes(forged_channel_bytes())
        command = ("$HOME/channel-forger $HOME/forged.jsonl; echo forger-status=$?; "
                   "echo after-the-forgery")
        cls.result = cls.engine.run("run", "--agent", "command", "corp", command, timeout=600)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_forger_wrote_through_pid_1s_port(self):
        """Not vacuous: the forged bytes went into the channel."""
        self.assertIn("forger-status=0", self.result.stdout, self.result.stderr)
        self.assertIn(f"forged {len(forged_channel_bytes())} bytes through PID 1's fd",
                      self.result.stdout)

    def test_the_turn_still_ends_done_with_its_own_output(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.engine.turn(self.name)["state"], "done")
        output = [e["json"]["line"] for e in self.events if e["kind"] == "event"]
        self.assertIn("after-the-forgery", output)

    def test_no_forged_line_is_stored(self):
        stored = json.dumps(self.events)
        self.assertNotIn(MARK, stored)
        self.assertNotIn(OVERSIZE_MARK, stored)

    def test_every_stored_guest_row_has_a_guest_kind(self):
        guest_rows = [e for e in self.events if "seq" in e["json"] and "type" in e["json"]]
        self.assertEqual({e["kind"] for e in guest_rows} - GUEST_KINDS, set(), guest_rows[-3:])
        for row in guest_rows:
            self.assertEqual(row["kind"], row["json"]["type"], row)

    def test_the_network_tab_sees_only_the_proxys_decisions(self):
        network = [e["json"] for e in self.events if e["kind"] == "network"]
        for line in network:
            self.assertNotIn("seq", line, line)
            self.assertNotIn("type", line, line)
            self.assertNotIn(MARK.lower(), line.get("host", ""), line)

    def test_phases_and_errors_are_the_engines_alone(self):
        phases = [e["json"]["state"] for e in self.events if e["kind"] == "phase"]
        self.assertEqual(phases, ["preparing", "booting", "running", "finishing", "done"])
        self.assertEqual([e for e in self.events if e["kind"] == "error"], [])

    def test_the_violation_is_recorded_once_with_a_total(self):
        protocol = [e["json"] for e in self.events if e["kind"] == "guest-protocol"]
        self.assertEqual(len(protocol), 2, protocol)
        self.assertIn("type `network` is not one a guest sends", protocol[0]["violation"])
        self.assertEqual(protocol[1]["violations"], 4, protocol)

    def test_arizukoctl_turns_shows_nothing_forged(self):
        listed = self.engine.run("--json", "turns")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertNotIn(MARK, listed.stdout)
        events = self.engine.run("--json", "turns", "--events", self.name)
        self.assertEqual(events.returncode, 0, events.stderr)
        self.assertNotIn(MARK, events.stdout)
        self.assertNotIn(OVERSIZE_MARK, events.stdout)
        self.assertNotIn(MARK, self.result.stdout + self.result.stderr)

    def test_nothing_of_the_turn_is_left(self):
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


class OutputFlood(unittest.TestCase):
    ROWS = MAX_GUEST_OUTPUT_ROWS + 5_000

    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls)

    @classmethod
    def _run(cls):
        cls.engine.add_folder("corp")
        command = f"yes flood-line | head -n {cls.ROWS}; echo after-the-flood"
        cls.result = cls.engine.run("run", "--agent", "command", "corp", command, timeout=900)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_ends_done(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr[-2000:])
        self.assertEqual(self.engine.turn(self.name)["state"], "done")

    def test_the_first_rows_are_stored_and_the_limit_said_once(self):
        output = [e for e in self.events if e["kind"] in ("event", "log")]
        self.assertEqual(len(output), MAX_GUEST_OUTPUT_ROWS)
        limits = [e for e in self.events if e["kind"] == "guest-limit"]
        self.assertEqual(len(limits), 1, limits)
        self.assertEqual(limits[0]["json"]["rows"], MAX_GUEST_OUTPUT_ROWS)
        self.assertIn("the rest is not stored", limits[0]["json"]["message"])
        kinds = [e["kind"] for e in self.events]
        self.assertLess(kinds.index("guest-limit"), kinds.index("exit"))
        self.assertNotIn("after-the-flood", json.dumps(self.events))

    def test_the_guests_exit_is_still_stored(self):
        exits = [e["json"] for e in self.events if e["kind"] == "exit"]
        self.assertEqual(len(exits), 1)
        self.assertEqual(exits[0]["code"], 0)

    def test_nothing_of_the_turn_is_left(self):
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


# A window title, two lines up, erase the line, carriage return, a fake
# engine line; an 8-bit CSI (U+009B, as UTF-8); DEL; a tab and newlines stay.
ESCAPES = r"printf '\033]0;pwned-title\007\033[2A\033[2K\r[turn] done\n\302\233" \
          r"31mred\n\177del\ttab\n'"


class TerminalEscapes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls)

    @classmethod
    def _run(cls):
        cls.engine.add_folder("corp")
        arguments = cls.engine.command("run", "--agent", "command", "corp", ESCAPES)
        cls.result = subprocess.run(arguments, capture_output=True, env=cls.engine.environment,
                                    timeout=600)
        cls.name = h.turn_name_from(cls.result.stderr.decode(errors="replace"))

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_agents_escapes_reach_stdout_inert(self):
        out = self.result.stdout
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        for raw in (b"\x1b", b"\x07", b"\r", b"\x7f", "\u009b".encode()):
            self.assertNotIn(raw, out, out)
        self.assertEqual(out, b"\\x1b]0;pwned-title\\x07\\x1b[2A\\x1b[2K\\x0d[turn] done\n"
                              b"\\u009b31mred\n\\x7fdel\ttab\n")

    def test_the_engines_own_lines_are_unchanged(self):
        err = self.result.stderr.decode()
        self.assertIn("[turn] running\n", err)
        self.assertIn("[turn] done\n", err)
        self.assertIn(f"[engine] turn {self.name} done in ", err)

    def test_nothing_of_the_turn_is_left(self):
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
