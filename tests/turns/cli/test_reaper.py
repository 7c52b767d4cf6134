"""The startup reaper: what a dead engine left behind (its network, its proxy,
its turn row) is cleaned up by the next engine start; what a live engine owns
is left alone."""

import os
import pathlib
import secrets
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

TIMESTAMP = "2026-01-01T00:00:00.000Z"
AS_TEST_USER = pathlib.Path(__file__).resolve().parents[2] / "as-test-user"


def process_start_time(pid):
    text = pathlib.Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()[19]


def dead_pid():
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def free_subnet():
    """A /30 in 10.213.0.0/16 that the host does not route."""
    routed = []
    for line in pathlib.Path("/proc/net/route").read_text().splitlines()[1:]:
        columns = line.split()
        destination = int.from_bytes(bytes.fromhex(columns[1]), "little")
        mask = int.from_bytes(bytes.fromhex(columns[7]), "little")
        if mask:
            routed.append((destination & mask, mask))
    base = (10 << 24) | (213 << 16)
    for offset in range(0x3000, 0x10000, 4):  # away from where turns start
        network = base + offset
        if all((network & mask) != destination and (destination & 0xFFFFFFFC) != network
               for destination, mask in routed):
            return network
    raise AssertionError("no free /30 for the test network")


def dotted(address):
    return ".".join(str((address >> shift) & 255) for shift in (24, 16, 8, 0))


