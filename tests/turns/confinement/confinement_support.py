"""Host-side fixtures for the confinement and fault tests.

- OutsideNamespace: a network namespace behind a veth pair, with IP
  forwarding ON while it exists, that stands for the world beyond the host
  (never a real address off this machine: its addresses are routed to the
  veth, and that route is checked before any traffic).
- Listeners: TCP (IPv4, IPv6) and UDP sockets on the host that record every
  peer, so "nothing arrived" is observed, not assumed.
- Controller: the allowed test server on 127.0.0.1 (the turn's proxy may
  reach loopback only because the tests set ARIZUKO_PROXY_ALLOW_LOOPBACK=1).
  The guest fetches its attack plan from it through the proxy, which is also
  the positive control that the guest's network works.
"""

import contextlib
import fcntl
import http.server
import ipaddress
import json
import os
import pathlib
import select
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent

NAMESPACE = "azc-outside"
HOST_VETH = "azc-host"
OUTSIDE_VETH = "azc-out"
HOST_SIDE = "198.18.0.1"          # RFC 2544 benchmark range: never routed on the Internet
OUTSIDE_ADDRESS = "198.18.0.2"
OUTSIDE_PRIVATE_ADDRESS = "10.254.254.2"  # a private address, also in the namespace
TURN_POOL = ipaddress.ip_network("10.213.0.0/16")
# Names the engine (and the proxy it spawns) resolves through a private
# /etc/hosts (see hosts_file_prefix): one for the outside, one for a
# private address in the outside namespace.
OUTSIDE_NAME = "outside.test"
PRIVATE_NAME = "private.test"
# The global-scope IPv6 address the tests give a turn's bridge, and one on
# the same /64 for the guest (2001:db8::/32 is for documentation: it is
# never routed off this machine; here it is the host's own).
BRIDGE_GLOBAL_IPV6 = "2001:db8:a21:1::1"
GUEST_GLOBAL_IPV6 = "2001:db8:a21:1::2"
LOCK_FILE = "/run/lock/arizuko-confinement-outside.lock"
SAFETY_NETS = ("198.18.0.0/15", "10.254.254.0/24")
FORWARDING_SAVED = "/run/lock/arizuko-confinement-ip_forward.saved"


def run(*command, check=True):
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return result


def require_root_and_libvirt():
    """The tests create namespaces, read libvirt objects and run VMs: say
    exactly what is missing instead of passing vacuously."""
    if os.geteuid() != 0:
        raise AssertionError("the confinement tests need root (network namespaces, sysctl, libvirt)")
    version = h.virsh("version")
    if version.returncode != 0:
        raise AssertionError(f"libvirtd is not reachable at {h.libvirt_uri()}: {version.stderr.strip()}"
                             " (start it with `libvirtd -d` or `./dev setup`)")
    return h.require_guest_image()


