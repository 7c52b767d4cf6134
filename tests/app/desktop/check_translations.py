#!/usr/bin/env python3
"""The committed translations are complete and current.

Runs lupdate over the window's sources against a copy of each committed .ts
(the committed files are not touched) and fails, listing them, on any text
that is untranslated (new in the sources or marked unfinished) or that has
left the sources (vanished or obsolete), on a translation that drops or
adds a %1 or %n placeholder, and on a committed file that lupdate would
still change (a text marked vanished that is in the sources again is
resurrected by lupdate, but lrelease leaves it out until then). A .ts in the source language (English) holds
only the plural forms of the %n texts and is checked as such (-pluralonly).
The fix is `cmake --build build --target update_translations`, then
translating what it marks unfinished.

usage: check_translations.py LUPDATE SOURCES_LST -- LUPDATE_OPTIONS... -- TS_FILE...
"""

import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

PLACEHOLDER = re.compile(r"%(?:\d+|n)")


def texts(translation):
    forms = translation.findall("numerusform")
    return [form.text or "" for form in forms] if forms else [translation.text or ""]


def problems(ts_file):
    found = []
    for context in ElementTree.parse(ts_file).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            translation = message.find("translation")
            kind = translation.get("type")
            where = f"{name}: \"{source}\""
            if kind in ("vanished", "obsolete"):
                found.append(f"{where}: translated, but no longer in the sources ({kind})")
            elif kind == "unfinished" or not all(texts(translation)):
                found.append(f"{where}: not translated")
            else:
                wanted = sorted(set(PLACEHOLDER.findall(source)))
                for text in texts(translation):
                    if sorted(set(PLACEHOLDER.findall(text))) != wanted:
                        found.append(f"{where}: the translation \"{text}\" has placeholders "
                                     f"{sorted(set(PLACEHOLDER.findall(text)))}, not {wanted}")
    return found


def main(arguments):
    lupdate, sources_lst, separator, *rest = arguments
    if separator != "--" or "--" not in rest:
        sys.exit(__doc__)
    split = rest.index("--")
    options, ts_files = rest[:split], rest[split + 1:]
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for committed in map(Path, ts_files):
            copy = Path(scratch) / committed.name
            shutil.copyfile(committed, copy)
            root = ElementTree.parse(copy).getroot()
            plurals_only = (root.get("language", "").split("_")[0]
                            == root.get("sourcelanguage", "").split("_")[0])
            extra = ["-pluralonly"] if plurals_only else []
            run = subprocess.run([lupdate, *options, *extra, f"@{sources_lst}", "-ts", str(copy)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"lupdate failed on {committed}:\n{run.stdout}{run.stderr}")
                failed = True
                continue
            found = problems(copy)
            if not found and copy.read_bytes() != committed.read_bytes():
                found.append("the committed file is not as lupdate writes it: run the update")
            messages = sum(1 for _ in ElementTree.parse(copy).getroot().iter("message"))
            if found:
                failed = True
                print(f"{committed}: {len(found)} problem(s) among its {messages} texts:")
                for problem in found:
                    print(f"  {problem}")
                print("Run `cmake --build build --target update_translations`, translate what is "
                      "marked unfinished (Qt Linguist or an editor), and commit the .ts.")
            else:
                print(f"{committed}: all {messages} texts translated and current")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
