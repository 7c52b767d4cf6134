#!/usr/bin/env python3
"""Prints the slowest tests of a run, from its JUnit report (`ctest --output-junit`).

`./dev test` ends with this, so a run's time can be read off its log: which
tests the suite's minutes went to.
"""

import sys
import xml.etree.ElementTree as ElementTree


def main(report, count):
    cases = [
        (float(case.get("time") or 0), case.get("name"), case.get("status") or "")
        for case in ElementTree.parse(report).getroot().iter("testcase")
    ]
    cases.sort(reverse=True)
    print(f"the {min(count, len(cases))} slowest of {len(cases)} tests:")
    for seconds, name, status in cases[:count]:
        print(f"  {seconds:8.1f} s  {name}" + (f"  ({status})" if status not in ("run", "") else ""))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: slowest_tests.py JUNIT_REPORT COUNT")
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
