"""Runs inside the "outside" network namespace of the confinement tests.

It stands for the world beyond the host: a TCP server that answers any
request with a fixed body (so the turn's proxy, which may reach it, can be
seen to), a UDP socket on port 53, and a packet sniffer on the namespace's
interface. Everything it sees is one JSON line on stdout; the test decides
what is a leak. It prints {"kind": "ready"} once every socket is open.
"""

import argparse
import ipaddress
import json
import select
import socket
import sys
import time

ETH_P_ALL = 0x0003


def emit(**record):
    record["at"] = time.time()
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def describe_frame(frame):
    """Source, destination and protocol of an IPv4 or IPv6 frame, else None."""
    ethertype = int.from_bytes(frame[12:14], "big")
    if ethertype == 0x0800 and len(frame) >= 34:
        header = frame[14:]
        protocol = {1: "icmp", 6: "tcp", 17: "udp"}.get(header[9], str(header[9]))
        return {"family": 4, "src": str(ipaddress.IPv4Address(header[12:16])),
                "dst": str(ipaddress.IPv4Address(header[16:20])), "proto": protocol}
    if ethertype == 0x86DD and len(frame) >= 54:
        header = frame[14:]
        return {"family": 6, "src": str(ipaddress.IPv6Address(header[8:24])),
                "dst": str(ipaddress.IPv6Address(header[24:40])), "proto": str(header[6])}
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", required=True)
    parser.add_argument("--tcp-port", type=int, required=True)
    parser.add_argument("--udp-port", type=int, default=53)
    parser.add_argument("--body", default="hello-from-outside")
    arguments = parser.parse_args()

    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind(("0.0.0.0", arguments.tcp_port))
    tcp.listen(16)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("0.0.0.0", arguments.udp_port))
    sniffer = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sniffer.bind((arguments.interface, 0))
    emit(kind="ready")

    response = ("HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                % (len(arguments.body), arguments.body)).encode()
    while True:
        readable, _, _ = select.select([tcp, udp, sniffer, sys.stdin], [], [])
        if sys.stdin in readable and not sys.stdin.readline():
            return  # the test closed our stdin: stop
        if tcp in readable:
            connection, peer = tcp.accept()
            emit(kind="tcp", peer=peer[0])
            connection.settimeout(2)
            try:
                connection.recv(4096)
                connection.sendall(response)
            except OSError:
                pass
            connection.close()
        if udp in readable:
            data, peer = udp.recvfrom(4096)
            emit(kind="udp", peer=peer[0], size=len(data))
        if sniffer in readable:
            frame, address = sniffer.recvfrom(65535)
            packet = describe_frame(frame)
            if packet and address[2] != socket.PACKET_OUTGOING:
                emit(kind="packet", **packet)


if __name__ == "__main__":
    main()
