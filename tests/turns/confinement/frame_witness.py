"""Host-side witnesses of what a turn's guest put on the wire.

A FrameWitness is an AF_PACKET socket on one host interface that records
every frame it sees, on its own thread. The confinement tests open two per
turn:

- on the turn's **tap** (`az-xxxxxxxx-g`): every frame the guest sent,
  before any filter. It proves an attempt really reached the wire (a probe
  that died before connect() sent nothing, and its "timeout" would prove
  nothing);
- on the turn's **bridge** (`az-xxxxxxxx`), in promiscuous mode: what got
  past the nwfilter's layer-2 rules (libvirt's ebtables chains drop in the
  bridge's PREROUTING, before a frame reaches the bridge device), and what
  the host itself sent towards the guest (a SYN-ACK means the host's TCP
  stack accepted a SYN).

Nothing here sends a packet.
"""

import ipaddress
import select
import socket
import struct
import threading
import time

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
PACKET_OUTGOING = 4

TCP_SYN = 0x02
TCP_ACK = 0x10


def mac_text(raw):
    return ":".join(f"{b:02x}" for b in raw)


def describe(frame):
    """A dict of the fields the tests judge, or None for a runt."""
    if len(frame) < 14:
        return None
    record = {"dst_mac": mac_text(frame[0:6]), "src_mac": mac_text(frame[6:12])}
    ethertype = int.from_bytes(frame[12:14], "big")
    payload = frame[14:]
    if ethertype == 0x8100 and len(frame) >= 18:  # one VLAN tag
        ethertype = int.from_bytes(frame[16:18], "big")
        payload = frame[18:]
    record["ethertype"] = ethertype
    transport = None
    if ethertype == 0x0800 and len(payload) >= 20:
        header_length = (payload[0] & 0x0F) * 4
        record.update(family=4, src=str(ipaddress.IPv4Address(payload[12:16])),
                      dst=str(ipaddress.IPv4Address(payload[16:20])), proto=payload[9])
        transport = payload[header_length:]
    elif ethertype == 0x86DD and len(payload) >= 40:
        record.update(family=6, src=str(ipaddress.IPv6Address(payload[8:24])),
                      dst=str(ipaddress.IPv6Address(payload[24:40])), proto=payload[6])
        transport = payload[40:]
    elif ethertype == 0x0806 and len(payload) >= 28:
        record.update(family="arp", src=str(ipaddress.IPv4Address(payload[14:18])),
                      dst=str(ipaddress.IPv4Address(payload[24:28])), proto="arp")
    if transport is not None and record["proto"] in (6, 17) and len(transport) >= 4:
        record["sport"], record["dport"] = struct.unpack("!HH", transport[:4])
        if record["proto"] == 6 and len(transport) >= 14:
            record["flags"] = transport[13]
    if transport is not None and record["proto"] in (1, 58) and transport:
        record["icmp_type"] = transport[0]
    return record


class FrameWitness:
    """Records every frame on `interface` from construction to close()."""

    def __init__(self, interface, promiscuous=False):
        self.interface = interface
        self.frames = []
        self.socket = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        self.socket.bind((interface, 0))
        if promiscuous:
            # Removed by the kernel when the socket closes.
            index = socket.if_nametoindex(interface)
            membership = struct.pack("iHH8s", index, PACKET_MR_PROMISC, 0, b"")
            self.socket.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, membership)
        self._stop = False
        self._thread = threading.Thread(target=self._capture, daemon=True)
        self._thread.start()

    def _capture(self):
        while not self._stop:
            readable, _, _ = select.select([self.socket], [], [], 0.2)
            if not readable:
                continue
            try:
                frame, address = self.socket.recvfrom(65535)
            except OSError:
                return  # the interface went away with the turn
            record = describe(frame)
            if record:
                record["at"] = time.time()
                record["outgoing"] = address[2] == PACKET_OUTGOING
                self.frames.append(record)

    def close(self):
        self._stop = True
        self._thread.join(timeout=5)
        self.socket.close()

    # --- queries; "incoming" is what the interface received (from the guest's
    # side), "outgoing" what the host sent out through it.

    def incoming(self, **match):
        return [f for f in list(self.frames) if not f["outgoing"] and _matches(f, match)]

    def outgoing(self, **match):
        return [f for f in list(self.frames) if f["outgoing"] and _matches(f, match)]

    def syns_in(self, **match):
        """SYNs (without ACK) that came in: connection attempts."""
        return [f for f in self.incoming(proto=6, **match) if f.get("flags", 0) & (TCP_SYN | TCP_ACK) == TCP_SYN]

    def syn_acks_out(self, **match):
        """SYN-ACKs the host sent out: its TCP stack accepted a SYN."""
        return [f for f in self.outgoing(proto=6, **match)
                if f.get("flags", 0) & (TCP_SYN | TCP_ACK) == (TCP_SYN | TCP_ACK)]


def _matches(frame, match):
    for key, value in match.items():
        if key == "after":
            if frame["at"] <= value:
                return False
        elif frame.get(key) != value:
            return False
    return True