def icmp_echo(address, timeout=3):
    """One ICMP echo request from the host; True when the reply came."""
    identifier = os.getpid() & 0xFFFF
    header = struct.pack("!BBHHH", 8, 0, 0, identifier, 1) + b"arizuko"
    padded = header + b"\0" * (len(header) % 2)
    checksum = sum(struct.unpack("!%dH" % (len(padded) // 2), padded))
    checksum = (checksum >> 16) + (checksum & 0xFFFF)
    checksum = ~(checksum + (checksum >> 16)) & 0xFFFF
    packet = header[:2] + struct.pack("!H", checksum) + header[4:]
    with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP) as raw:
        raw.settimeout(timeout)
        raw.sendto(packet, (address, 0))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                reply, peer = raw.recvfrom(1024)
            except socket.timeout:
                return False
            icmp = reply[(reply[0] & 0x0F) * 4:]
            if peer[0] == address and icmp[0] == 0 and struct.unpack("!H", icmp[4:6])[0] == identifier:
                return True
    return False


def route_device(address):
    words = run("ip", "-o", "route", "get", address).stdout.split()
    return words[words.index("dev") + 1] if "dev" in words else None


class OutsideNamespace:
    """The namespace, its listener process and ip_forward=1 for its lifetime."""

    def __init__(self, tcp_port=8080):
        self.tcp_port = tcp_port
        self.records = []
        self._process = None
        self._forwarding = None

    def __enter__(self):
        # One namespace per machine: another test run (another build dir)
        # waits here instead of tearing ours down as "stale".
        self._lock = open(LOCK_FILE, "w")
        h.wait_for(self._try_lock, 900, interval=1, what=f"the lock {LOCK_FILE}")
        self._remove_stale()
        self._forwarding = self._original_forwarding()
        try:
            self._create()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    @staticmethod
    def _original_forwarding():
        """ip_forward as it was before any of these tests: a run that died
        before restoring it left the original in FORWARDING_SAVED."""
        saved = pathlib.Path(FORWARDING_SAVED)
        if saved.exists():
            return saved.read_text().strip()
        original = pathlib.Path("/proc/sys/net/ipv4/ip_forward").read_text().strip()
        saved.write_text(original)
        return original

    def _try_lock(self):
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _remove_stale(self):
        run("ip", "netns", "del", NAMESPACE, check=False)
        run("ip", "link", "del", HOST_VETH, check=False)
        for network in SAFETY_NETS:
            run("ip", "route", "del", "unreachable", network, "metric", "4000", check=False)

    def _create(self):
        inside = ("ip", "netns", "exec", NAMESPACE)
        run("ip", "netns", "add", NAMESPACE)
        run("ip", "link", "add", HOST_VETH, "type", "veth", "peer", "name", OUTSIDE_VETH)
        run("ip", "link", "set", OUTSIDE_VETH, "netns", NAMESPACE)
        run("ip", "addr", "add", HOST_SIDE + "/30", "dev", HOST_VETH)
        # The host's own IPv6 chatter (router solicitations, MLD) would look
        # like traffic at the outside: no IPv6 on the veth pair at all.
        pathlib.Path(f"/proc/sys/net/ipv6/conf/{HOST_VETH}/disable_ipv6").write_text("1")
        run(*inside, "sysctl", "-qw", f"net.ipv6.conf.{OUTSIDE_VETH}.disable_ipv6=1")
        run("ip", "link", "set", HOST_VETH, "up")
        run(*inside, "ip", "addr", "add", OUTSIDE_ADDRESS + "/30", "dev", OUTSIDE_VETH)
        run(*inside, "ip", "addr", "add", OUTSIDE_PRIVATE_ADDRESS + "/32", "dev", OUTSIDE_VETH)
        run(*inside, "ip", "link", "set", OUTSIDE_VETH, "up")
        run(*inside, "ip", "link", "set", "lo", "up")
        # Replies to anything (the guest's subnet included) go back to the host.
        run(*inside, "ip", "route", "add", "default", "via", HOST_SIDE)
        run("ip", "route", "add", OUTSIDE_PRIVATE_ADDRESS + "/32", "via", OUTSIDE_ADDRESS)
        # A safety net: should the veth vanish mid-test, these addresses are
        # unreachable instead of following the default route off the machine.
        for network in SAFETY_NETS:
            run("ip", "route", "add", "unreachable", network, "metric", "4000")
        # Confinement must hold with routing on, not because of ip_forward=0.
        pathlib.Path("/proc/sys/net/ipv4/ip_forward").write_text("1")
        for address in (OUTSIDE_ADDRESS, OUTSIDE_PRIVATE_ADDRESS):
            if route_device(address) != HOST_VETH:
                raise AssertionError(f"{address} is not routed to {HOST_VETH}; refusing to send anything")
        self._process = subprocess.Popen(
            [*inside, sys.executable, str(HERE / "netns_listener.py"), "--interface", OUTSIDE_VETH,
             "--tcp-port", str(self.tcp_port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        h.wait_for(lambda: any(r["kind"] == "ready" for r in self.records), 10,
                   what="the outside namespace's listener")
        self._check_reachable_from_the_host()

    def _read(self):
        for line in self._process.stdout:
            self.records.append(json.loads(line))

    def _check_reachable_from_the_host(self):
        """Positive control: the outside answers the host on TCP, UDP and ICMP."""
        with socket.create_connection((OUTSIDE_ADDRESS, self.tcp_port), timeout=5) as connection:
            connection.sendall(b"GET / HTTP/1.0\r\n\r\n")
            if b"hello-from-outside" not in connection.recv(4096):
                raise AssertionError("the outside namespace's TCP server did not answer the host")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(b"probe", (OUTSIDE_ADDRESS, 53))
        if not icmp_echo(OUTSIDE_ADDRESS):
            raise AssertionError("the outside namespace did not answer the host's ICMP echo")
        h.wait_for(lambda: any(r["kind"] == "udp" for r in self.records), 5,
                   what="the outside's UDP socket to see the host's probe")
        self.records.clear()

    def seen_from(self, network):
        """Everything the outside saw that came from an address in `network`."""
        network = ipaddress.ip_network(network)
        found = []
        for record in list(self.records):
            source = record.get("src") or record.get("peer")
            if source and ipaddress.ip_address(source) in network:
                found.append(record)
        return found

    def ipv6_packets(self):
        return [r for r in list(self.records) if r.get("family") == 6]

    def __exit__(self, *exc):
        if self._process:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._reader.join(timeout=5)
            self._process.stdout.close()
        run("ip", "route", "del", OUTSIDE_PRIVATE_ADDRESS + "/32", check=False)
        self._remove_stale()
        if self._forwarding is not None:
            pathlib.Path("/proc/sys/net/ipv4/ip_forward").write_text(self._forwarding)
            pathlib.Path(FORWARDING_SAVED).unlink(missing_ok=True)
        self._lock.close()


class Listener:
    """A socket on the host that records who reached it, on its own thread."""

    def __init__(self, family, kind, address, port=0):
        self.socket = socket.socket(family, kind)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        self.socket.bind((address, port))
        self.kind = kind
        if kind == socket.SOCK_STREAM:
            self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.peers = []
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop:
            readable, _, _ = select.select([self.socket], [], [], 0.2)
            if not readable:
                continue
            try:
                if self.kind == socket.SOCK_STREAM:
                    connection, peer = self.socket.accept()
                    connection.close()
                else:
                    _, peer = self.socket.recvfrom(4096)
            except OSError:
                continue
            self.peers.append(peer[0])

    def close(self):
        self._stop = True
        self._thread.join()
        self.socket.close()


class Controller:
    """The allowed test server: /hello, /plan (the guest's attack plan, from
    `plan_source`), /tick (counted, for the fault tests)."""

    def __init__(self):
        self.requests = []
        self.plan_source = lambda: {}
        controller = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                controller.requests.append((time.time(), self.path))
                if self.path == "/hello":
                    self.answer(200, "hello-from-allowed\n")
                elif self.path == "/plan":
                    try:
                        plan = controller.plan_source()
                        self.answer(200, "".join(f"{k}='{v}'\n" for k, v in plan.items()))
                    except Exception as error:  # the guest prints it; the test fails on it
                        self.answer(500, f"plan failed: {error}\n")
                elif self.path.startswith("/tick"):
                    self.answer(200, "tick\n")
                else:
                    self.answer(404, "no such path\n")

            def answer(self, status, body):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def paths(self):
        return [path for _, path in list(self.requests)]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def closing_all(*things):
    try:
        yield things
    finally:
        for thing in things:
            thing.close()


def host_ipv4_addresses():
    """Every IPv4 address of the host outside 127/8."""
    found = []
    for line in run("ip", "-o", "-4", "addr", "show").stdout.splitlines():
        address = line.split()[3].split("/")[0]
        if not address.startswith("127."):
            found.append(address)
    return found


def enable_bridge_ipv6(bridge, timeout=8):
    """Give the turn's bridge an IPv6 link-local address (libvirt leaves
    IPv6 off on it) so the guest has a host-side IPv6 peer to try; returns it."""
    pathlib.Path(f"/proc/sys/net/ipv6/conf/{bridge}/disable_ipv6").write_text("0")

    def link_local():
        for line in run("ip", "-o", "-6", "addr", "show", "dev", bridge, "scope", "link").stdout.splitlines():
            if "tentative" not in line:
                return line.split()[3].split("/")[0]
        return None
    return h.wait_for(link_local, timeout, what=f"a link-local address on {bridge}")


def add_bridge_global_ipv6(bridge, address=BRIDGE_GLOBAL_IPV6):
    """A global-scope IPv6 address on the turn's bridge (after
    enable_bridge_ipv6), so a guest's IPv6 attempt aims at the host itself."""
    run("ip", "-6", "addr", "add", address + "/64", "dev", bridge, "nodad")
    scoped = run("ip", "-o", "-6", "addr", "show", "dev", bridge, "scope", "global").stdout
    if address not in scoped:
        raise AssertionError(f"{address} is not a global address of {bridge}: {scoped}")
    return address


def solicited_node(address):
    """The solicited-node multicast address neighbour discovery sends to."""
    low = int(ipaddress.IPv6Address(address)) & 0xFFFFFF
    return str(ipaddress.IPv6Address(int(ipaddress.IPv6Address("ff02::1:ff00:0")) | low))


def hosts_file_prefix(directory, entries=None, outside_names=()):
    """A command prefix that runs a program in its own mount namespace with
    an /etc/hosts naming OUTSIDE_NAME (and `outside_names`, all for the
    outside's address) and PRIVATE_NAME, or `entries` ({name: address})
    (the real /etc/hosts is untouched: the bind mount exists only in that
    namespace, which the engine's children, the turn's proxy among them,
    inherit)."""
    if entries is None:
        entries = {name: OUTSIDE_ADDRESS for name in (OUTSIDE_NAME, *outside_names)}
        entries[PRIVATE_NAME] = OUTSIDE_PRIVATE_ADDRESS
    hosts = pathlib.Path(directory, "hosts")
    original = pathlib.Path("/etc/hosts").read_text()
    hosts.write_text(original + "\n" + "".join(f"{address} {name}\n"
                                               for name, address in entries.items()))
    return ("unshare", "--mount", "--propagation", "private", "--",
            "sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$@"', str(hosts))


def put_guest_script(home, script, name):
    """Writes this directory's `script` into a turn's home as `name`, with
    proxy_request.sh, which the guest scripts source from beside them."""
    (home / name).write_text((HERE / script).read_text())
    (home / "proxy_request.sh").write_text((HERE / "proxy_request.sh").read_text())


def proxy_command_line(pid):
    return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]


def attempts_from(events):
    """{name: (outcome, detail)} from the guest's "ATTEMPT name outcome detail" lines,
    and the set of tools it reported present."""
    attempts, tools = {}, {}
    for event in events:
        if event["kind"] != "event":
            continue
        words = event["json"]["line"].split(" ", 3)
        if words[0] == "ATTEMPT" and len(words) >= 3:
            attempts[words[1]] = (words[2], words[3] if len(words) > 3 else "")
        elif words[0] == "TOOL" and len(words) >= 3:
            tools[words[1]] = words[2]
    return attempts, tools
