"""A hostile guest against its own turn's model gateway: a command turn
whose shell holds the turn's token (ANTHROPIC_API_KEY) speaks raw HTTP to
the gateway with bash's /dev/tcp. The Files and Batches APIs, an
absolute-form target, a header with a bare LF and one with a NUL, an
oversized head and an oversized body are each refused and recorded in the
turn's events, and a raw upstream on 127.0.0.1, which parses nothing and
keeps every byte, receives none of them. 200 connections opened at once
leave the engine's memory within the bound docs/model-gateway.md gives,
and a normal request is served afterwards."""

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from agent_harness import h, RawUpstreamTurn  # noqa: E402

# docs/model-gateway.md, "Limits": what one turn's gateway may hold.
MAX_HEAD = 16 * 1024
MAX_BODY = 16 * 1024 * 1024
CONNECTIONS_PER_TURN = 32
BODY_BYTES_PER_TURN = 64 * 1024 * 1024
# The engine's growth under a flood of one turn: bodies, plus each
# connection's head and socket buffer, plus what Qt keeps per connection.
MEMORY_BOUND = BODY_BYTES_PER_TURN + CONNECTIONS_PER_TURN * (MAX_HEAD + 64 * 1024 + 64 * 1024)

GUEST_SCRIPT = r"""
trap '' PIPE
hostport=${ANTHROPIC_BASE_URL#http://}
H=${hostport%:*}
P=${hostport##*:}
K=$ANTHROPIC_API_KEY
[ -n "$K" ] || { echo "no token in the environment"; exit 3; }

# ask NAME FORMAT [BODY_BYTES]: sends the head (printf FORMAT, %s is the
# token), waits for an answer to the head alone, then sends BODY_BYTES
# zero bytes if none came, and prints the status line.
ask() {
    if ! exec 3<>/dev/tcp/$H/$P; then echo "$1: no connection"; return; fi
    printf "$2" "$K" >&3
    status=
    IFS= read -r -t 3 status <&3
    if [ -z "$status" ] && [ -n "$3" ]; then
        timeout 60 head -c "$3" /dev/zero >&3
        IFS= read -r -t 20 status <&3
    fi
    exec 3<&-
    status=${status%$'\r'}
    echo "$1: ${status:-no reply}"
}

ask files-list 'GET /v1/files HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\nanthropic-beta: files-api-2025-04-14\r\n\r\n'
ask files-delete 'DELETE /v1/files/file_011CNha8iCJcU1wXNR6q4V8w HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\nanthropic-beta: files-api-2025-04-14\r\n\r\n'
ask batches-list 'GET /v1/messages/batches HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\n\r\n'
ask absolute-form 'GET http://api.anthropic.com/v1/files HTTP/1.1\r\nHost: api.anthropic.com\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\n\r\n'
ask bare-lf 'POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\nX-Inj: a\nHost: evil.example\nX-Smuggle: 1\r\ncontent-type: application/json\r\nContent-Length: 2\r\n\r\n{}'
ask nul 'POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\nanthropic-beta: nul-marker\0X-Smuggle: 2\r\ncontent-type: application/json\r\nContent-Length: 2\r\n\r\n{}'
pad=$(head -c 40000 /dev/zero | tr '\0' p)
ask oversized-head "POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\nX-Pad: $pad\r\ncontent-type: application/json\r\nContent-Length: 2\r\n\r\n{}"
ask oversized-body 'POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\nContent-Length: 17825792\r\n\r\n' 17825792

# 200 connections at once, each with the token and a 2 MiB body of which
# it sends 1 MiB and then waits: an engine that holds them all grows by
# 200 MiB. One bash process writes them all (a fork per write is slow
# under TCG); a write to a connection the gateway closed fails, ignored.
echo flood-start
sleep 4
chunk=$(head -c 65536 /dev/zero | tr '\0' x)
flood=()
for i in $(seq 200); do
    exec {fd}<>/dev/tcp/$H/$P 2>/dev/null || continue
    flood+=($fd)
    printf 'POST /v1/messages HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\ncontent-type: application/json\r\nContent-Length: 2097152\r\n\r\n' "$K" >&$fd 2>/dev/null
done
for round in $(seq 16); do
    for fd in "${flood[@]}"; do printf '%s' "$chunk" >&$fd 2>/dev/null; done
done
sleep 3
echo "flood-end: ${#flood[@]} connections opened"
for fd in "${flood[@]}"; do exec {fd}>&-; done
sleep 2

# The engine may take a moment to see the flood's connections go.
for attempt in 1 2 3 4 5; do
    ask normal 'POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nx-api-key: %s\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\nContent-Length: 64\r\n\r\n{"model":"claude-sonnet-4-5","max_tokens":1,"messages":[  ]    }'
    [ "$status" = "HTTP/1.1 200 OK" ] && break
    sleep 3
done
"""

