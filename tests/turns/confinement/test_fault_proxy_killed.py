"""kill -9 of the turn's proxy mid-turn: the turn fails closed
(turns.proxy-died), no traffic of the guest leaves afterwards (no request
reaches the allowed server, nothing from the guest reaches the outside
namespace), the events up to the kill are kept and nothing is left. A
witness on the turn's tap shows the guest kept trying the proxy after the
kill, so "nothing arrived" is not just a guest that had stopped.

A running engine notices the death at once and destroys the VM within a
second, before the guest tries again; so the test holds the engine
(SIGSTOP) from just before the kill until the guest has tried the dead
proxy for a while, then lets it go (SIGCONT) and expects the turn to fail
within 3 s of that."""

import ipaddress
import os
import pathlib
import signal
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
import frame_witness  # noqa: E402
from confinement_support import h  # noqa: E402

# Every 0.3 s: a request to the allowed server and one to the (allowed)
# outside through the proxy, and a raw connect to the outside (in the
# background, so a blackholed connect never pauses the requests).
LOOP = r"""
i=0
while [ $i -lt 600 ]; do
    i=$((i + 1))
    if timeout 3 wget -q -O - "http://127.0.0.1:$APP_PORT/tick?n=$i" >/dev/null 2>&1; then
        echo "tick-$i ok"; else echo "tick-$i failed"; fi
    timeout 3 wget -q -O - "http://$OUTSIDE:8080/?n=$i" >/dev/null 2>&1
    (timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/8080"' "$OUTSIDE" 2>/dev/null && echo "raw-$i connected") &
    sleep 0.3
done
"""




