"""Mode pretap creates the VM beside the proxy and the filter binding, so the
one gate before the agent is the turn spec: it goes out only once the proxy
is healthy and the filter's rules are seen in force. A proxy that listens
but never answers /health, held for longer than the guest takes to boot:
the guest boots and waits, never gets its spec, never starts the agent, and
the turn fails on the proxy with nothing left behind."""

import pathlib
import stat
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

# Says where it listens (the engine reads it from stderr) and never serves.
NEVER_HEALTHY = """#!/bin/sh
echo '{"event":"listening","addr":"127.0.0.1:9"}' >&2
exec sleep 600
"""


class SpecGate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        cls.engine = h.Engine()
        cls.engine.add_folder("corp")
        proxy = pathlib.Path(cls.engine.directory.name, "arizuko-egress")
        proxy.write_text(NEVER_HEALTHY)
        proxy.chmod(proxy.stat().st_mode | stat.S_IXUSR)
        cls.engine.environment.update({
            "ARIZUKO_EGRESS_BIN": str(proxy),
            "ARIZUKO_FILTER_MODE": "pretap",
            # Far longer than the guest's boot to its first message, also on
            # a loaded machine (30-45 s at load 13 on two cores).
            "ARIZUKO_PROXY_HEALTH_TIMEOUT_MS": "90000",
        })
        cls.result = cls.engine.run("run", "--agent", "command", "corp",
                                    "echo the-agent-ran", timeout=300)
        cls.name = h.turn_name_from(cls.result.stderr)
        cls.turn = cls.engine.turn(cls.name)
        cls.events = cls.engine.events(cls.name)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_fails_on_the_proxy(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr)
        self.assertEqual(self.turn["state"], "failed")
        self.assertEqual(self.turn["error_code"], "turns.proxy-unhealthy", self.turn["error"])

    def test_the_guest_booted_and_waited(self):
        statuses = [e["json"].get("state") for e in self.events if e["kind"] == "status"]
        self.assertIn("booted", statuses, "the VM was to boot beside the proxy")

    def test_no_spec_went_out_and_no_agent_ran(self):
        steps = [e["json"]["step"] for e in self.events if e["kind"] == "timing"]
        self.assertNotIn("spec", steps)
        statuses = [e["json"].get("state") for e in self.events if e["kind"] == "status"]
        self.assertNotIn("running", statuses)
        self.assertNotIn("the-agent-ran", self.result.stdout)
        self.assertNotIn("exit", [e["kind"] for e in self.events])

    def test_nothing_of_the_turn_is_left(self):
        h.wait_for(lambda: not any(h.leftovers(self.name).values()), 60, what="teardown")
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