HOSTILE = ("files-list", "files-delete", "batches-list", "absolute-form", "bare-lf", "nul",
           "oversized-head", "oversized-body")


def resident_bytes(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


class GatewayHostileGuest(RawUpstreamTurn):
    @classmethod
    def _run(cls):
        cls.engine.add_folder("corp")
        (cls.engine.home("corp") / "hostile.sh").write_text(GUEST_SCRIPT)
        process = cls.engine.start("run", "--agent", "command", "corp", "bash $HOME/hostile.sh")
        cls.baseline, cls.peak = cls.watch_memory(process)
        cls.stdout, cls.stderr = process.communicate(timeout=600)
        cls.returncode = process.returncode
        cls.name = h.turn_name_from(cls.stderr)
        cls.events = cls.engine.events(cls.name)
        cls.lines = {}
        for event in cls.events:
            line = event["json"].get("line", "") if event["kind"] == "event" else ""
            name, _, status = line.partition(": ")
            if name:
                cls.lines[name] = status

    @classmethod
    def printed(cls, text):
        with cls.engine.database() as db:
            rows = db.execute("SELECT json FROM turn_events WHERE kind = 'event' AND json LIKE ?",
                              (f"%{text}%",)).fetchall()
        return bool(rows)

    @classmethod
    def watch_memory(cls, process):
        """The engine's resident size when the guest says the flood starts,
        and the most it reached until the guest says it ended."""
        h.wait_for(lambda: process.poll() is not None or cls.printed("flood-start"), 500, 0.05,
                   "the guest's flood-start")
        if process.poll() is not None:
            return 0, 0
        baseline = resident_bytes(process.pid)
        peak = baseline
        while process.poll() is None and not cls.printed("flood-end"):
            peak = max(peak, resident_bytes(process.pid))
            time.sleep(0.02)
        return baseline, peak

    def test_the_turn_ran_to_its_end(self):
        self.assertEqual(self.returncode, 0, self.stderr)
        self.assertIn("flood-end", "\n".join(self.lines), self.lines)

    def test_each_hostile_request_is_refused(self):
        for name in HOSTILE:
            with self.subTest(name):
                self.assertIn(name, self.lines, self.lines)
                self.assertNotRegex(self.lines[name], r"^HTTP/1\.1 2", self.lines)

    def test_each_refusal_is_in_the_turns_events(self):
        refusals = [e["json"] for e in self.events if e["kind"] == "gateway"]
        # The flood's own refusals (over the caps, cut at the body timeout,
        # past the record's cap) are not among the eight asked.
        statuses = sorted(r.get("status", 0) for r in refusals
                          if r.get("reason") not in ("connections", "unrecorded")
                          and r.get("status") not in (408, 503))
        self.assertEqual(statuses, [400, 400, 400, 404, 404, 404, 413, 431], refusals)
        paths = {r.get("path") for r in refusals}
        self.assertTrue({"/v1/files", "/v1/messages/batches"} <= paths, refusals)
        self.assertIn("connections", [r.get("reason") for r in refusals], refusals)

    def test_nothing_hostile_reached_the_upstream(self):
        received = self.upstream.received()
        everything = b"".join(received)
        for marker in (b"/v1/files", b"batches", b"evil.example", b"X-Smuggle", b"nul-marker", b"ppppp",
                       b"\0", b"2097152"):
            at = everything.find(marker)
            self.assertEqual(at, -1, f"{marker!r} reached the upstream ({len(everything)} bytes in all): "
                                     f"{everything[max(0, at - 300):at + 100]!r}")
        self.assertEqual(len(received), 1, [r[:200] for r in received])

    def test_a_normal_request_is_served_after_the_flood(self):
        self.assertEqual(self.lines.get("normal"), "HTTP/1.1 200 OK", self.lines)
        (normal,) = self.upstream.received()
        self.assertTrue(normal.startswith(b"POST /v1/messages?beta=true HTTP/1.1\r\n"), normal[:200])
        self.assertIn(b"x-api-key: " + self.canary.encode(), normal)

    def test_the_flood_left_the_engine_within_its_memory_bound(self):
        self.assertGreater(self.baseline, 0, "the guest never started its flood")
        growth = self.peak - self.baseline
        print(f"\nengine resident memory: {self.baseline / 2**20:.1f} MiB before the flood, "
              f"{self.peak / 2**20:.1f} MiB at most during it (+{growth / 2**20:.1f} MiB; "
              f"bound {MEMORY_BOUND / 2**20:.1f} MiB)", file=sys.stderr)
        self.assertLessEqual(growth, MEMORY_BOUND)


if __name__ == "__main__":
    h.main()
