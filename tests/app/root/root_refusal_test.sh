#!/usr/bin/env bash
# arizuko-desktop started as root, with WebEngine's sandbox on as it is by
# default, says why it will not run and what to do (on stderr and in a
# dialog) and starts nothing else, where before it died without a word.
#
#   xvfb-run -a root_refusal_test.sh ARIZUKO_DESKTOP GRAB_SCREEN SCREENSHOT.png
set -euo pipefail

desktop=$1 grab_screen=$2 screenshot=$3
scratch=$(mktemp -d)
pid=

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    printf -- '--- arizuko-desktop stderr ---\n' >&2
    cat "$scratch/stderr" >&2 || true
    exit 1
}

cleanup() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT

[ -n "${DISPLAY:-}" ] || fail "no DISPLAY: run under xvfb-run"

# CI runs as root. Elsewhere the window gets user ID 0 in a user namespace of
# its own, which is what it checks.
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(unshare --user --map-root-user)

env -u QTWEBENGINE_DISABLE_SANDBOX -u QTWEBENGINE_CHROMIUM_FLAGS \
    QT_QPA_PLATFORM=xcb ARIZUKO_DATA_DIR="$scratch/data" XDG_CACHE_HOME="$scratch/cache" \
    "${as_root[@]}" "$desktop" 2>"$scratch/stderr" &
pid=$!

# The dialog's window, within 30 s; a window that dies first has failed.
shown=no
for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || break
    if xwininfo -root -tree | grep -q '"Arizuko Desktop'; then
        shown=yes
        break
    fi
    sleep 0.1
done
kill -0 "$pid" 2>/dev/null || fail "arizuko-desktop exited as root without showing why"
[ "$shown" = yes ] || fail "no window titled 'Arizuko Desktop' within 30 s"
sleep 1 # let the dialog paint
mkdir -p "$(dirname "$screenshot")"
"$grab_screen" "$screenshot" || fail "no screenshot"

grep -q "does not run as root" "$scratch/stderr" || fail "stderr does not say it will not run as root"
grep -q "Qt WebEngine" "$scratch/stderr" || fail "stderr does not say why (WebEngine's sandbox)"
grep -q "libvirt group" "$scratch/stderr" || fail "stderr does not say what to do (your user, group libvirt)"
# Only the dialog: no WebEngine, no store.
if ps -o comm= --ppid "$pid" | grep -q QtWebEngine; then
    fail "WebEngine was started"
fi
[ ! -e "$scratch/data" ] || fail "the store was opened"

printf 'PASS: refused as root with the reason; screenshot %s\n' "$screenshot"
