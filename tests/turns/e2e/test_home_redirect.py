"""A parent folder's agent tries to give its children's VMs a host directory.

corp's guest writes corp's home. Where a child's home used to lie inside it
(<data>/groups/corp/eng), corp's agent could replace the child's home by a
link to any host directory, and the child's next VM was given that
directory read-write. Here a real command turn in corp does that, for
corp/eng (the link at the home itself) and for corp/ops/sre (the link one
level higher, at corp/ops). Then a command turn and a Claude Code turn (the
offline demo model, scripted to do what the command does through its Bash
tool) run in each child: each gets its own home, or fails saying why, and
the host directories are neither read nor written.
docs/security-model.md, "Folder homes"."""

import hashlib
import json
import os
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

CANARY = "CANARY-host-directory-5d2b9e"

CHILD_COMMAND = (f"ls -la $HOME; cat $HOME/canary.txt; cat $HOME/sre/canary.txt; "
                 f"echo written-by-the-child > $HOME/child-wrote.txt; echo child-done")
# The Claude Code turn tries the same reads with its Bash tool: "never read"
# means something only for a turn that tried.
CLAUDE_COMMAND = CHILD_COMMAND.replace("child-wrote.txt", "claude-wrote.txt").replace(
    "child-done", "claude-done")
# What each child turn prints once its reads ran.
DONE = {"command": "child-done", "claude": "claude-done"}
CLAUDE_SCRIPT = {
    "name": "home-redirect",
    "exchanges": [{"prompt": "*", "steps": [
        {"text": "reading", "tool_use": {"name": "Bash", "input": {
            "command": CLAUDE_COMMAND, "description": "Read the home's canaries"}}},
        {"text": "read"}]}],
}


def fingerprint(directory):
    """Every entry below `directory` with its type, size, change times and
    bytes: what "neither written" is compared against."""
    found = {}
    for root, directories, files in os.walk(directory):
        for name in sorted(directories + files):
            path = os.path.join(root, name)
            status = os.lstat(path)
            entry = (status.st_mode, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
            if os.path.isfile(path) and not os.path.islink(path):
                entry += (hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest(),)
            found[os.path.relpath(path, directory)] = entry
    status = os.lstat(directory)
    found["."] = (status.st_mode, status.st_mtime_ns, status.st_ctime_ns)
    return found


class HomeRedirect(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        h.set_up_engine(cls, {"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1"})

    @classmethod
    def _run(cls):
        engine = cls.engine
        for folder in ("corp", "corp/eng", "corp/ops", "corp/ops/sre"):
            engine.add_folder(folder)
        for folder in ("corp/eng", "corp/ops/sre"):
            allowed = engine.run("network", "allow", folder, "localhost")
            if allowed.returncode != 0:
                raise AssertionError(allowed.stderr)
        # The user's own files, outside the data directory.
        host = pathlib.Path(engine.directory.name)
        cls.targets = {"eng": host / "host-eng", "ops": host / "host-ops"}
        for target in cls.targets.values():
            (target / "sre").mkdir(parents=True)
            (target / "canary.txt").write_text(CANARY + "\n")
            (target / "sre" / "canary.txt").write_text(CANARY + "\n")
        os.utime(cls.targets["eng"] / "canary.txt", (1_000_000_000, 1_000_000_000))
        cls.before = {name: fingerprint(target) for name, target in cls.targets.items()}

        # What corp's agent does to where its children's homes were.
        swap = "; ".join(
            f"if [ -e $HOME/{name} ]; then mv $HOME/{name} $HOME/{name}.old; fi; "
            f"ln -s {target} $HOME/{name}" for name, target in cls.targets.items())
        cls.swap = engine.run("run", "--agent", "command", "corp", swap + "; ls -la $HOME",
                              timeout=600)

        script = host / "claude-script.json"
        script.write_text(json.dumps(CLAUDE_SCRIPT))
        cls.turns = {}
        for folder in ("corp/eng", "corp/ops/sre"):
            command = engine.run("run", "--agent", "command", folder, CHILD_COMMAND, timeout=600)
            claude = engine.run("run", "--model-provider", "demo", "--model-script", str(script),
                                folder, "Read the canaries", timeout=600)
            cls.turns[folder] = {"command": command, "claude": claude}

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def turn_of(self, result):
        name = h.turn_name_from(result.stderr)
        return self.engine.turn(name), self.engine.events(name)

    def test_the_parent_made_its_links(self):
        self.assertEqual(self.swap.returncode, 0, self.swap.stderr)
        for name, target in self.targets.items():
            self.assertIn(f"{name} -> {target}", self.swap.stdout)

    def test_the_host_directories_are_not_written(self):
        for name, target in self.targets.items():
            now = fingerprint(target)
            with self.subTest(target=str(target)):
                changed = sorted(path for path in set(now) | set(self.before[name])
                                 if now.get(path) != self.before[name].get(path))
                self.assertEqual(changed, [], f"{target} changed")

    def test_the_canary_is_never_read(self):
        for folder, results in self.turns.items():
            for kind, result in results.items():
                turn, events = self.turn_of(result)
                seen = [line for line in result.stdout.splitlines() + [str(e["json"]) for e in events]
                        if CANARY in line]
                with self.subTest(folder=folder, kind=kind):
                    self.assertEqual(seen, [], f"the {kind} turn of {folder} read the host's canary")
                    if turn["state"] == "failed":
                        continue
                    # It tried: its reads ran and found no canary in its home.
                    tried = result.stdout + "".join(str(e["json"]) for e in events)
                    self.assertIn(DONE[kind], tried, (result.stderr, events))
                    self.assertRegex(tried, r"canary\.txt'?: No such file or directory")

    def test_each_child_turn_gets_its_own_home_or_fails_saying_why(self):
        corp = self.engine.home("corp")
        for folder, results in self.turns.items():
            home = self.engine.home(folder)
            self.assertFalse(home.is_symlink(), home)
            self.assertNotIn(str(corp) + "/", str(home) + "/", "a child's home inside its parent's")
            for kind, result in results.items():
                turn, events = self.turn_of(result)
                with self.subTest(folder=folder, kind=kind):
                    if turn["state"] == "failed":
                        self.assertIn("symbolic link", turn["error"] or "", turn)
                        continue
                    self.assertEqual(turn["state"], "done", (result.stderr, events))
                    if kind == "command":
                        self.assertIn("child-done", result.stdout)
                        self.assertEqual((home / "child-wrote.txt").read_text(),
                                         "written-by-the-child\n")
                    else:
                        self.assertEqual((home / "claude-wrote.txt").read_text(),
                                         "written-by-the-child\n")


if __name__ == "__main__":
    h.main()
