"""Confinement, proven from inside a real guest running as root.

Two turns run at once through the real arizukoctl, libvirtd, nwfilter and
arizuko-egress. Turn A's agent (guest_attacks.sh) uses the proxy as any
agent would, then tries every other way out; turn B only exists so that A
has a neighbour to attack. Each escape is its own test method below, and
each one checks that the tool the attempt used exists in the guest, and
that the same turn's positive controls passed, so a broken guest network
cannot make an escape test pass.

What the tests enable beyond production, and nothing else:
- ARIZUKO_PROXY_ALLOW_LOOPBACK=1: the proxy gets --allow-loopback, so the
  allowed test server may be on 127.0.0.1 (every other proxy flag is the
  engine's own; test_the_proxy_runs_with_the_production_flags checks them);
- IP forwarding is ON while the tests run, and an "outside" network
  namespace (198.18.0.2, RFC 2544, routed only to a local veth) stands for
  the world beyond the host;
- the turn's bridge gets an IPv6 link-local address (libvirt leaves IPv6
  off on it) and a global one (2001:db8:a21:1::1/64), so the guest has
  host-side IPv6 peers to try;
- turn A's engine runs in its own mount namespace with an /etc/hosts that
  names outside.test (198.18.0.2) and private.test (10.254.254.2), so the
  proxy it spawns resolves an allowed NAME to a private address.

Host-side witnesses (frame_witness.py) watch turn A's tap (everything the
guest sent, before any filter) and its bridge (what got past the filter's
layer 2, and what the host sent back). A blocked attempt counts only when
the tap saw it leave the guest and the witness on the far side saw nothing.
"""

import ipaddress
import os
import pathlib
import socket
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
import frame_witness  # noqa: E402
from confinement_support import h  # noqa: E402

BLOCKED = ("timeout", "unreachable")


