"""What the tests of a folder that asks share (test_ask_approvals.py,
test_ask_on_terminal.py): an engine whose folder corp asks, with
ask_requests.sh in its home, and the guest's "ASKED" lines read back from
the turn's events (the origin the asked hosts name: https_origin.Origin).
And what the HTTPS turn tests (test_inspected_hosts.py, test_bound_secrets.py,
test_git_inspected.py) share: the guest's writable files to search, and the
"INSPECT" lines of inspect_requests.mjs read back."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from confinement_support import h  # noqa: E402


def asking_engine(*network_options):
    """An engine (proxies may reach loopback, where Origin listens) whose
    folder corp asks about hosts on no allow entry, `network_options` added
    to `folder network`; ask_requests.sh is in corp's home."""
    c.require_root_and_libvirt()
    h.require_guest_image()
    engine = h.Engine({"ARIZUKO_PROXY_ALLOW_LOOPBACK": "1"})
    try:
        engine.add_folder("corp")
        result = engine.run("folder", "network", "corp", "--unlisted", "ask", *network_options)
        if result.returncode != 0:
            raise AssertionError(result.stderr)
        home = engine.home("corp")
        home.mkdir(parents=True, exist_ok=True)
        c.put_guest_script(home, "ask_requests.sh", "ask_requests.sh")
    except BaseException:
        engine.close()
        raise
    return engine


def asked_results(events):
    """{step: (http-<status>, reason=<reason>, body=<first line>)} of ask_requests.sh."""
    results = {}
    for event in events:
        if event["kind"] == "event" and event["json"]["line"].startswith("ASKED "):
            words = event["json"]["line"].split(" ", 4)
            results[words[1]] = (words[2], words[3], words[4] if len(words) > 4 else "")
    return results


# The guest's writable files outside the home, as the agent reads them
# (test_connectors.py's search).
WRITABLE_FILES = ("$(awk '$4 ~ /^rw/ && $3 !~ \"^(9p|devpts|devtmpfs|proc|sysfs)$\" "
                  "{print $2}' /proc/mounts) 2>/dev/null")


def inspect_results(engine, name):
    """The turn's output lines and {step: result} of inspect_requests.mjs's
    "INSPECT STEP RESULT" lines; the lines go to stderr for the log."""
    lines = [e["json"]["line"] for e in engine.events(name) if e["kind"] == "event"]
    results = {}
    for line in lines:
        if line.startswith("INSPECT "):
            words = line.split(" ", 2)
            results[words[1]] = words[2]
    print("\n".join(lines), file=sys.stderr)
    return lines, results
