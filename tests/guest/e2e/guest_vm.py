"""Boots the real guest image under plain QEMU (TCG) and speaks the turn
protocol to it over the virtio-serial port's host socket.

The VM has no network backend at all: its one NIC (when asked for) sits on
a QEMU hub with no other port, so nothing leaves the VM.
"""

import json
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

TURN_PORT = "org.arizuko.turn"
IMAGE_FILES = ("vmlinux", "initramfs.img", "root.img", "manifest.json")


class MissingImage(Exception):
    pass


def image_dir():
    configured = os.environ.get("ARIZUKO_GUEST_IMAGE_DIR")
    if configured:
        return Path(configured)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "arizuko-desktop" / "guest"


def find_image():
    directory = image_dir()
    missing = [name for name in IMAGE_FILES if not (directory / name).is_file()]
    if missing:
        raise MissingImage(
            f"the guest image in {directory} lacks {', '.join(missing)}; build it with "
            "installer/build-guest-image --guest-binary <build>/bin/arizuko-guest")
    return directory, json.loads((directory / "manifest.json").read_text())


class Message:
    def __init__(self, data, arrived):
        self.data = data
        self.arrived = arrived  # time.monotonic() on the host


class GuestVm:
    """One QEMU process; use as a context manager so it is always killed."""

    def __init__(self, image, home, *, with_nic=False, append="", memory_mib=1024):
        self.image = Path(image)
        self.home = Path(home)
        self.with_nic = with_nic
        self.append = append
        self.memory_mib = memory_mib
        self.workdir = Path(tempfile.mkdtemp(prefix="arizuko-guest-vm-"))
        self.socket_path = self.workdir / "turn.sock"
        self.console_path = self.workdir / "console.log"
        self.process = None
        self.connection = None
        self.messages = queue.Queue()
        self.started = None
        self._reader = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def command_line(self):
        qemu = shutil.which("qemu-system-x86_64")
        if not qemu:
            raise RuntimeError("qemu-system-x86_64 is missing (apt package qemu-system-x86)")
        args = [
            qemu, "-accel", "tcg", "-cpu", "max", "-m", str(self.memory_mib), "-smp", "1",
            "-nographic", "-no-reboot",
            "-kernel", str(self.image / "vmlinux"),
            "-initrd", str(self.image / "initramfs.img"),
            "-drive", f"file={self.image / 'root.img'},if=virtio,readonly=on,format=raw",
            "-virtfs", f"local,path={self.home},mount_tag=home,security_model=passthrough,id=home",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=turn,path={self.socket_path},server=on,wait=off",
            "-device", f"virtserialport,chardev=turn,name={TURN_PORT}",
        ]
        if self.with_nic:
            # A NIC on a hub with no other port: configured, yet connected to nothing.
            args += ["-netdev", "hubport,id=nic0,hubid=0", "-device", "virtio-net-pci,netdev=nic0"]
        else:
            args += ["-nic", "none"]
        args += ["-append", f"console=ttyS0 panic=-1 quiet {self.append}".strip()]
        return args

    def start(self):
        self.started = time.monotonic()
        with open(self.console_path, "wb") as console:
            self.process = subprocess.Popen(
                self.command_line(), stdin=subprocess.DEVNULL, stdout=console,
                stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"QEMU exited at once:\n{self.console()}")
            try:
                self.connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.connection.connect(str(self.socket_path))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.connection.close()
                if time.monotonic() > deadline:
                    raise RuntimeError("QEMU's turn socket did not appear within 30 s")
                time.sleep(0.02)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = self.connection.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.messages.put(None)
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                # Every guest line must be valid JSON; a bad one fails the test there.
                self.messages.put(Message(json.loads(line.decode("utf-8")), time.monotonic()))

    def send(self, message):
        self.connection.sendall(json.dumps(message).encode("utf-8") + b"\n")

    def next_message(self, timeout):
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the guest within {timeout} s\n"
                               f"console:\n{self.console()}") from None
        if message is None:
            raise ConnectionError(f"the guest's channel closed\nconsole:\n{self.console()}")
        return message

    def collect_until_exit(self, timeout):
        """All messages up to and including `exit`; acknowledges it."""
        deadline = time.monotonic() + timeout
        collected = []
        while True:
            message = self.next_message(max(0.1, deadline - time.monotonic()))
            collected.append(message)
            if message.data.get("type") == "exit":
                self.send({"type": "ack", "seq": message.data["seq"]})
                return collected

    def wait_powered_off(self, timeout):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TimeoutError(f"the VM did not power off within {timeout} s\n"
                               f"console:\n{self.console()}") from None

    def console(self):
        try:
            return self.console_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        if self.connection:
            self.connection.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