class Reaper(unittest.TestCase):
    def setUp(self):
        self.engine = h.Engine({"ARIZUKO_ACCELERATOR": "tcg"})
        self.engine.add_folder("corp")
        self.created = []

    def tearDown(self):
        for kind, name in reversed(self.created):
            if kind == "binding":
                h.virsh("nwfilter-binding-delete", name)
            elif kind == "tap":
                subprocess.run(["ip", "link", "del", "dev", name], capture_output=True)
            elif kind == "network":
                h.virsh("net-destroy", name)
            else:
                try:
                    os.kill(name, 9)
                except ProcessLookupError:
                    pass
        self.engine.close()

    def orphan_network(self, owner=None):
        name = "az-r" + secrets.token_hex(4)[:7]
        network = free_subnet()
        metadata = (f"<metadata><arizuko:turn xmlns:arizuko='https://arizuko.dev/xmlns/turn/1' "
                    f"engine='{owner}'/></metadata>" if owner else "")
        xml = (f"<network><name>{name}</name>{metadata}<bridge name='{name}'/><dns enable='no'/>"
               f"<ip address='{dotted(network + 1)}' netmask='255.255.255.252'/></network>")
        with tempfile.NamedTemporaryFile("w", suffix=".xml") as file:
            file.write(xml)
            file.flush()
            result = h.virsh("net-create", file.name)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.created.append(("network", name))
        return name

    def tap_with_binding(self, network, owner):
        """What a pretap turn has between its VM's end and its network's: the
        engine's tap on the bridge, marked with its owner, and the filter
        binding on it (an engine killed mid-teardown leaves exactly these)."""
        tap = f"{network}-g"
        made = subprocess.run(["ip", "-batch", "-"], input=(
            f"tuntap add dev {tap} mode tap vnet_hdr\n"
            f"link set dev {tap} master {network} alias arizuko-engine={owner} up\n"),
            capture_output=True, text=True)
        self.assertEqual(made.returncode, 0, made.stderr)
        self.created.append(("tap", tap))
        xml = (f"<filterbinding><owner><name>{network}</name>"
               f"<uuid>6f1d2c3b-0000-4000-8000-{secrets.token_hex(6)}</uuid></owner>"
               f"<portdev name='{tap}'/><mac address='52:54:00:12:34:56'/>"
               f"<filterref filter='arizuko-turn'><parameter name='IP' value='10.213.255.2'/>"
               f"<parameter name='GUEST_IP' value='10.213.255.2'/><parameter name='HOST_IP' value='10.213.255.1'/>"
               f"<parameter name='PROXY_PORT' value='40001'/><parameter name='GATEWAY_PORT' value='3129'/>"
               f"</filterref></filterbinding>")
        with tempfile.NamedTemporaryFile("w", suffix=".xml") as file:
            file.write(xml)
            file.flush()
            bound = h.virsh("nwfilter-binding-create", file.name)
        self.assertEqual(bound.returncode, 0, bound.stderr)
        self.created.append(("binding", tap))
        return tap

    def plant_until_seen(self, plant):
        """Objects of a dead owner are fair game for any engine that starts
        meanwhile (tests run in parallel), which may reap them before this
        test's engine starts: planted again until they are all still there
        once planted."""
        for attempt in range(3):
            network, tap = plant()
            if tap in h.filter_binding_ports() and h.bridge_exists(tap):
                return network, tap
        self.fail("other engines reaped the planted tap first, three times")

    def orphan_proxy(self, name, owner):
        environment = dict(os.environ, ARIZUKO_TURN=name, ARIZUKO_ENGINE=owner)
        proxy = subprocess.Popen([h.ARGS.egress, "--listen", "127.0.0.1:0", "--client", "127.0.0.1"],
                                 env=environment, stderr=subprocess.DEVNULL)
        self.created.append(("process", proxy.pid))
        return proxy

    def insert_turn(self, name, state, pid, started):
        turn_id = secrets.token_hex(16)
        with self.engine.database() as db:
            db.execute("INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at, "
                       "running_at, engine_pid, engine_started, network_name) "
                       "VALUES (?, ?, 'corp', 'main', 'command', 'sleep 1', ?, ?, ?, ?, ?, ?)",
                       (turn_id, name, state, TIMESTAMP, TIMESTAMP, pid, started, name))
            db.execute("INSERT INTO turn_events (turn, seq, kind, json, at) VALUES (?, 1, 'event', "
                       "'{\"line\":\"before the crash\"}', ?)", (turn_id, TIMESTAMP))
        return turn_id

    def start_engine(self):
        # Any engine start reaps; a run on a folder that does not exist starts
        # the engine and stops right after.
        return self.engine.run("run", "--agent", "command", "no-such-folder", "true", timeout=120)

    def plant_dead_owners_objects(self):
        """A dead engine's turn row in this data directory and its network:
        the control that the engine under test really started and reaped in
        the same run. Only this engine reads this store, so the row's reap
        is its own; the network may be reaped by any engine that starts
        meanwhile (tests run in parallel), so it only has to be gone."""
        dead = dead_pid()
        network = self.orphan_network(f"{dead}:12345")
        name = "az-r" + secrets.token_hex(4)[:7]
        self.insert_turn(name, "running", dead, "12345")
        return name, network

    def assert_the_engine_ran_and_reaped(self, result, planted):
        """A "left alone" check means nothing if the engine never got as far
        as reaping (libvirtd unreachable, a crash): in the same run it must
        have started, reaped the dead owner's turn and failed only on the
        missing folder."""
        turn, network = planted
        self.assertIn("[engine] accelerator", result.stderr, f"the engine did not start:\n{result.stderr}")
        self.assertIn(f"turns {turn} interrupted", result.stderr, result.stderr)
        self.assertEqual(self.engine.turn(turn)["state"], "interrupted")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("folder 'no-such-folder' does not exist", result.stderr,
                      "the run failed for another reason than the folder")
        self.assertNotIn(network, h.active_networks())

    def test_a_dead_engines_network_proxy_and_turn_are_reaped(self):
        dead = dead_pid()
        name = self.orphan_network(f"{dead}:12345")
        proxy = self.orphan_proxy(name, f"{dead}:12345")
        self.insert_turn(name, "running", dead, "12345")

        result = self.start_engine()
        self.assertIn(f"turns {name} interrupted", result.stderr)
        self.assertNotIn(name, h.active_networks())
        self.assertFalse(h.bridge_exists(name))
        self.assertEqual(proxy.wait(timeout=10), -9)
        turn = self.engine.turn(name)
        self.assertEqual(turn["state"], "interrupted")
        self.assertEqual(turn["error_code"], "turns.interrupted")
        self.assertIsNotNone(turn["ended_at"])
        events = self.engine.events(name)
        self.assertEqual(events[0]["json"]["line"], "before the crash", "events up to the crash are kept")

    def test_a_dead_engines_tap_and_filter_binding_are_reaped_after_a_kill_mid_teardown(self):
        dead = dead_pid()

        def plant():
            network = self.orphan_network(f"{dead}:12345")
            return network, self.tap_with_binding(network, f"{dead}:12345")

        name, tap = self.plant_until_seen(plant)
        # Teardown runs after the turn is done, so the row is no longer live.
        self.insert_turn(name, "done", dead, "12345")
        planted = self.plant_dead_owners_objects()

        result = self.start_engine()
        self.assert_the_engine_ran_and_reaped(result, planted)
        self.assertNotIn(tap, h.filter_binding_ports())
        self.assertFalse(h.bridge_exists(tap))
        self.assertNotIn(name, h.active_networks())
        self.assertEqual(self.engine.turn(name)["state"], "done")

    def test_a_live_engines_tap_and_filter_binding_are_left_alone(self):
        me = f"{os.getpid()}:{process_start_time(os.getpid())}"
        name = self.orphan_network(me)
        tap = self.tap_with_binding(name, me)
        self.assertIn(tap, h.filter_binding_ports())
        planted = self.plant_dead_owners_objects()
        result = self.start_engine()
        self.assert_the_engine_ran_and_reaped(result, planted)
        self.assertIn(tap, h.filter_binding_ports())
        self.assertTrue(h.bridge_exists(tap))

    def test_a_live_engines_turn_is_left_alone(self):
        # This test process plays the live engine that owns the turn.
        me = f"{os.getpid()}:{process_start_time(os.getpid())}"
        name = self.orphan_network(me)
        proxy = self.orphan_proxy(name, me)
        self.insert_turn(name, "running", os.getpid(), process_start_time(os.getpid()))
        planted = self.plant_dead_owners_objects()

        result = self.start_engine()
        self.assert_the_engine_ran_and_reaped(result, planted)
        self.assertIn(name, h.active_networks())
        self.assertIsNone(proxy.poll())
        self.assertEqual(self.engine.turn(name)["state"], "running")

    def test_a_live_engines_objects_are_left_alone_by_an_engine_of_another_data_directory(self):
        me = f"{os.getpid()}:{process_start_time(os.getpid())}"
        name = self.orphan_network(me)
        proxy = self.orphan_proxy(name, me)
        planted = self.plant_dead_owners_objects()
        result = self.start_engine()  # its store knows nothing of this turn
        self.assert_the_engine_ran_and_reaped(result, planted)
        self.assertIn(name, h.active_networks())
        self.assertIsNone(proxy.poll())

    def test_an_orphan_this_user_may_not_remove_is_named_and_the_engine_still_starts(self):
        """A normal user's engine next to another user's dead engine: the
        leftover tap is root's, which only root or its owner may delete. The
        user's engine must start anyway and say what it left; it used to
        fail to start, and every turn with it. Any engine starting meanwhile
        (tests run in parallel) may reap the planted tap first, so it is
        planted again until this engine is the one that meets it."""
        user_data = tempfile.TemporaryDirectory(prefix="arizuko-reaper-user-")
        self.addCleanup(user_data.cleanup)
        command = [str(AS_TEST_USER), "--writable", user_data.name, "--",
                   h.ARGS.arizukoctl, "--data-dir", os.path.join(user_data.name, "data"),
                   "run", "--agent", "command", "no-such-folder", "true"]
        for attempt in range(3):
            dead = dead_pid()
            network = self.orphan_network(f"{dead}:12345")
            tap = self.tap_with_binding(network, f"{dead}:12345")
            result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                    env=self.engine.environment)
            self.assertIn("[engine] accelerator", result.stderr,
                          f"the user's engine did not start:\n{result.stderr}")
            self.assertIn("folder 'no-such-folder' does not exist", result.stderr, result.stderr)
            if h.bridge_exists(tap):
                break
        else:
            self.fail("other engines reaped the planted tap first, three times")
        self.assertIn(f"[engine] left behind, could not be removed: {tap}: ", result.stderr,
                      result.stderr)
        self.assertNotIn(network, h.active_networks(), "what the user may remove is removed")
        self.assertNotIn(tap, h.filter_binding_ports())

    def test_objects_named_like_no_turn_at_all_are_reaped(self):
        name = self.orphan_network()
        self.start_engine()
        self.assertNotIn(name, h.active_networks())


if __name__ == "__main__":
    h.main()
