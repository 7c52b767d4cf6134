"""The home history with real turns: a command turn creates, modifies and
deletes files and plants a link to a canary outside the home, a hard link
and a 1 GiB sparse file beside the host's FIFO; `turn changes` lists exactly that, the canary
is never opened, `turn undo` restores the home byte for byte and leaves a
later change alone. A second turn searches its guest for the history and
does not find it. A third makes 100,000 empty files: the engine records
them all without hanging, and they are exactly that turn's changes."""

import ctypes
import json
import os
import pathlib
import resource
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

IN_ACCESS, IN_OPEN, IN_NONBLOCK = 0x1, 0x20, 0o4000


class AccessWatch:
    """inotify on files outside the home: any open or read shows."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(IN_NONBLOCK)
        assert self.fd >= 0

    def watch(self, path):
        assert self.libc.inotify_add_watch(self.fd, os.fsencode(path), IN_OPEN | IN_ACCESS) >= 0

    def events(self):
        try:
            return len(os.read(self.fd, 65536))
        except BlockingIOError:
            return 0


class HomeHistory(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.engine = h.Engine()
        cls.engine.add_folder("corp")
        cls.home = cls.engine.home("corp")
        cls.home.mkdir(parents=True, exist_ok=True)
        (cls.home / "keep.txt").write_text("kept\n")
        (cls.home / "edit.txt").write_text("one\ntwo\nthree\n")
        (cls.home / "gone.txt").write_text("bye\n")
        # 9p refuses mkfifo in the guest (ENXIO), so the FIFO is the host's:
        # every snapshot meets it, and none may hang on it.
        os.mkfifo(cls.home / "fifo")
        cls.canary = pathlib.Path(cls.engine.directory.name) / "canary.txt"
        cls.canary.write_text("CANARY\n")
        cls.watch = AccessWatch()
        cls.watch.watch(cls.canary)
        first = ("cd $HOME && printf 'one\\n2\\nthree\\n' > edit.txt && rm gone.txt && "
                 "mkdir -p src && printf 'print(1)\\n' > src/new.py && "
                 f"ln -s {cls.canary} to-canary && printf x > linked && ln linked hard && "
                 "truncate -s 1G huge.img && echo first-done")
        cls.first = cls.engine.run("run", "--agent", "command", "corp", first, timeout=600)
        cls.first_name = h.turn_name_from(cls.first.stderr)
        cls.canary_events = cls.watch.events()
        # The user edits between the turns.
        (cls.home / "keep.txt").write_text("edited by the user\n")
        second = ("cd $HOME && printf 'print(2)\\n' > src/new.py && "
                  "find / \\( -path /proc -o -path /sys \\) -prune -o \\( -name arizuko-index "
                  "-o -name arizuko.lock -o -name '*.git' -o -path '*/refs/turns' \\) "
                  "-print 2>/dev/null | sed 's/^/FOUND /'; echo search-done")
        cls.second = cls.engine.run("run", "--agent", "command", "corp", second, timeout=600)
        cls.second_name = h.turn_name_from(cls.second.stderr)
        many = "mkdir $HOME/many && cd $HOME/many && seq 100000 | xargs touch && echo many-done"
        cls.many = cls.engine.run("run", "--agent", "command", "corp", many, timeout=900)
        cls.many_name = h.turn_name_from(cls.many.stderr)
        # The largest arizukoctl so far (the one that recorded the 100,000).
        cls.peak_rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def changes(self, name, *extra):
        result = self.engine.run("--json", "turn", "changes", name, *extra)
        self.assertEqual(result.returncode, 0, result.stderr)
        return {f["path"]: f for f in json.loads(result.stdout)["files"]}

    def test_1_both_turns_ran(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertIn("first-done", self.first.stdout)
        self.assertEqual(self.second.returncode, 0, self.second.stderr)
        self.assertIn("search-done", self.second.stdout)

    def test_2_changes_of_the_first_turn_are_exact(self):
        files = self.changes(self.first_name, "--diff")
        kinds = {path: f["change"] for path, f in files.items()}
        self.assertEqual(kinds, {"edit.txt": "modified", "gone.txt": "deleted",
                                 "src/new.py": "added", "to-canary": "added",
                                 "huge.img": "added", "linked": "skipped", "hard": "skipped"})
        self.assertIn("-two\n+2\n", files["edit.txt"]["diff"])
        self.assertIn("new file mode 120000", files["to-canary"]["diff"])
        self.assertIn("+" + str(self.canary), files["to-canary"]["diff"])
        self.assertNotIn("CANARY", files["to-canary"]["diff"])
        self.assertFalse(files["huge.img"]["stored"])
        self.assertIn("size: 1073741824", files["huge.img"]["diff"])
        self.assertEqual(files["hard"]["why"], "hard link")

    def test_3_the_canary_outside_the_home_was_never_opened(self):
        self.assertEqual(self.canary_events, 0)

    def test_4_user_edits_between_turns_are_not_in_the_next_turn(self):
        files = self.changes(self.second_name)
        self.assertEqual({p: f["change"] for p, f in files.items()}, {"src/new.py": "modified"})

    def test_5_the_guest_does_not_find_the_history(self):
        found = [line for line in self.second.stdout.splitlines() if line.startswith("FOUND ")]
        self.assertEqual(found, [], self.second.stdout)
        history = pathlib.Path(self.engine.data_dir) / "history"
        self.assertTrue(any(history.glob("*.git/refs/turns")), "the history exists on the host")

    def test_6_undo_restores_and_leaves_a_later_change_alone(self):
        result = self.engine.run("--json", "turn", "undo", self.first_name, "--yes")
        report = json.loads(result.stdout)
        self.assertEqual(result.returncode, 1, result.stderr)  # a conflict was left
        self.assertEqual(sorted(report["restored"]),
                         ["edit.txt", "gone.txt", "huge.img", "to-canary"])
        self.assertEqual([c["path"] for c in report["conflicts"]], ["src/new.py"])
        self.assertEqual((self.home / "edit.txt").read_bytes(), b"one\ntwo\nthree\n")
        self.assertEqual((self.home / "gone.txt").read_bytes(), b"bye\n")
        self.assertEqual((self.home / "src/new.py").read_bytes(), b"print(2)\n")
        self.assertFalse(os.path.lexists(self.home / "to-canary"))
        self.assertFalse(os.path.lexists(self.home / "huge.img"))
        self.assertEqual((self.home / "keep.txt").read_text(), "edited by the user\n")
        self.assertEqual(self.canary.read_text(), "CANARY\n")
        audit = self.engine.run("--json", "audit", "--kind", "turn.undo")
        self.assertIn("src/new.py", audit.stdout)

    def test_7_a_hundred_thousand_files_from_the_guest(self):
        self.assertEqual(self.many.returncode, 0, self.many.stderr)
        self.assertIn("many-done", self.many.stdout)
        files = self.changes(self.many_name)
        self.assertEqual(len(files), 100000)
        self.assertEqual({f["change"] for f in files.values()}, {"added"})
        self.assertEqual(set(files), {f"many/{n}" for n in range(1, 100001)})
        self.assertLess(self.peak_rss_kb, 400 * 1024)


if __name__ == "__main__":
    h.main()
