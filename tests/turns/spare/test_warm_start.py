"""Warm start with real VMs (TCG here): a spare guest booted ahead of its
prompt by a long-lived runner (spare_driver: the window's own engine,
engine/engine/engine_impl), adopted by the next turn of its folder,
discarded when the folder's rules changed, yielding its slot, and
reaped after its engine died. docs/turns.md, "Warm start"."""

import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


class Driver:
    """The spare driver on one engine's data directory, read line by line."""

    def __init__(self, engine, extra_environment=None):
        environment = dict(engine.environment)
        environment["ARIZUKO_WARM_START"] = "on"
        environment.update(extra_environment or {})
        self.process = subprocess.Popen(
            [h.ARGS.spare_driver, "--data-dir", engine.data_dir], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        self.reports = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()
        self.expect("ready", timeout=120)

    def _read(self):
        for line in self.process.stdout:
            self.reports.put(json.loads(line))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, event, timeout, **fields):
        """The next report of `event` with `fields`; every report is kept in `seen`."""
        deadline = time.monotonic() + timeout
        for report in self.seen:
            if report["event"] == event and all(report.get(k) == v for k, v in fields.items()):
                self.seen.remove(report)
                return report
        while time.monotonic() < deadline:
            try:
                report = self.reports.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if report["event"] == "error":
                raise AssertionError(f"the driver reported: {report['message']}")
            if report["event"] == event and all(report.get(k) == v for k, v in fields.items()):
                return report
            self.seen.append(report)
        raise AssertionError(f"no {event} {fields} within {timeout} s; seen {self.seen}; "
                             f"stderr so far: {self._stderr()}")

    def _stderr(self):
        if self.process.poll() is None:
            return "(running)"
        return self.process.stderr.read()

    def quit(self):
        """Quits; the name of the spare the runner had then (empty: none)."""
        spare = ""
        if self.process.poll() is None:
            self.send("quit")
            spare = self.expect("quitting", 60)["spare"]
            self.process.wait(timeout=120)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()
        return spare


def console_log(engine, spare):
    path = pathlib.Path(engine.data_dir, "spares", spare, "console.log")
    return path.read_text(errors="replace") if path.exists() else ""


def wait_until_waiting_for_spec(engine, spare):
    """Until the spare's guest logs that it waits for its spec (booted)."""
    h.wait_for(lambda: "waiting for the turn spec" in console_log(engine, spare), 180,
               what="the spare's guest to wait for its spec")


def spare_event(engine, turn):
    return next((e["json"] for e in engine.events(turn) if e["kind"] == "spare"), None)


