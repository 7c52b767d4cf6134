#!/usr/bin/env python3
"""Fails a test run that skipped a test, unless tests/allowed-skips.txt allows it,
and a run in which no test ran at all.

CTest counts a skipped test as neither passed nor failed and exits 0; this
reads the JUnit report of the run (`ctest --output-junit`) and names every
skipped test, with the reason CTest recorded. A test is skipped when it exits
77 or prints a skip marker (cmake/ArizukoStrict.cmake: QtTest's QSKIP, Python
unittest's, GoogleTest's GTEST_SKIP). A build that registered no test, or a
filter that matched none, gives an empty report and passes CTest too.
"""

import pathlib
import sys
import xml.etree.ElementTree as ElementTree

SKIPPED_STATES = {"notrun", "disabled"}


def allowed_skips(path):
    allowed = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, reason = line.partition("\t")
        if not reason.strip():
            sys.exit(f"{path}: '{name}' has no reason (name, a tab, the reason)")
        allowed[name.strip()] = reason.strip()
    return allowed


def skipped_tests(report):
    skipped = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        marker = case.find("skipped")
        if case.get("status") in SKIPPED_STATES or marker is not None:
            why = marker.get("message", "") if marker is not None else case.get("status")
            skipped.append((case.get("name"), why))
    return skipped


def main(report, allowed_path):
    allowed = allowed_skips(allowed_path)
    if not pathlib.Path(report).is_file():
        print(f"no test report at {report}: no test ran", file=sys.stderr)
        return 1
    if not any(True for _ in ElementTree.parse(report).getroot().iter("testcase")):
        print(f"{report} lists no test: no test ran (none registered, or none matched)",
              file=sys.stderr)
        return 1
    refused = [(name, why) for name, why in skipped_tests(report) if name not in allowed]
    for name, why in refused:
        print(f"SKIPPED, not allowed: {name} ({why}); see {allowed_path}", file=sys.stderr)
    if refused:
        print(f"{len(refused)} test(s) skipped: a skip is a failure here", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check_skips.py JUNIT_REPORT ALLOWED_SKIPS")
    sys.exit(main(sys.argv[1], sys.argv[2]))