class ProxyKilled(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        h.set_up_engine(cls, {"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1"})

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        for target in ("127.0.0.1", c.OUTSIDE_ADDRESS):
            engine.run("network", "allow", "corp", target)
        home = engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        (home / "loop.sh").write_text(LOOP)
        with c.OutsideNamespace() as outside:
            controller = c.Controller()
            try:
                command = f"APP_PORT={controller.port} OUTSIDE={c.OUTSIDE_ADDRESS} bash $HOME/loop.sh"
                run = engine.start("run", "--deadline", "300", "--agent", "command", "corp", command)
                try:
                    h.wait_for(lambda: sum(p.startswith("/tick") for p in controller.paths()) >= 3, 240,
                               what="three requests through the proxy")
                    turn = next(t for t in engine.turns() if t["state"] == "running")
                    cls.proxy_pid = turn["proxy_pid"]
                    cls.host_ip, cls.proxy_port = turn["proxy_address"].rsplit(":", 1)
                    cls.guest_ip = str(ipaddress.ip_network(turn["subnet"])[2])
                    tap = frame_witness.FrameWitness(turn["name"] + "-g")
                    environment = pathlib.Path(f"/proc/{cls.proxy_pid}/environ").read_bytes()
                    if f"ARIZUKO_TURN={turn['name']}".encode() not in environment.split(b"\0"):
                        raise AssertionError(f"pid {cls.proxy_pid} is not the proxy of {turn['name']}")
                    try:
                        # The witness's positive control: a SYN to the live proxy.
                        h.wait_for(lambda: tap.syns_in(src=cls.guest_ip, dst=cls.host_ip,
                                                       dport=int(cls.proxy_port)), 30,
                                   what="the tap witness to see a SYN to the proxy")
                        cls.syns_before = len(tap.syns_in(dst=cls.host_ip, dport=int(cls.proxy_port)))
                        os.kill(run.pid, signal.SIGSTOP)
                        try:
                            os.kill(cls.proxy_pid, signal.SIGKILL)
                            cls.killed_at = time.time()
                            cls._watch_the_guest_try(tap)
                        finally:
                            os.kill(run.pid, signal.SIGCONT)
                            cls.resumed_at = time.time()
                        cls.out, cls.err = run.communicate(timeout=120)
                        cls.returncode = run.returncode
                    finally:
                        tap.close()
                    cls.tap = tap
                finally:
                    run.kill()
                    run.communicate()
                # Anything in flight at the kill has arrived by now.
                cls.requests = list(controller.requests)
            finally:
                controller.close()
            cls.outside_records = list(outside.records)
            cls.outside_from_turns = outside.seen_from(c.TURN_POOL)
        cls.name = h.turn_name_from(cls.err)
        cls.turn = engine.turn(cls.name)
        cls.events = engine.events(cls.name)

    @classmethod
    def _watch_the_guest_try(cls, tap, seconds=30, attempts=3):
        """While the engine is held: wait until the guest has made
        `attempts` connections to the dead proxy's port, and then a further
        one. The guest's loop is sequential, so a connection from a new
        source port means the earlier attempts have ended: whatever they
        could have let through has arrived."""
        def connections():
            syns = tap.syns_in(src=cls.guest_ip, dst=cls.host_ip, dport=int(cls.proxy_port),
                               after=cls.killed_at)
            return {syn["sport"] for syn in syns}
        h.wait_for(lambda: len(connections()) > attempts, seconds, 0.05,
                   f"{attempts + 1} connections of the guest to the dead proxy's port")

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_fails_closed_at_once(self):
        self.assertEqual(self.returncode, 1, self.err[-2000:])
        self.assertEqual(self.turn["state"], "failed")
        self.assertEqual(self.turn["error_code"], "turns.proxy-died")
        self.assertGreaterEqual(h.moment(self.turn["finishing_at"]).timestamp(), self.killed_at)
        # The engine was held until resumed_at; it must then act at once.
        self.assertLess(h.moment(self.turn["finishing_at"]).timestamp() - self.resumed_at, 3.0)

    def test_the_guest_kept_trying_the_proxy_after_the_kill(self):
        """Without this, "nothing arrived after the kill" could mean only
        that the guest had stopped sending."""
        self.assertGreater(self.syns_before, 0, "positive control: the witness saw SYNs to the live proxy")
        after = self.tap.syns_in(src=self.guest_ip, dst=self.host_ip, dport=int(self.proxy_port),
                                 after=self.killed_at + 0.05)
        self.assertTrue(after, "no attempt of the guest to reach the proxy after the kill: the "
                               "checks below would hold vacuously")
        answered = self.tap.syn_acks_out(src=self.host_ip, sport=int(self.proxy_port), after=self.killed_at)
        self.assertFalse(answered, "something answered on the dead proxy's port")
        print(f"{len(after)} SYNs to the dead proxy, the last {after[-1]['at'] - self.killed_at:.2f} s "
              f"after the kill", file=sys.stderr)

    def test_no_request_reaches_the_allowed_server_after_the_kill(self):
        ticks = [at for at, path in self.requests if path.startswith("/tick")]
        self.assertGreaterEqual(len(ticks), 3, "positive control: the proxy worked before the kill")
        late = [at - self.killed_at for at in ticks if at > self.killed_at + 0.2]
        self.assertFalse(late, "requests arrived after the proxy was killed (s after the kill)")

    def test_nothing_of_the_guest_reaches_the_outside(self):
        before = [r for r in self.outside_records if r["kind"] == "tcp" and r["at"] < self.killed_at]
        self.assertTrue(before, "positive control: the proxy reached the allowed outside host")
        self.assertTrue(all(r["peer"] == c.HOST_SIDE for r in before), before)
        after = [r for r in self.outside_records if r["kind"] == "tcp" and r["at"] > self.killed_at + 0.2]
        self.assertFalse(after, "the outside was reached after the proxy was killed")
        self.assertFalse(self.outside_from_turns, "a packet of the guest reached the outside")
        raw = [e for e in self.events if e["kind"] == "event" and "connected" in e["json"]["line"]]
        self.assertFalse(raw, "a raw connect from the guest succeeded")

    def test_the_events_up_to_the_kill_are_kept(self):
        lines = [e["json"]["line"] for e in self.events if e["kind"] == "event"]
        self.assertIn("tick-1 ok", lines)
        self.assertIn("turns.proxy-died", [e["json"].get("code") for e in self.events if e["kind"] == "error"])

    def test_the_proxy_is_gone_and_nothing_is_left(self):
        self.assertFalse(pathlib.Path(f"/proc/{self.proxy_pid}").exists()
                         and b"arizuko-egress" in pathlib.Path(f"/proc/{self.proxy_pid}/cmdline").read_bytes())
        left = h.leftovers(self.name)
        self.assertEqual(left, {key: [] for key in left})


if __name__ == "__main__":
    h.main()