class WarmStart(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        h.require_guest_image()
        if not h.ARGS.spare_driver:
            raise AssertionError("--spare-driver is required")

    def setUp(self):
        self.engine = h.Engine()
        self.engine.add_folder("corp")
        self.drivers = []

    def tearDown(self):
        for driver in self.drivers:
            driver.quit()
        self.engine.close()

    def driver(self, extra_environment=None):
        driver = Driver(self.engine, extra_environment)
        self.drivers.append(driver)
        return driver

    def test_a_turn_adopts_a_ready_spare(self):
        home = self.engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        (home / "marker").write_text("the-home-is-mounted\n")
        driver = self.driver()
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        # Ready means the filter is bound to the spare's tap already (its
        # rules were read back by the engine before it said so).
        self.assertIn(f"{spare}-g", h.filter_binding_ports())
        wait_until_waiting_for_spec(self.engine, spare)
        before = console_log(self.engine, spare)
        self.assertNotIn("home mounted", before, "the guest mounted the home before its spec")
        self.assertNotIn("turn spec received", before)

        submitted = time.monotonic()
        driver.send("run corp main cat $HOME/marker; echo warm-agent-ran")
        turn = driver.expect("submitted", 30)["turn"]
        finished = driver.expect("finished", 300, turn=turn)
        self.assertEqual(finished["state"], "done", self.engine.events(turn))
        print(f"submit -> done (warm): {time.monotonic() - submitted:.2f} s", file=sys.stderr)

        event = spare_event(self.engine, turn)
        self.assertIsNotNone(event, "the turn recorded no spare event")
        self.assertTrue(event["adopted"], event)
        self.assertEqual(event["spare"], spare)
        self.assertEqual(self.engine.turn(turn)["vm_name"], spare)
        # Pretap (the default for root, and for a normal user through
        # arizuko-net-helper): the binding was made and its rules checked
        # before the spare's domain was created.
        self.assertIn("filter", event["made"], event)
        lines = [e["json"].get("line") for e in self.engine.events(turn) if e["kind"] == "event"]
        self.assertIn("the-home-is-mounted", lines)
        self.assertIn("warm-agent-ran", lines)
        console = console_log(self.engine, spare)
        order = [console.index(mark) for mark in
                 ("waiting for the turn spec", "turn spec received", "home mounted")]
        self.assertEqual(order, sorted(order), console[-2000:])
        # The turn's console log is the spare's.
        linked = pathlib.Path(self.engine.data_dir, "turns", self.engine.turn(turn)["id"],
                              "console.log")
        self.assertIn("home mounted", linked.read_text(errors="replace"))

        # The runner made the folder's next spare when the turn ended; the
        # engine's exit tears it down with everything else.
        spares = pathlib.Path(self.engine.data_dir, "spares")
        h.wait_for(lambda: [d for d in spares.iterdir() if d.name != spare], 60,
                   what="the next spare")
        next_spare = driver.quit()
        self.assertTrue(next_spare, "no spare was made after the turn ended")
        for name in (spare, next_spare):
            left = h.leftovers(name)
            self.assertEqual(left, {key: [] for key in left})

    def test_a_turn_submitted_while_its_spare_is_made_waits_and_adopts_it(self):
        driver = self.driver()
        driver.send("spare corp")
        spare = driver.expect("spare", 30)["name"]
        driver.send("run corp main echo adopted-while-booting")
        turn = driver.expect("submitted", 30)["turn"]
        self.assertEqual(driver.expect("finished", 300, turn=turn)["state"], "done",
                         self.engine.events(turn))
        event = spare_event(self.engine, turn)
        self.assertTrue(event and event["adopted"], event)
        self.assertEqual(event["spare"], spare)

    def test_a_spare_older_than_its_limit_is_dropped(self):
        driver = self.driver({"ARIZUKO_SPARE_MAX_AGE": "15"})
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        made = time.monotonic()
        discarded = driver.expect("spare-discarded", 60, name=spare)
        self.assertIn("older than 15 s", discarded["why"])
        self.assertGreaterEqual(time.monotonic() - made, 10)
        h.wait_for(lambda: not any(h.leftovers(spare).values()), 60,
                   what="the old spare to be torn down")

    def test_a_spare_whose_filter_went_missing_never_starts_the_agent(self):
        driver = self.driver({"ARIZUKO_FILTER_MODE": "pretap"})
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        wait_until_waiting_for_spec(self.engine, spare)
        # The rules were in force when the spare was made; they are not now.
        deleted = h.virsh("nwfilter-binding-delete", f"{spare}-g")
        self.assertEqual(deleted.returncode, 0, deleted.stderr)

        driver.send("run corp main echo the-agent-ran")
        turn = driver.expect("submitted", 30)["turn"]
        state = driver.expect("finished", 300, turn=turn)["state"]
        events = self.engine.events(turn)
        self.assertNotIn("the-agent-ran", [e["json"].get("line") for e in events
                                           if e["kind"] == "event"],
                         "the agent ran although its filter was not in force")
        self.assertEqual(state, "failed")
        self.assertTrue(spare_event(self.engine, turn)["adopted"])
        self.assertNotIn("running", [e["json"].get("state") for e in events
                                     if e["kind"] == "status"])
        self.assertEqual(self.engine.turn(turn)["error_code"], "libvirt.nwfilter-missing")
        self.assertNotIn("turn spec received", console_log(self.engine, spare))

    def test_a_changed_rule_discards_the_spare_and_the_turn_runs_with_the_new_rule(self):
        allowed = self.engine.run("network", "allow", "corp", "stale.example")
        self.assertEqual(allowed.returncode, 0, allowed.stderr)
        driver = self.driver()
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        removed = self.engine.run("network", "rm", "corp", "stale.example")
        self.assertEqual(removed.returncode, 0, removed.stderr)

        driver.send("run corp main timeout 15 wget -q -O - http://stale.example/; echo fetched")
        turn = driver.expect("submitted", 30)["turn"]
        self.assertEqual(driver.expect("finished", 300, turn=turn)["state"], "done",
                         self.engine.events(turn))
        decisions = [e["json"] for e in self.engine.events(turn)
                     if e["kind"] == "network" and e["json"].get("event") == "decision"
                     and e["json"].get("host") == "stale.example"]
        self.assertTrue(decisions, f"the proxy saw no request for stale.example: {self.engine.events(turn)}")
        # With the removed rule still in force the proxy would pass the name
        # and fail to resolve it (resolve-failed, no DNS here): the reason
        # tells which list decided.
        self.assertEqual({d["reason"] for d in decisions}, {"host-not-allowed"},
                         "the removed rule was still in force: a stale allowlist was used")
        event = spare_event(self.engine, turn)
        self.assertIsNotNone(event)
        self.assertFalse(event["adopted"], event)
        self.assertIn("allowlist", event["reason"])
        self.assertNotEqual(self.engine.turn(turn)["vm_name"], spare)
        driver.expect("spare-discarded", 30, name=spare)
        h.wait_for(lambda: not any(h.leftovers(spare).values()), 60,
                   what="the discarded spare to be torn down")

    def test_a_spare_of_a_folder_replaced_under_its_name_is_discarded(self):
        """`folder move corp old; folder add corp`: the new corp is another
        folder, and the spare made for the old one shares old's files. It
        is matched by the folder's home id and the home's device and inode,
        not by the path, so the new corp's turn starts cold in its own home."""
        (self.engine.home("corp") / "marker").write_text("old-corp-files\n")
        driver = self.driver()
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        for arguments in (("folder", "move", "corp", "old"), ("folder", "add", "corp")):
            done = self.engine.run(*arguments)
            self.assertEqual(done.returncode, 0, done.stderr)

        driver.send("run corp main ls -a $HOME; cat $HOME/marker; echo new-corp-ran")
        turn = driver.expect("submitted", 30)["turn"]
        self.assertEqual(driver.expect("finished", 300, turn=turn)["state"], "done",
                         self.engine.events(turn))
        lines = [e["json"].get("line") for e in self.engine.events(turn) if e["kind"] == "event"]
        self.assertIn("new-corp-ran", lines)
        self.assertNotIn("old-corp-files", lines, "the new corp's turn saw old's files")
        event = spare_event(self.engine, turn)
        self.assertIsNotNone(event, "the turn recorded no spare event")
        self.assertFalse(event["adopted"], event)
        self.assertIn("the folder's identity", event["reason"])
        self.assertNotEqual(self.engine.turn(turn)["vm_name"], spare)
        driver.expect("spare-discarded", 30, name=spare)
        h.wait_for(lambda: not any(h.leftovers(spare).values()), 60,
                   what="the discarded spare to be torn down")

    def test_a_spare_yields_its_slot_to_a_queued_turn_of_another_folder(self):
        self.engine.add_folder("other")
        driver = self.driver({"ARIZUKO_MAX_TURNS": "1"})
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        driver.send("run other main echo other-ran")
        turn = driver.expect("submitted", 30)["turn"]
        discarded = driver.expect("spare-discarded", 30, name=spare)
        self.assertIn("slot", discarded["why"])
        self.assertEqual(driver.expect("finished", 300, turn=turn)["state"], "done",
                         self.engine.events(turn))
        self.assertIsNone(spare_event(self.engine, turn), "a turn of another folder used the spare")

    def test_arizukoctl_run_never_makes_a_spare(self):
        engine = h.Engine({"ARIZUKO_WARM_START": "on"})
        try:
            engine.add_folder("corp")
            run = engine.run("run", "--agent", "command", "corp", "true", timeout=600)
            self.assertEqual(run.returncode, 0, run.stderr)
            name = engine.turns()[-1]["name"]
            self.assertIsNone(spare_event(engine, name))
            self.assertFalse(pathlib.Path(engine.data_dir, "spares").exists(),
                             "the one-shot runner made a spare")
        finally:
            engine.close()

    def test_the_reaper_spares_a_live_engines_spare_and_reaps_a_dead_ones(self):
        driver = self.driver()
        driver.send("spare corp")
        spare = driver.expect("spare-ready", 180, folder="corp")["name"]
        # Another engine starting now (arizukoctl) must leave it alone.
        other = self.engine.run("run", "--agent", "command", "no-such-folder", "true", timeout=120)
        self.assertNotIn(spare, other.stderr)
        self.assertIn(spare, h.active_domains())
        self.assertIn(spare, h.active_networks())

        # Every engine start reaps (tests run in parallel: turns.reaper's,
        # turns.errors', ...), so any of them may be the one that reaps the
        # dead engine's spare. Until it is waited for, the killed driver is
        # a zombie whose /proc/<pid>/stat keeps its start time: every
        # reaper still counts its engine alive, so what it left is still
        # there to be seen.
        os.kill(driver.process.pid, signal.SIGKILL)
        h.wait_for(lambda: spare not in h.active_domains(), 30, what="libvirt to destroy the VM")
        left = h.leftovers(spare)
        self.assertEqual(left["networks"], [spare], left)
        self.assertIn(f"{spare}-g", left["filter_bindings"], left)
        driver.process.wait(timeout=10)
        # Now dead: this start reaps it, unless another engine that started
        # since did (then this one has nothing of it left to name).
        restart = self.engine.run("run", "--agent", "command", "no-such-folder", "true",
                                  timeout=120)
        self.assertIn("[engine] accelerator", restart.stderr, restart.stderr)
        left = h.leftovers(spare)
        self.assertEqual(left, {key: [] for key in left}, restart.stderr)


if __name__ == "__main__":
    h.main()
