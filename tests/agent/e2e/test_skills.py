"""A folder's skills in a real turn: skills/<name>/SKILL.md in the home is
listed in Claude Code's system/init; a malformed front matter refuses the
turn before any VM starts, naming the file and the field."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, ScriptedUpstream, new_canary, engine_with_upstream  # noqa: E402

SCRIPT = {"name": "skills", "exchanges": [{"prompt": "*", "steps": [{"text": "Skills seen."}]}]}
MODEL = "claude-sonnet-4-5"


def write_skill(home, name, content):
    path = home / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(content)


class Skills(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.upstream = ScriptedUpstream(SCRIPT)
        cls.engine = engine_with_upstream(cls.upstream, new_canary())
        cls.engine.add_folder("good")
        cls.engine.add_folder("bad")
        write_skill(cls.engine.home("good"), "release-notes",
                    "---\nname: release-notes\ndescription: Writes the release notes.\n---\n\nSteps.\n")
        write_skill(cls.engine.home("bad"), "release-notes", "---\nname: release-notes\n---\n\nSteps.\n")
        cls.good = cls.engine.run("run", "--model", MODEL, "good", "which skills", timeout=600)
        cls.bad = cls.engine.run("run", "--model", MODEL, "bad", "which skills", timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.upstream.close()
        cls.engine.close()

    def test_a_valid_skill_is_listed_in_system_init(self):
        self.assertEqual(self.good.returncode, 0, self.good.stderr)
        name = h.turn_name_from(self.good.stderr)
        init = [e["json"] for e in self.engine.events(name) if e["kind"] == "init"][0]
        self.assertIn("release-notes", init["skills"])
        # The home keeps the folder's layout: nothing was written into it.
        self.assertFalse((self.engine.home("good") / ".claude" / "skills").exists())

    def test_malformed_front_matter_refuses_the_turn_naming_file_and_field(self):
        self.assertEqual(self.bad.returncode, 1)
        self.assertIn("skills/release-notes/SKILL.md: front matter field 'description' is missing",
                      self.bad.stderr)
        turn = self.engine.turn(h.turn_name_from(self.bad.stderr))
        self.assertEqual(turn["state"], "failed")
        self.assertEqual(turn["error_code"], "skills.malformed")
        self.assertIsNone(turn["vm_name"], "refused before any VM started")


if __name__ == "__main__":
    h.main()
