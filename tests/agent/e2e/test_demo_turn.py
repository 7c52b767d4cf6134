"""The offline demo model drives each agent, with its default settings,
through its labelled demonstration: a command, a file in the home, an
allowed host through the proxy, a refused one, and a closing text. Claude
Code is the default agent; Codex runs exactly what the user guide has a
newcomer type, with no model pinned (Codex 0.171.0's default model asks in
its code mode, its tools nested in a JavaScript `exec` tool). No key, no
network, no setting for tests: the allowed host is the demo page the engine
serves on 127.213.0.1, which only a demo turn's proxy may reach, and the
fetch of it really succeeds through the proxy. The folder allows nothing
itself."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, agent_kinds  # noqa: E402


class Demonstration:
    """What every agent's demo turn shows; RUN is the command after
    `arizukoctl run`."""
    RUN = ()

    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.engine = h.Engine({})
        cls.engine.add_folder("demo")
        cls.result = cls.engine.run("run", *cls.RUN, timeout=600)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_demonstration_completes(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.engine.turn(self.name)["state"], "done")
        agent = agent_kinds(self.events)
        uses = [e["json"]["input"]["command"] for e in agent if e["kind"] == "tool_use"]
        self.assertEqual(len(uses), 4, uses)
        results = [e["json"]["content"] for e in agent if e["kind"] == "tool_result"]
        self.assertEqual(len(results), 4, results)
        # The command's own lines first: Codex's shell sets LC_ALL=C.UTF-8,
        # which the image has (no "bash: warning: setlocale" before them).
        self.assertRegex(results[0], r"^Linux 6\.")
        self.assertFalse([r for r in results if "setlocale" in r], results)
        # The demo page's text came back through the proxy.
        self.assertIn("Hello from the Arizuko demo page.", results[2])
        self.assertIn("403 Forbidden", results[3])
        texts = [e["json"]["text"] for e in agent if e["kind"] == "text"]
        self.assertTrue(all("Demo model" in text for text in texts), texts)
        self.assertEqual(agent[-1]["kind"], "result")

    def test_the_note_is_in_the_home(self):
        note = self.engine.home("demo") / "demo-note.txt"
        self.assertIn("demo model", note.read_text())

    def test_the_proxy_let_the_allowed_host_through_and_refused_the_other(self):
        decisions = [e["json"] for e in self.events
                     if e["kind"] == "network" and e["json"].get("event") == "decision"]
        # The proxy's own decision lines, each host's in full: the page's
        # is an allow (reason "allowed", 200), not merely no refusal.
        lines = sorted((d["host"], d["decision"], d["reason"], d["status"]) for d in decisions)
        self.assertEqual(lines, [("127.213.0.1", "allow", "allowed", 200),
                                 ("not-on-the-allowlist.example", "deny", "host-not-allowed", 403)])
        closed = [e["json"] for e in self.events if e["kind"] == "network"
                  and e["json"].get("event") == "close" and e["json"]["host"] == "127.213.0.1"]
        self.assertGreater(closed[0]["bytes_down"], 0, closed)

    def test_the_demo_is_free(self):
        self.assertEqual(self.engine.turn(self.name)["cost_usd"], 0)

    def test_the_agent_warns_of_nothing(self):
        # What the agent wrote on stderr reaches the user as "[agent] …".
        warnings = [line for line in self.result.stderr.splitlines()
                    if line.startswith("[agent]") and "warning" in line.lower()]
        self.assertEqual(warnings, [], self.result.stderr)


class DemoTurn(Demonstration, unittest.TestCase):
    RUN = ("--model-provider", "demo", "demo", "Show me what you can do")

    def test_a_turn_that_is_no_demo_may_not_reach_the_page(self):
        # Another folder allows the page's address by name: its command
        # turn's proxy still refuses it, as a loopback address.
        self.engine.add_folder("plain")
        allowed = self.engine.run("network", "allow", "plain", "127.213.0.1")
        self.assertEqual(allowed.returncode, 0, allowed.stderr)
        result = self.engine.run("run", "--agent", "command", "plain",
                                 "wget -q -O- http://127.213.0.1/ 2>&1 || true", timeout=600)
        self.assertEqual(result.returncode, 0, result.stderr)
        decisions = [e["json"] for e in self.engine.events(h.turn_name_from(result.stderr))
                     if e["kind"] == "network" and e["json"].get("event") == "decision"]
        self.assertEqual([(d["host"], d["decision"], d["reason"]) for d in decisions],
                         [("127.213.0.1", "deny", "private-address")])


class CodexDemoTurn(Demonstration, unittest.TestCase):
    # Exactly what the user guide has a newcomer type: no model pinned.
    RUN = ("demo", "--agent", "codex", "--model-provider", "demo", "Show me what you can do.")

    def test_it_was_codex(self):
        self.assertEqual(self.engine.turn(self.name)["agent"], "codex")
        init = [e["json"] for e in self.events if e["kind"] == "init"]
        self.assertEqual(init[0]["agent"], "codex", init)


if __name__ == "__main__":
    h.main()
