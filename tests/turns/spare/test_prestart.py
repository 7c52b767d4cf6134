"""A warm turn whose Claude Code, pi or Codex was started before its prompt, with real VMs
(TCG here), the real agent and the scripted model: the spare's guest starts
the agent in a scratch home of its own (a tmpfs), the turn's spec mounts the
folder's home over it and hands the agent its prompt on stdin. What the
agent saw before its prompt, what it keeps of the folder's data, and the
turns that fall back to launching it as a cold turn does.
docs/turns.md, "A warm turn whose agent is already started"."""

import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import turns_harness as h  # noqa: E402
from test_warm_start import Driver, console_log  # noqa: E402

CANARY = "folder-canary-7d1f"

# Run by the agent's Bash tool after its prompt: the turn's id (from the
# env file PID 1 writes with the spec), the home as the tool sees it, the
# started agent it found (the process whose binary is Claude Code's) and,
# through that agent's own cwd (a link to the directory it was started in,
# now under the folder's home), what it saw and wrote before its prompt:
# nothing (Claude Code writes ~/.claude.json only once it has its prompt,
# into the folder's home by then). An empty listing is also what a probe
# that found no agent would print, hence the agent's line and ls's errors.
PROBE = (
    'echo "turn=$ARIZUKO_TURN_ID"; cat "$HOME/marker"; '
    'for p in /proc/[0-9]*; do [ "$(readlink $p/exe)" = /usr/local/bin/claude ] && '
    'agent=$(basename $p) && break; done; '
    'echo "agent:$(readlink /proc/$agent/exe)"; '
    'echo "scratch:$(ls -A /proc/$agent/cwd/ 2>&1 | tr "\\n" " ")"; '
    'echo "mounts:$(grep -c " /home/agent " /proc/mounts)"')

# The same for pi, whose bash tool runs its command as pi's child: the
# agent is the shell's parent.
PI_PROBE = (
    'echo "turn=$ARIZUKO_TURN_ID"; cat "$HOME/marker"; '
    'echo "scratch:$(ls -A /proc/$PPID/cwd/ | tr "\\n" " ")"; '
    'echo "mounts:$(grep -c " /home/agent " /proc/mounts)"')

# The same for Codex, which runs each command in a login shell when started
# ahead (its shell snapshot off, so the turn's id comes through
# /etc/profile); the agent is the process whose binary is Codex's.
CODEX_PROBE = (
    'echo "turn=$ARIZUKO_TURN_ID"; cat "$HOME/marker"; '
    'for p in /proc/[0-9]*; do case "$(readlink $p/exe)" in */codex) agent=$(basename $p); '
    'break;; esac; done; '
    'echo "scratch:$(ls -A /proc/$agent/cwd/ | tr "\\n" " ")"; '
    'echo "mounts:$(grep -c " /home/agent " /proc/mounts)"')

CODEX_MODEL = "gpt-5.2"

SCRIPT = {
    "name": "prestart",
    "exchanges": [
        {"prompt": "codex probe", "steps": [
            {"text": "probing", "tool_use": {"name": "Bash", "input": {"command": CODEX_PROBE}}},
            {"text": "codex answered"}]},
        {"prompt": "codex hello", "steps": [{"text": "hello from codex"}]},
        {"prompt": "pi probe", "steps": [
            {"text": "probing", "tool_use": {"name": "bash", "input": {"command": PI_PROBE}}},
            {"text": "pi answered"}]},
        {"prompt": "pi hello", "steps": [{"text": "hello from pi"}]},
        {"prompt": "*", "steps": [
        {"text": "probing", "tool_use": {"name": "Bash", "input": {
            "command": PROBE, "description": "What the started agent sees"}}},
        {"text": "prestarted answer"}]}],
}


def wait_for_console(engine, spare, mark, timeout):
    h.wait_for(lambda: mark in console_log(engine, spare), timeout,
               what=f"{mark!r} on the spare's console")


def kinds(events):
    return [e["kind"] for e in events]


def first(events, kind):
    return next((e["json"] for e in events if e["kind"] == kind), None)


