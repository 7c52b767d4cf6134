"""The arizuko-egress process under test: started on an ephemeral loopback
port, its JSON log collected line by line, always stopped."""

import json
import signal
import subprocess
import threading
import time

from egress_common import LOOPBACK, START_TIMEOUT, clean_environment

_EGRESS_BINARY = None


def set_egress_binary(path):
    global _EGRESS_BINARY
    _EGRESS_BINARY = path


def egress_binary():
    if _EGRESS_BINARY is None:
        raise RuntimeError("run through main(): the proxy path comes from --egress PATH")
    return _EGRESS_BINARY


class Proxy:
    """One arizuko-egress process on 127.0.0.1:<ephemeral> and its log."""

    def __init__(self, flags, env=None, listen=LOOPBACK + ":0", answers=False, pass_fds=()):
        """With `answers`, the proxy's stdin is a pipe this object holds, the
        engine's answer channel of --ask (answer(), close_answers());
        `pass_fds` are inherited by the proxy (--inspect-ca-fd)."""
        self.flags = list(flags)
        self.command = [egress_binary()] + (["--listen", listen] if listen else []) + self.flags
        self.lines = []  # every stderr line, verbatim
        self.stdout_lines = []
        self._changed = threading.Condition()
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE if answers else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=clean_environment(env),
            pass_fds=tuple(pass_fds),
        )
        self._readers = [
            threading.Thread(target=self._collect, args=(self.process.stderr, self.lines)),
            threading.Thread(target=self._collect, args=(self.process.stdout, self.stdout_lines)),
        ]
        for reader in self._readers:
            reader.daemon = True
            reader.start()
        self.port = None

    def _collect(self, stream, into):
        for raw in iter(stream.readline, b""):
            with self._changed:
                into.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    # -- log ---------------------------------------------------------------

    def events(self):
        """Every stderr line that parses as a JSON object."""
        with self._changed:
            return _parse_events(self.lines)

    def events_named(self, name, **match):
        return [e for e in self.events() if e.get("event") == name and _matches(e, match)]

    def decisions(self, **match):
        return [e for e in self.events() if e.get("event") == "decision" and _matches(e, match)]

    def closes(self, **match):
        return [e for e in self.events() if e.get("event") == "close" and _matches(e, match)]

    def wait_event(self, timeout=START_TIMEOUT, count=1, **match):
        """The first `count` events matching every key=value given; fails on timeout
        or if the proxy exits first."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = [e for e in _parse_events(self.lines) if _matches(e, match)]
                if len(found) >= count:
                    return found[:count]
                if self.process.poll() is not None and not any(r.is_alive() for r in self._readers):
                    raise AssertionError(
                        "proxy exited (%s) before logging %r\n%s"
                        % (self.process.returncode, match, self.log_text())
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        "no %d event(s) %r within %.0fs\n%s"
                        % (count, match, timeout, self.log_text())
                    )
                self._changed.wait(min(left, 0.2))

    def log_text(self):
        with self._changed:
            return "\n".join(
                ["--- proxy: " + " ".join(self.command)]
                + ["stderr| " + line for line in self.lines]
                + ["stdout| " + line for line in self.stdout_lines]
            )

    # -- answers (--ask) ---------------------------------------------------

    def send_answer_line(self, line):
        """One raw line on the proxy's stdin, as the engine would write it."""
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def answer(self, question, answer, reason=None):
        """Answers the question with id `question` (an ask event or its id)."""
        if isinstance(question, dict):
            question = question["id"]
        line = {"id": question, "answer": answer}
        if reason is not None:
            line["reason"] = reason
        self.send_answer_line(json.dumps(line))

    def close_answers(self):
        self.process.stdin.close()

    # -- lifecycle ---------------------------------------------------------

    def wait_listening(self, timeout=START_TIMEOUT):
        (event,) = self.wait_event(timeout, event="listening")
        host, _, port = str(event.get("addr", "")).rpartition(":")
        if host != LOOPBACK or not port.isdigit() or int(port) == 0:
            raise AssertionError("listening line without a bound 127.0.0.1 port: %r" % event)
        self.port = int(port)
        return self.port

    def wait_ready(self, timeout=START_TIMEOUT):
        self.wait_listening(timeout)
        self.wait_event(timeout, event="ready")
        return self.port

    def signal(self, signum):
        if self.process.poll() is None:
            self.process.send_signal(signum)

    def wait_exit(self, timeout):
        """The exit status, or None if still running after `timeout` seconds.
        Once it has exited, its whole log has been read: a check that a line is
        absent cannot pass only because the line was not read yet."""
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        for reader in self._readers:
            reader.join(START_TIMEOUT)
            if reader.is_alive():
                raise AssertionError("the proxy exited but its output is still open")
        return status

    def close(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            if self.wait_exit(10) is None:
                self.process.kill()
                self.process.wait(10)
        for reader in self._readers:
            reader.join(5)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                try:
                    stream.close()
                except BrokenPipeError:
                    pass


def _parse_events(lines):
    events = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            events.append(value)
    return events


def _matches(event, match):
    return all(event.get(key) == value for key, value in match.items())


def run_egress(args, env=None, timeout=15, pass_fds=()):
    """Run the proxy to completion (for flag errors and --help); a run that
    does not end in time is killed and reported as (None, output)."""
    try:
        done = subprocess.run(
            [egress_binary()] + list(args),
            stdin=subprocess.DEVNULL,
            pass_fds=tuple(pass_fds),
            capture_output=True,
            env=clean_environment(env),
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"") + (expired.stderr or b"")
        return None, output.decode("utf-8", "replace")
    output = done.stdout + done.stderr
    return done.returncode, output.decode("utf-8", "replace")