class Confinement(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        cls.engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1", "ARIZUKO_MAX_TURNS": "2"})
        cls.plan_error = None
        cls.plan_facts = {}
        cls.witnesses = []
        try:
            cls._run_both_turns()
        except BaseException:
            cls.engine.close()
            raise

    @classmethod
    def _run_both_turns(cls):
        engine = cls.engine
        engine.add_folder("corp")
        engine.add_folder("other")
        for target in ("127.0.0.1", c.OUTSIDE_ADDRESS, c.OUTSIDE_PRIVATE_ADDRESS, c.OUTSIDE_NAME,
                       c.PRIVATE_NAME):
            result = engine.run("network", "allow", "corp", target)
            if result.returncode != 0:
                raise AssertionError(f"network allow corp {target}: {result.stderr}")
        home = engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        c.put_guest_script(home, "guest_attacks.sh", "attacks.sh")

        with c.OutsideNamespace() as outside:
            controller = c.Controller()
            host_tcp = c.Listener(socket.AF_INET, socket.SOCK_STREAM, "0.0.0.0")
            host_tcp6 = c.Listener(socket.AF_INET6, socket.SOCK_STREAM, "::")
            cls.host_udp = []
            with c.closing_all(controller, host_tcp, host_tcp6):
                cls.controller, cls.host_tcp, cls.host_tcp6 = controller, host_tcp, host_tcp6
                controller.plan_source = lambda: cls._plan(outside)
                bystander = engine.start("run", "--agent", "command", "--topic", "bystander", "other",
                                         "echo bystander-up; sleep 280")
                attacker = engine.start("run", "--agent", "command", "--deadline", "400", "corp",
                                        f"APP_PORT={controller.port} bash $HOME/attacks.sh",
                                        prefix=c.hosts_file_prefix(engine.directory.name))
                try:
                    cls.out, cls.err = attacker.communicate(timeout=480)
                    cls.returncode = attacker.returncode
                finally:
                    attacker.kill()
                    cls._stop_bystander(bystander)
                    for listener in cls.host_udp + cls.witnesses:
                        listener.close()
            cls.outside_records = list(outside.records)
            cls.outside_from_turns = outside.seen_from(c.TURN_POOL)
            cls.outside_ipv6 = outside.ipv6_packets()
        cls.name = h.turn_name_from(cls.err)
        cls.turn = engine.turn(cls.name)
        cls.events = engine.events(cls.name)
        cls.attempts, cls.tools = c.attempts_from(cls.events)
        for name, (outcome, detail) in sorted(cls.attempts.items()):
            print(f"{name}: {outcome} {detail[:160]}", file=sys.stderr)

    @classmethod
    def _stop_bystander(cls, process):
        bystander = next((t for t in cls.engine.turns() if t["group_folder"] == "other"), None)
        if bystander and bystander["state"] not in ("done", "failed", "cancelled", "interrupted"):
            cls.engine.run("cancel", bystander["name"], timeout=60)
        try:
            process.communicate(timeout=60)
        finally:
            process.kill()
        cls.bystander = cls.engine.turn(bystander["name"]) if bystander else None

    @classmethod
    def _plan(cls, outside):
        """Called when turn A's guest asks for its plan: both turns run now."""
        try:
            return cls._make_plan(outside)
        except BaseException as error:
            cls.plan_error = repr(error)
            raise

    @classmethod
    def _make_plan(cls, outside):
        engine = cls.engine

        def running(folder):
            turn = next((t for t in engine.turns() if t["group_folder"] == folder), None)
            return turn if turn and turn["state"] == "running" and turn["proxy_address"] else None
        mine = h.wait_for(lambda: running("corp"), 30, what="turn A running")
        other = h.wait_for(lambda: running("other"), 240, what="the bystander turn running")
        host_ip, proxy_port = mine["proxy_address"].rsplit(":", 1)
        cls.plan_facts["host_ip"] = host_ip
        cls.plan_facts["proxy_port"] = proxy_port
        other_host, other_port = other["proxy_address"].rsplit(":", 1)
        other_guest = str(ipaddress.ip_network(other["subnet"])[2])

        # The proxies' command lines, to check they are the production ones.
        cls.plan_facts["proxy_argv"] = c.proxy_command_line(mine["proxy_pid"])
        cls.plan_facts["guest_ip"] = str(ipaddress.ip_network(mine["subnet"])[2])
        cls.plan_facts["other_turn"] = other["name"]
        cls.plan_facts["other_guest_ip"] = other_guest
        # UDP/53 on the turn's own host address, where a resolver would be.
        udp = c.Listener(socket.AF_INET, socket.SOCK_DGRAM, host_ip, 53)
        cls.host_udp.append(udp)
        # The other turn's proxy, asked by anyone but its own guest (here the
        # host, from turn A's host address), refuses.
        cls.plan_facts["other_proxy_answer"] = foreign_client_request(host_ip, other_host,
                                                                      int(other_port))
        link_local = c.enable_bridge_ipv6(mine["name"])
        global_v6 = c.add_bridge_global_ipv6(mine["name"])
        cls.plan_facts["bridge_link_local"] = link_local
        cls.plan_facts["bridge_global"] = global_v6
        bridge_mac = pathlib.Path(f"/sys/class/net/{mine['name']}/address").read_text().strip()
        cls.plan_facts["bridge_mac"] = bridge_mac
        # The witnesses, before the guest has its plan and attacks.
        cls.tap = frame_witness.FrameWitness(mine["name"] + "-g")
        cls.witnesses.append(cls.tap)
        cls.bridge = frame_witness.FrameWitness(mine["name"], promiscuous=True)
        cls.witnesses.append(cls.bridge)
        return {
            "HOST_IP": host_ip,
            "PROXY_PORT_FROM_DB": proxy_port,
            "HOST_TCP_PORT": cls.host_tcp.port,
            "HOST_TCP6_PORT": cls.host_tcp6.port,
            "HOST_OTHER_ADDRESSES": " ".join(a for a in c.host_ipv4_addresses() if a != host_ip),
            "HOST_GLOBAL_IPV6": global_v6,
            "GUEST_GLOBAL_IPV6": c.GUEST_GLOBAL_IPV6,
            "BRIDGE_LINK_LOCAL": link_local,
            "BRIDGE_MAC": bridge_mac,
            "OUTSIDE_NAME": c.OUTSIDE_NAME,
            "PRIVATE_NAME": c.PRIVATE_NAME,
            "OUTSIDE_ADDRESS": c.OUTSIDE_ADDRESS,
            "OUTSIDE_PRIVATE_ADDRESS": c.OUTSIDE_PRIVATE_ADDRESS,
            "OUTSIDE_TCP_PORT": outside.tcp_port,
            "OTHER_PROXY_HOST": other_host,
            "OTHER_PROXY_PORT": other_port,
            "OTHER_HOST_IP": other_host,
            "OTHER_GUEST_IP": other_guest,
        }

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    # --- helpers

    def require_tools(self, *tools):
        missing = [t for t in tools if self.tools.get(t) != "present"]
        self.assertFalse(missing, f"the guest lacks {missing}: the attempt proves nothing")

    def attempt(self, name):
        self.assertIsNone(self.plan_error, f"the plan could not be made: {self.plan_error}")
        self.assertIn(name, self.attempts, f"the guest never reported {name}:\n{self.out}\n{self.err}")
        return self.attempts[name]

    def assert_positive_controls(self):
        self.assertEqual(self.attempt("positive-control-plan")[0], "ok")
        self.assertEqual(self.attempt("raw-tcp-proxy-port")[0], "connected",
                         "the same tool must reach the proxy, or 'blocked' means nothing")
        self.assertEqual(self.attempt("positive-control-final")[0], "ok")

    def assert_batch_controls(self, batch):
        """The connect that must succeed, made while the batch's probes were
        in flight: a guest too slow to connect within the caps would fail it."""
        outcome, detail = self.attempt(f"positive-control-batch-{batch}")
        self.assertEqual(outcome, "connected", f"positive control in the {batch} batch: {detail}")
        if batch == "ipv4":
            outcome, detail = self.attempt("positive-control-batch-ipv4-http")
            self.assertEqual(outcome, "http-200", detail)
            self.assertIn("body=hello-from-allowed", detail)

    def assert_blocked(self, name):
        outcome, detail = self.attempt(name)
        self.assertIn(outcome, BLOCKED, f"{name}: {outcome} {detail}")

    def assert_sent_and_dropped(self, name):
        """The packets left the guest (the host's MAC was pinned, so no ARP
        stood in the way) and nothing came back: the filter dropped them."""
        outcome, detail = self.attempt(name)
        self.assertEqual(outcome, "timeout", f"{name}: {detail}")

    def assert_no_reply(self, name):
        outcome, detail = self.attempt(name)
        self.assertEqual(outcome, "replies=0", f"{name}: {detail}")

    def target_of(self, name):
        """(host, port) of a tcp/udp attempt, from its detail "... host:port ..."."""
        for word in self.attempt(name)[1].split():
            host, _, port = word.rpartition(":")
            if host and port.isdigit() and "=" not in host:
                return host.split("%")[0], int(port)
        self.fail(f"no host:port in {name}: {self.attempt(name)[1]}")

    def guest_mac(self):
        detail = self.attempt("guest-network")[1]
        return dict(w.split("=", 1) for w in detail.split() if "=" in w)["mac"]

    def assert_syn_left_the_guest(self, name, source=None):
        """The tap saw the attempt's SYN: it reached connect(), so its
        timeout is the network's answer, not the guest's slowness. The
        source address and MAC tell it from another probe to the same
        target (the spoofing probes reuse targets)."""
        host, port = self.target_of(name)
        source = source or self.plan_facts["guest_ip"]
        self.assertTrue(self.tap.syns_in(src=source, src_mac=self.guest_mac(), dst=host, dport=port),
                        f"{name}: no SYN from {source} to {host}:{port} ever left the guest, so its "
                        f"outcome {self.attempt(name)[0]} proves nothing")

    def assert_host_never_answered(self, name):
        """No SYN-ACK from the attempt's target went out through the turn's
        bridge: nothing on or behind the host accepted the SYN."""
        host, port = self.target_of(name)
        answered = self.bridge.syn_acks_out(src=host, sport=port, dst=self.plan_facts["guest_ip"])
        self.assertFalse(answered, f"{name}: {host}:{port} answered the guest's SYN: {answered[:3]}")

    def test_the_turn_ran_in_the_filter_mode_it_was_pinned_to(self):
        """CMake runs this file once per filter mode (turns.confinement in
        pretap, turns.confinement_classic in classic): every claim below
        holds in the mode named, never in whichever the engine chose."""
        mode = os.environ.get("ARIZUKO_FILTER_MODE")
        self.assertIn(mode, ("pretap", "classic"), "ARIZUKO_FILTER_MODE must pin the mode")
        parts = next(e["json"]["ms"] for e in self.events
                     if e["kind"] == "timing" and e["json"]["step"] == "domain-create-parts")
        # In pretap the engine makes the tap itself and times it.
        self.assertEqual("tap" in parts, mode == "pretap", parts)

    def test_the_witnesses_see_what_they_must(self):
        """Positive control of the witnesses themselves: the guest's SYN to
        its proxy is on the tap and on the bridge, and the proxy's SYN-ACK
        leaves through the bridge."""
        self.attempt("raw-tcp-proxy-port")
        guest, host = self.plan_facts["guest_ip"], self.plan_facts["host_ip"]
        port = int(self.plan_facts["proxy_port"])
        self.assertTrue(self.tap.syns_in(src=guest, dst=host, dport=port), "the tap saw no SYN to the proxy")
        self.assertTrue(self.bridge.syns_in(src=guest, dst=host, dport=port),
                        "the bridge saw no SYN to the proxy")
        self.assertTrue(self.bridge.syn_acks_out(src=host, sport=port, dst=guest),
                        "the bridge saw no SYN-ACK from the proxy")

    def guest_network(self):
        return ipaddress.ip_network(self.turn["subnet"])

    def peers_from_turns(self, listener):
        return [p for p in listener.peers if ipaddress.ip_address(p.split("%")[0]) in c.TURN_POOL
                or ipaddress.ip_address(p.split("%")[0]).version == 6]

    # --- the turn itself

    def test_the_turn_ran_to_the_end_as_root(self):
        self.assertEqual(self.returncode, 0, self.err[-3000:])
        self.assertEqual(self.turn["state"], "done")
        self.assertEqual(self.attempt("done")[0], "ok")
        self.assertEqual(self.attempt("agent-uid")[0], "0",
                         "the agent is not root in the guest, so the IP/MAC/IPv6 attacks were not "
                         "made as root (the engine must send uid 0; see docs/guest.md)")

    def test_positive_control_the_guest_network_works(self):
        self.require_tools("wget", "bash", "timeout")
        self.assert_positive_controls()

    def test_the_proxy_runs_with_the_production_flags(self):
        argv = [a.decode() for a in self.plan_facts["proxy_argv"]]
        self.assertIn("--deny-private", argv)
        self.assertIn("--allow-loopback", argv, "the one flag the test enables")
        self.assertNotIn("--allow-all", argv)
        self.assertEqual(argv[argv.index("--client") + 1], self.plan_facts["guest_ip"])
        allowed = argv[argv.index("--allow") + 1].split(",")
        self.assertEqual(sorted(allowed),
                         sorted(["127.0.0.1", c.OUTSIDE_ADDRESS, c.OUTSIDE_PRIVATE_ADDRESS, c.OUTSIDE_NAME,
                                 c.PRIVATE_NAME]))

    # --- through the proxy

    def test_the_allowed_host_answers_through_the_proxy_http(self):
        self.require_tools("bash", "timeout")
        outcome, detail = self.attempt("proxy-http-allowed")
        self.assertEqual(outcome, "http-200", detail)
        self.assertIn("body=hello-from-allowed", detail)

    def test_the_allowed_host_answers_through_the_proxy_connect(self):
        self.require_tools("bash", "timeout")
        outcome, detail = self.attempt("proxy-connect-allowed")
        self.assertEqual(outcome, "http-200", detail)
        self.assertIn("body=hello-from-allowed", detail)

    def test_an_allowed_outside_host_is_reached_only_through_the_proxy(self):
        self.require_tools("bash", "timeout")
        outcome, detail = self.attempt("proxy-http-outside-allowed")
        self.assertEqual(outcome, "http-200", detail)
        self.assertIn("body=hello-from-outside", detail)
        came = [r["peer"] for r in self.outside_records if r["kind"] == "tcp"]
        # By address and by name (outside.test): both times the proxy, on the host.
        self.assertEqual(came, [c.HOST_SIDE, c.HOST_SIDE], "the outside saw the proxy (the host), nobody else")

    def test_a_host_off_the_list_gets_403_with_its_reason(self):
        self.require_tools("bash", "timeout")
        for name in ("proxy-http-off-list", "proxy-connect-off-list"):
            with self.subTest(name):
                outcome, detail = self.attempt(name)
                self.assertEqual(outcome, "http-403", detail)
                self.assertIn("reason=host-not-allowed", detail)
                self.assertIn("arizuko-egress: host-not-allowed", detail)
        decisions = [e["json"] for e in self.events if e["kind"] == "network"]
        self.assertIn("denied.example", [d.get("host") for d in decisions if d.get("decision") == "deny"])

    def test_a_private_address_on_the_allowlist_gets_403(self):
        self.require_tools("bash", "timeout")
        outcome, detail = self.attempt("proxy-http-private-address")
        self.assertEqual(outcome, "http-403", detail)
        self.assertIn("reason=private-address", detail)
        self.assertFalse([r for r in self.outside_records if r.get("dst") == c.OUTSIDE_PRIVATE_ADDRESS],
                         "the proxy must not dial a private address")

    # --- allowed names that resolve to what the proxy must not dial

    def test_an_allowed_name_resolves_through_the_engines_hosts_file(self):
        """Positive control for the next test: the proxy resolves names
        through the test's /etc/hosts and reaches outside.test."""
        self.require_tools("bash", "timeout")
        outcome, detail = self.attempt("proxy-http-name-outside")
        self.assertEqual(outcome, "http-200", detail)
        self.assertIn("body=hello-from-outside", detail)

    def test_an_allowed_name_that_resolves_to_a_private_address_gets_403(self):
        self.require_tools("bash", "timeout")
        for name in ("proxy-http-name-private", "proxy-connect-name-private"):
            with self.subTest(name):
                outcome, detail = self.attempt(name)
                self.assertEqual(outcome, "http-403", detail)
                self.assertIn("reason=private-address", detail)
        self.assertFalse([r for r in self.outside_records if r.get("dst") == c.OUTSIDE_PRIVATE_ADDRESS],
                         "the proxy dialled the private address behind an allowed name")
        decisions = [e["json"] for e in self.events if e["kind"] == "network"]
        self.assertIn(c.PRIVATE_NAME, [d.get("host") for d in decisions if d.get("decision") == "deny"])

    # --- raw TCP (one parallel batch, with its own positive controls)

    def test_raw_tcp_to_another_host_port_fails(self):
        self.require_tools("bash", "timeout")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        self.assert_blocked("raw-tcp-host-other-port")
        self.assert_syn_left_the_guest("raw-tcp-host-other-port")
        self.assert_host_never_answered("raw-tcp-host-other-port")
        self.assertFalse(self.peers_from_turns(self.host_tcp), self.host_tcp.peers)

    def test_raw_tcp_to_the_hosts_other_addresses_fails(self):
        self.require_tools("bash", "timeout")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        names = [n for n in self.attempts if n.startswith("raw-tcp-host-address-")]
        self.assertGreaterEqual(len(names), 2, "the host has eth0 and the veth address at least")
        for name in names:
            with self.subTest(name, detail=self.attempts[name][1]):
                self.assert_blocked(name)
                self.assert_syn_left_the_guest(name)
                self.assert_host_never_answered(name)
        self.assertFalse(self.peers_from_turns(self.host_tcp), self.host_tcp.peers)

    def test_raw_tcp_to_an_outside_address_fails(self):
        self.require_tools("bash", "timeout")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        for name in ("raw-tcp-outside", "raw-tcp-outside-private"):
            with self.subTest(name):
                self.assert_blocked(name)
                self.assert_syn_left_the_guest(name)
                self.assert_host_never_answered(name)
        self.assertFalse(self.outside_from_turns, "a packet from a turn reached the outside")

    # --- UDP, ICMP

    def test_udp_53_goes_nowhere(self):
        self.require_tools("bash", "timeout", "nslookup")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        for name in ("udp-53-host", "udp-53-outside", "dns-lookup-host", "dns-lookup-outside"):
            self.attempt(name)
        for name in ("dns-lookup-host", "dns-lookup-outside"):
            with self.subTest(name):
                self.assertNotEqual(self.attempt(name)[0], "rc=0", self.attempt(name)[1])
        guest = self.plan_facts["guest_ip"]
        for name in ("udp-53-host", "udp-53-outside"):
            with self.subTest(name):
                host, port = self.target_of(name)
                self.assertTrue(self.tap.incoming(proto=17, src=guest, src_mac=self.guest_mac(), dst=host,
                                                  dport=port),
                                f"{name}: no datagram to {host}:{port} ever left the guest")
        self.assertTrue(self.host_udp, "the host's UDP/53 listener was never opened")
        for listener in self.host_udp:
            self.assertFalse(listener.peers, "a datagram from the guest reached the host's port 53")
        self.assertFalse([r for r in self.outside_from_turns if r.get("proto") == "udp" or r["kind"] == "udp"])

    def test_icmp_goes_nowhere(self):
        self.require_tools("ping")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        guest = self.plan_facts["guest_ip"]
        for name in ("icmp-host", "icmp-outside", "icmp-other-turn-host"):
            with self.subTest(name):
                self.assert_no_reply(name)
                target = self.attempt(name)[1].split()[0]
                self.assertTrue(self.tap.incoming(proto=1, icmp_type=8, src=guest, src_mac=self.guest_mac(),
                                                  dst=target),
                                f"{name}: no echo request to {target} ever left the guest")
                self.assertFalse(self.bridge.outgoing(proto=1, icmp_type=0, src=target, dst=guest),
                                 f"{name}: {target} answered the guest")
        self.assertFalse([r for r in self.outside_from_turns if r.get("proto") == "icmp"])

    # --- IPv6

    def assert_no_ipv6_got_past_the_tap(self):
        """The bridge received no IPv6 frame at all (it has only this
        guest's tap as a port), while it did receive the guest's IPv4."""
        self.assertTrue(self.bridge.incoming(family=4, src=self.plan_facts["guest_ip"]),
                        "positive control: the bridge witness saw none of the guest's IPv4")
        leaked = self.bridge.incoming(ethertype=0x86DD)
        self.assertFalse(leaked, f"IPv6 frames of the guest got past its tap: {leaked[:3]}")

    def assert_ipv6_aimed_at(self, address):
        """The guest's IPv6 attempt towards `address` left the guest: the tap
        saw a frame to it or its neighbour solicitation."""
        aimed = [f for f in self.tap.incoming(family=6)
                 if f["dst"] in (address, c.solicited_node(address))]
        self.assertTrue(aimed, f"no IPv6 frame towards {address} ever left the guest "
                               f"(tap saw {[f['dst'] for f in self.tap.incoming(family=6)][:10]})")

    def test_ipv6_is_off_in_the_guest_at_first(self):
        """The guest's own default (not a boundary: root can turn it on,
        which the next tests do)."""
        self.require_tools("ip", "bash", "timeout")
        self.assertEqual(self.attempt("ipv6-disabled")[0], "1", "the guest starts with IPv6 off")
        self.assertEqual(self.attempt("ipv6-routes")[0], "count=0", self.attempt("ipv6-routes")[1])
        # Without IPv6 the guest has no source address for the host's: the
        # connect fails in the guest itself. Not counted as a block.
        outcome, detail = self.attempt("raw-tcp6-global")
        self.assertNotEqual(outcome, "connected", detail)
        self.assertIn("Cannot assign requested address", detail)

    def test_ipv6_to_the_hosts_global_address_goes_nowhere(self):
        self.require_tools("ip", "sysctl", "bash", "timeout")
        self.assert_batch_controls("ipv6")
        self.assertEqual(self.attempt("ipv6-enabled-by-root")[0], "0")
        self.assertIn(c.GUEST_GLOBAL_IPV6, self.attempt("ipv6-attack-set")[1],
                      "root must have put an address on the host's /64, or the attempt aims nowhere")
        target = self.plan_facts["bridge_global"]
        self.assertEqual(self.target_of("raw-tcp6-global-after-enable")[0], target,
                         "the attempt must aim at the host's own global address")
        outcome, detail = self.attempt("raw-tcp6-global-after-enable")
        # Neighbour discovery fails (dropped at the tap), so connect() ends
        # with "no route to host" or runs into the cap; either counts only
        # with the witnesses below.
        self.assertIn(outcome, BLOCKED, detail)
        self.assert_ipv6_aimed_at(target)
        self.assert_no_ipv6_got_past_the_tap()
        self.assertFalse(self.host_tcp6.peers, self.host_tcp6.peers)

    def test_ipv6_link_local_to_the_host_goes_nowhere(self):
        self.require_tools("ip", "sysctl", "ping", "bash", "timeout")
        self.assert_batch_controls("ipv6")
        self.assertTrue(self.plan_facts.get("bridge_link_local", "").startswith("fe80:"))
        self.assertEqual(self.attempt("ipv6-enabled-by-root")[0], "0",
                         "root must have turned IPv6 on, or the link-local attempts prove nothing")
        self.assertIn("fe80", self.attempt("ipv6-enabled-by-root")[1])
        self.assert_blocked("raw-tcp6-link-local")
        self.assert_no_reply("icmp6-link-local")
        # The guest may hear its own all-nodes echo; the host must not answer.
        self.assertNotIn(self.plan_facts["bridge_link_local"], self.attempt("icmp6-all-nodes")[1])
        self.assertEqual(self.attempt("ipv6-neighbours")[0], "count=0",
                         "no IPv6 neighbour (the host's bridge) was ever learnt")
        self.assert_ipv6_aimed_at(self.plan_facts["bridge_link_local"])
        self.assert_no_ipv6_got_past_the_tap()
        self.assertFalse(self.host_tcp6.peers, self.host_tcp6.peers)
        self.assertFalse(self.outside_ipv6)

    # --- spoofing: the tap must see the spoofed frames leave the guest and
    # the bridge must never receive them, while it receives the same probe
    # from the guest's real address and MAC.

    def test_a_changed_ip_address_gets_no_traffic_through(self):
        self.require_tools("ip", "arp", "awk", "bash", "timeout")
        self.assertEqual(self.attempt("spoofed-ip-set")[0], "ok")
        spoofed = self.plan_facts["other_guest_ip"]
        self.assertIn(spoofed + "/30", self.attempt("spoofed-ip-set")[1])
        self.assertRegex(self.attempt("spoofed-ip-set")[1], "host-mac=([0-9a-f]{2}:){5}[0-9a-f]{2}")
        for name in ("spoofed-ip-own-proxy", "spoofed-ip-other-proxy", "spoofed-ip-outside"):
            with self.subTest(name):
                self.assert_sent_and_dropped(name)
                self.assert_syn_left_the_guest(name, source=spoofed)
        leaked = self.bridge.incoming(src=spoofed)
        self.assertFalse(leaked, f"frames from the spoofed address {spoofed} got past the tap: {leaked[:3]}")
        # The same probe from the real address does get past the tap.
        self.assertEqual(self.attempt("restored-ip-proxy-port")[0], "connected")
        self.assertTrue(self.bridge.syns_in(src=self.plan_facts["guest_ip"], dst=self.plan_facts["host_ip"],
                                            dport=int(self.plan_facts["proxy_port"])))
        self.assertEqual(self.attempt("positive-control-final")[0], "ok")
        self.assertFalse(self.outside_from_turns)

    def test_a_changed_mac_address_gets_no_traffic_through(self):
        self.require_tools("ip", "arp", "bash", "timeout", "ping")
        spoofed_mac = "52:54:00:de:ad:01"
        self.assertIn(spoofed_mac, self.attempt("spoofed-mac-set")[1])
        self.assertRegex(self.attempt("spoofed-mac-set")[1], "host-mac=([0-9a-f]{2}:){5}[0-9a-f]{2}")
        self.assert_sent_and_dropped("spoofed-mac-own-proxy")
        self.assert_sent_and_dropped("spoofed-mac-outside")
        self.assert_no_reply("spoofed-mac-icmp-host")
        for name in ("spoofed-mac-own-proxy", "spoofed-mac-outside"):
            with self.subTest(name):
                host, port = self.target_of(name)
                self.assertTrue(self.tap.syns_in(src_mac=spoofed_mac, dst=host, dport=port),
                                f"{name}: no SYN from {spoofed_mac} ever left the guest")
        leaked = self.bridge.incoming(src_mac=spoofed_mac)
        self.assertFalse(leaked, f"frames from the spoofed MAC got past the tap: {leaked[:3]}")
        real_mac = self.guest_mac()
        self.assertTrue(self.bridge.syns_in(src_mac=real_mac, dst=self.plan_facts["host_ip"],
                                            dport=int(self.plan_facts["proxy_port"])),
                        "positive control: the real MAC's SYN to the proxy got past the tap")
        self.assertEqual(self.attempt("positive-control-final")[0], "ok")

    # --- the other turn

    def test_the_other_turns_proxy_port_is_unreachable(self):
        self.require_tools("bash", "timeout")
        self.assert_positive_controls()
        self.assert_batch_controls("ipv4")
        self.assert_blocked("raw-tcp-other-proxy")
        self.assert_sent_and_dropped("spoofed-ip-other-proxy")
        other = self.engine.events(self.plan_facts["other_turn"])
        guest_ip = self.plan_facts["guest_ip"]
        seen = [e["json"] for e in other if e["kind"] == "network" and e["json"].get("client") == guest_ip]
        self.assertFalse(seen, "the other turn's proxy heard from this guest")

    def test_the_other_turns_proxy_never_answered_a_syn_of_this_guest(self):
        """The decision log above is silent for a connection that sends no
        bytes; the SYN witnesses are not: the guest's SYN to the other proxy
        left its tap, and no SYN-ACK from the other proxy came back."""
        self.assert_syn_left_the_guest("raw-tcp-other-proxy")
        self.assert_host_never_answered("raw-tcp-other-proxy")

    def test_the_other_turns_proxy_refuses_anyone_but_its_guest(self):
        answer = self.plan_facts.get("other_proxy_answer", "")
        self.assertTrue(answer.startswith("HTTP/1.1 403"), answer)
        self.assertIn("client-not-allowed", answer)
        self.assertIsNotNone(self.bystander)
        self.assertEqual(self.bystander["state"], "cancelled", self.bystander)

    def test_nothing_of_either_turn_is_left(self):
        for name in (self.name, self.plan_facts.get("other_turn")):
            left = h.leftovers(name)
            self.assertEqual(left, {key: [] for key in left}, name)


def foreign_client_request(source, host, port):
    """A request to a turn's proxy from `source`, an address that is not the
    proxy's client; returns the response head."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as connection:
        connection.settimeout(5)
        connection.bind((source, 0))
        connection.connect((host, port))
        connection.sendall(b"GET http://127.0.0.1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.decode(errors="replace")


if __name__ == "__main__":
    h.main()