class Prestart(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        if not h.ARGS.spare_driver:
            raise AssertionError("--spare-driver is required")

    def setUp(self):
        self.engine = h.Engine()
        self.engine.add_folder("corp")
        self.home = self.engine.home("corp")
        self.home.mkdir(parents=True, exist_ok=True)
        self.script = pathlib.Path(self.engine.directory.name, "script.json")
        self.script.write_text(json.dumps(SCRIPT))
        self.driver = self.start_driver()

    def start_driver(self, extra_environment=None):
        return Driver(self.engine, {"ARIZUKO_MODEL_PROVIDER": "demo",
                                    "ARIZUKO_MODEL_SCRIPT": str(self.script),
                                    "ARIZUKO_PRESTART": "on", **(extra_environment or {})})

    def tearDown(self):
        self.driver.quit()
        self.engine.close()

    def started_spare(self):
        """A spare of corp whose guest has started the agent."""
        self.driver.send("spare corp")
        spare = self.driver.expect("spare-ready", 240, folder="corp")["name"]
        wait_for_console(self.engine, spare, "agent started ahead of its prompt", 120)
        return spare

    def run_turn(self, verb, topic, text, timeout=900):
        self.driver.send(f"{verb} corp {topic} {text}")
        turn = self.driver.expect("submitted", 30)["turn"]
        finished = self.driver.expect("finished", timeout, turn=turn)
        events = self.engine.events(turn)
        self.assertEqual(finished["state"], "done", events)
        return turn, events

    def run_prestarted_turn(self, verb, topic, text):
        """A turn the spare's started agent answered, its transcript the
        whole conversation, in order."""
        turn, events = self.run_turn(verb, topic, text)
        self.assertEqual(first(events, "prestart"), {"used": True}, events)
        order = [k for k in kinds(events) if k in ("init", "text", "tool_use", "tool_result",
                                                   "result")]
        self.assertEqual(order, ["init", "text", "tool_use", "tool_result", "text", "result"],
                         events)
        return turn, events

    def stored_session(self, topic):
        """The session the store keeps for corp's `topic`."""
        with self.engine.database() as db:
            return db.execute("SELECT session_id FROM sessions WHERE group_folder = 'corp' "
                              "AND topic = ?", (topic,)).fetchone()[0]

    def assert_probed_the_folders_home(self, turn, output, spare, scratch):
        """A started agent's probe saw the turn's id, the folder's home
        mounted over its scratch one (which held only `scratch`), and the
        started agent was used."""
        self.assertIn(f"turn={self.engine.turn(turn)['id']}", output)
        self.assertIn("the-home-is-mounted", output)
        listed = next(line for line in output.splitlines() if line.startswith("scratch:"))
        self.assertEqual(listed.split(), f"scratch:{scratch}".split(), output)
        self.assertIn("mounts:2", output)
        self.assertNotIn("not using the started agent", console_log(self.engine, spare))

    def test_a_started_agent_answers_without_having_seen_the_folder(self):
        (self.home / "marker").write_text("the-home-is-mounted\n")
        # Claude Code reads ~/.claude.json at its start and saves it again
        # later: the folder's must neither reach the started agent nor be
        # lost to what the agent wrote into its scratch home.
        (self.home / ".claude.json").write_text(json.dumps(
            {"arizukoCanary": CANARY, "numStartups": 41}))
        spare = self.started_spare()
        before = console_log(self.engine, spare)
        self.assertNotIn("home mounted", before, "the home was mounted before the spec")

        turn, events = self.run_prestarted_turn("claude", "first", "probe please")
        texts = [e["json"].get("text") for e in events if e["kind"] == "text"]
        self.assertEqual(texts, ["probing", "prestarted answer"])
        init = first(events, "init")
        # Its tool server (the spare's gateway) answered at the agent's start.
        self.assertEqual([(s.get("name"), s.get("status")) for s in init["mcp_servers"]],
                         [("arizuko", "connected")], init)
        output = first(events, "tool_result")["content"]
        # The probe found the started agent, which began in its scratch
        # home; that home held nothing, so never the folder's
        # ~/.claude.json, and the folder's home is mounted over it.
        self.assertIn("agent:/usr/local/bin/claude\n", output)
        self.assert_probed_the_folders_home(turn, output, spare, "")
        console = console_log(self.engine, spare)
        marks = ["agent started ahead of its prompt", "turn spec received", "home mounted",
                 "prompt to the started agent"]
        self.assertEqual([console.index(m) for m in marks],
                         sorted(console.index(m) for m in marks), console[-3000:])

        # The folder keeps its ~/.claude.json data, and the conversation is
        # the topic's, in the folder's home, under the agent's session.
        saved = json.loads((self.home / ".claude.json").read_text())
        self.assertEqual(saved.get("arizukoCanary"), CANARY, saved)
        session = init["session_id"]
        self.assertTrue(list(self.home.glob(f".claude/projects/*/{session}.jsonl")),
                        sorted(str(p) for p in self.home.rglob("*")))
        self.assertEqual(self.stored_session("first"), session)

        # The next turn of the topic resumes its session: Claude Code reads
        # it only at its start, so the next spare's agent is not used.
        self.driver.expect("spare-ready", 240, folder="corp")
        _, resumed = self.run_turn("claude", "first", "again")
        self.assertEqual(first(resumed, "prestart"),
                         {"used": False, "reason": "the topic resumes its session"}, resumed)
        self.assertEqual(first(resumed, "init")["session_id"], session)
        self.assertIn("prestarted answer",
                      [e["json"].get("text") for e in resumed if e["kind"] == "text"])

    def test_a_spec_the_started_agent_cannot_serve_launches_one_as_usual(self):
        (self.home / "marker").write_text("the-home-is-mounted\n")
        spare = self.started_spare()
        turn, events = self.run_turn("run", "main", "cat $HOME/marker; echo fell-back")
        self.assertEqual(first(events, "prestart"),
                         {"used": False, "reason": "the spare started Claude Code, the turn runs a command"}, events)
        lines = [e["json"].get("line") for e in events if e["kind"] == "event"]
        self.assertIn("the-home-is-mounted", lines)
        self.assertIn("fell-back", lines)
        console = console_log(self.engine, spare)
        self.assertIn("not using the started agent (the spec does not ask for the started agent)",
                      console)
        # Its scratch home went with it: the command saw one home mount.
        self.assertEqual(self.engine.turn(turn)["state"], "done")

    def test_a_home_with_settings_read_at_start_falls_back(self):
        (self.home / ".claude").mkdir()
        (self.home / ".claude" / "settings.json").write_text("{}\n")
        self.started_spare()
        _, events = self.run_turn("claude", "fresh", "probe please")
        self.assertEqual(first(events, "prestart"), {
            "used": False,
            "reason": "the home holds .claude/settings.json, which Claude Code reads only at "
                      "its start"}, events)
        self.assertIn("prestarted answer",
                      [e["json"].get("text") for e in events if e["kind"] == "text"])

    def test_a_started_pi_answers_in_the_folders_home(self):
        (self.home / "marker").write_text("the-home-is-mounted\n")
        # The folder's last turn ran pi, so its spare starts pi.
        self.run_turn("pi", "hello", "pi hello")
        spare = self.started_spare()
        turn, events = self.run_prestarted_turn("pi", "first", "pi probe")
        self.assertEqual(first(events, "result")["text"], "pi answered", events)
        output = first(events, "tool_result")["content"]
        # The turn's id from the env file (pi's shellCommandPrefix), the
        # folder's home mounted over the scratch one pi began in, which held
        # only the session directory PID 1 made there.
        self.assert_probed_the_folders_home(turn, output, spare, ".pi")
        # pi's session, named by its answer to get_state, is the topic's,
        # and its file is in the folder's home.
        session = first(events, "init")["session_id"]
        self.assertTrue(list(self.home.glob(f".pi/agent/sessions/*_{session}.jsonl")),
                        sorted(str(p) for p in self.home.rglob("*")))
        self.assertEqual(self.stored_session("first"), session)

        # pi reads AGENTS.md only at its start: the next spare's pi is not used.
        (self.home / "AGENTS.md").write_text("# Rules of the folder\n")
        self.driver.expect("spare-ready", 240, folder="corp")
        _, fell_back = self.run_turn("pi", "second", "pi probe")
        self.assertEqual(first(fell_back, "prestart"), {
            "used": False,
            "reason": "the home holds AGENTS.md, which pi reads only at its start"}, fell_back)
        self.assertEqual(first(fell_back, "result")["text"], "pi answered", fell_back)


    def test_a_started_codex_reads_its_prompt_and_answers_in_the_folders_home(self):
        # Codex's own default model (no model configured) offers its tools
        # through a JavaScript "code mode" the scripted model does not
        # speak; a model Codex has no metadata for gets plain tools, as in
        # agent.codex_turn. The runner's model is the spare's and the turn's.
        self.driver.quit()
        self.driver = self.start_driver({"ARIZUKO_MODEL": CODEX_MODEL})
        (self.home / "marker").write_text("the-home-is-mounted\n")
        # The folder's last turn ran Codex, so its spare starts Codex.
        self.run_turn("codex", "hello", "codex hello")
        spare = self.started_spare()
        turn, events = self.run_prestarted_turn("codex", "first", "codex probe")
        self.assertIn("codex answered",
                      [e["json"].get("text") for e in events if e["kind"] == "text"], events)
        output = first(events, "tool_result")["content"]
        # The turn's id from the env file (through /etc/profile), the
        # folder's home mounted over the scratch one Codex began in, which
        # held only the session directory PID 1 made there.
        self.assert_probed_the_folders_home(turn, output, spare, ".codex")
        # Codex names its thread only once it has the prompt: that thread is
        # the topic's, and its rollout file is in the folder's home.
        session = first(events, "init")["session_id"]
        self.assertTrue(list(self.home.glob(f".codex/sessions/*/*/*/rollout-*-{session}.jsonl")),
                        sorted(str(p) for p in self.home.rglob("*")))
        self.assertEqual(self.stored_session("first"), session)

        # Codex loads the project's .codex/config.toml (the home is a trusted
        # project: docs/agents.md) before it reads its prompt: the next
        # spare's Codex is not used. The file names the turn's own model, so
        # the Codex launched instead still reaches the scripted model.
        (self.home / ".codex" / "config.toml").write_text(f'model = "{CODEX_MODEL}"\n')
        self.driver.expect("spare-ready", 240, folder="corp")
        _, fell_back = self.run_turn("codex", "second", "codex probe")
        self.assertEqual(first(fell_back, "prestart"), {
            "used": False,
            "reason": "the home holds .codex/config.toml, which Codex reads only at its start"},
            fell_back)
        self.assertIn("codex answered",
                      [e["json"].get("text") for e in fell_back if e["kind"] == "text"], fell_back)


if __name__ == "__main__":
    h.main()
