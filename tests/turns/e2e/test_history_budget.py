"""The home history's budget with real turns: a command turn of folder corp
makes a 1 TiB sparse file and 1.15 GiB of sparse files just under the size
limit in its home, beside 200,000 FIFOs (made by the host: 9p refuses
mkfifo in the guest). `arizukoctl run` returns soon after the turn ends
instead of reading a terabyte; corp's next turn starts its agent at its
usual pace; corp's changes say what the snapshot's budget left unread, and
come back in seconds despite the FIFOs. (That another folder's turn in the
same engine is not held behind corp's snapshot is shown with real turns and
a fake machine: turns.test_turn_lifecycle
aSlowSnapshotOfOneHomeNeverHoldsAnotherHomesTurn.)"""

import json
import os
import pathlib
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

FIFOS = 200000
# Under history-file-limit (50 MiB) each, 1176 MiB together: over the
# snapshot's byte budget (1 GiB).
SPARSE = 24
FIRST = ("cd $HOME && truncate -s 1099511627776 huge.bin && "
         f"for i in $(seq {SPARSE}); do truncate -s 49M s$i; done && echo first-done")
# A turn's agent starts this long after the turn starts preparing, at most,
# on this machine (TCG): a boot is 20 to 60 s here; the guest gives up on
# its spec after 120 s.
USUAL_START_S = 90
# arizukoctl ends this long after its turn, at most: the snapshot after (its
# byte budget read) and the pruning.
USUAL_EXIT_S = 60


def seconds(turn, start, end):
    return (h.moment(turn[end]) - h.moment(turn[start])).total_seconds()


class HistoryBudget(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls)

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        home = engine.home("corp")
        (home / "pipes").mkdir(parents=True)
        for i in range(FIFOS):
            os.mkfifo(home / "pipes" / f"p{i}")
        started = time.monotonic()
        cls.first = engine.run("run", "--agent", "command", "corp", FIRST, timeout=1500)
        cls.first_exit = time.monotonic() - started
        cls.first_name = h.turn_name_from(cls.first.stderr)
        print(cls.first.stderr[-3000:], file=sys.stderr)
        cls.next = engine.run("run", "--agent", "command", "corp", "echo next-done", timeout=600)
        cls.next_name = h.turn_name_from(cls.next.stderr)
        started = time.monotonic()
        cls.changes = engine.run("--json", "turn", "changes", cls.first_name, timeout=600)
        cls.changes_seconds = time.monotonic() - started
        cls.status = engine.run("--json", "history", "status")

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def turn_of(self, folder):
        turns = [t for t in self.engine.turns() if t["group_folder"] == folder]
        self.assertTrue(turns, f"no turn of {folder}")
        return turns

    def test_1_the_first_turn_ran_and_arizukoctl_returned_soon_after(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr[-3000:])
        self.assertIn("first-done", self.first.stdout)
        last_end = max(h.moment(t["ended_at"]) for t in self.engine.turns()
                       if t["name"] != self.next_name)
        first_start = h.moment(self.turn_of("corp")[0]["queued_at"])
        busy = (last_end - first_start).total_seconds()
        print(f"first arizukoctl run: {self.first_exit:.1f} s, its turns {busy:.1f} s",
              file=sys.stderr)
        self.assertLess(self.first_exit - busy, USUAL_EXIT_S)

    def test_3_the_folders_next_turn_started_at_its_usual_pace(self):
        self.assertEqual(self.next.returncode, 0, self.next.stderr[-3000:])
        self.assertIn("next-done", self.next.stdout)
        turn = self.engine.turn(self.next_name)
        took = seconds(turn, "preparing_at", "running_at")
        print(f"corp's next turn: agent started {took:.1f} s after preparing", file=sys.stderr)
        self.assertLess(took, USUAL_START_S)

    def test_4_the_first_turns_history_says_what_its_budget_left_unread(self):
        self.assertEqual(self.changes.returncode, 0, self.changes.stderr)
        print(f"turn changes beside {FIFOS} FIFOs: {self.changes_seconds:.1f} s", file=sys.stderr)
        self.assertLess(self.changes_seconds, 60)
        report = json.loads(self.changes.stdout)
        files = {f["path"]: f for f in report["files"]}
        self.assertEqual(files["huge.bin"]["change"], "added")
        self.assertFalse(files["huge.bin"]["stored"])
        sparse = [files[f"s{i}"] for i in range(1, SPARSE + 1)]
        unread = [f for f in sparse if not f["stored"]]
        self.assertTrue(unread, "the budget left nothing unread")
        for f in unread:
            self.assertRegex(f["why"], r"^not read: snapshot budget \((bytes|time)\)$")
        notes = report["notes"]
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"^the snapshot ran out of its (byte|time) budget \(.*\): "
                                   rf"{len(unread)} file\(s\) were recorded by size and time only")
        # The FIFOs were there before and after: no change of the turn's.
        self.assertFalse([p for p in files if p.startswith("pipes/")])

    def test_5_history_status_shows_the_disk_use(self):
        self.assertEqual(self.status.returncode, 0, self.status.stderr)
        rows = {r["folder"]: r for r in json.loads(self.status.stdout)}
        self.assertEqual(rows["corp"]["turns"], 2)
        self.assertGreater(rows["corp"]["bytes"], 0)


if __name__ == "__main__":
    h.main()
