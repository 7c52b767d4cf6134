#!/usr/bin/env bash
# The Debian package as a person gets it: built from this build tree with
# CPack, checked by lintian, installed with `apt install ./….deb`, its menu
# entry and AppStream file validated; then, as a normal user in the libvirt
# group, the installed arizukoctl runs a demo turn and the window is started
# from the installed .desktop file's Exec line under Xvfb, with a
# screenshot. The machine is left as it was found: the package, every
# package apt pulled in for it, the test user and its files are removed.
#
#   package_test.sh BUILD_DIR GRAB_SCREEN OUTPUT_DIR
#
# Needs root (apt, useradd), as CI is. ARIZUKO_PACKAGE_TEST_TURN_USER=root
# runs the turn as root instead of the test user (for a host where a normal
# user's turn cannot boot yet); the window always runs as the test user.
set -euo pipefail

build_dir=$(readlink -f "$1") grab_screen=$2 output_dir=$3
package=arizuko-desktop
test_user=arizuko-pkgtest
test_home=/var/lib/$test_user
turn_user=${ARIZUKO_PACKAGE_TEST_TURN_USER:-$test_user}
helpers=/usr/libexec/arizuko-desktop
scratch=$(mktemp -d)
chmod 0755 "$scratch"
window_pid=
xvfb_pid=
installed_by_test=no
user_by_test=no

say() { printf '==> %s\n' "$*" >&2; }
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

installed_packages() {
    dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 ~ /^.i/ {print $2}' | sort
}

cleanup() {
    local status=$?
    set +e
    [ -n "$window_pid" ] && kill "$window_pid" 2>/dev/null && wait "$window_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    if [ "$user_by_test" = yes ]; then
        pkill -u "$test_user" 2>/dev/null
        sleep 0.5
        userdel --remove "$test_user" 2>/dev/null
        rm -rf "$test_home"
    fi
    if [ "$installed_by_test" = yes ]; then
        say "purging $package and what apt installed with it"
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "$package" >/dev/null
        local pulled_in
        mapfile -t pulled_in < <(comm -13 "$scratch/packages.before" <(installed_packages))
        if [ "${#pulled_in[@]}" -gt 0 ]; then
            DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pulled_in[@]}" >/dev/null
        fi
        if ! cmp -s "$scratch/packages.before" <(installed_packages); then
            printf 'FAIL: the installed packages differ from before the test:\n' >&2
            diff "$scratch/packages.before" <(installed_packages) >&2
            status=1
        fi
    fi
    if [ -f "$scratch/acl.before" ] && ! getfacl -p /var/lib/libvirt/qemu 2>/dev/null | cmp -s "$scratch/acl.before" -; then
        setfacl --restore="$scratch/acl.before"
    fi
    rm -rf "$scratch"
    exit "$status"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || fail "the package test installs a package and adds a user: run it as root (CI does)"
if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    fail "$package is already installed on this machine; the test would replace it (apt purge $package first)"
fi
if getent passwd "$test_user" >/dev/null; then
    fail "user $test_user exists (left by an earlier run?): userdel --remove $test_user"
fi
mkdir -p "$output_dir"
installed_packages >"$scratch/packages.before"
getfacl -p /var/lib/libvirt/qemu >"$scratch/acl.before" 2>/dev/null || rm -f "$scratch/acl.before"

# --- build and inspect -------------------------------------------------------
say "building the package (cpack)"
rm -rf "$build_dir/package"
(cd "$build_dir" && cpack -G DEB >"$scratch/cpack.log" 2>&1) || {
    cat "$scratch/cpack.log" >&2
    fail "cpack failed"
}
debs=("$build_dir"/package/"$package"_*_amd64.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one $package .deb in $build_dir/package"
deb=${debs[0]}
say "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$scratch/contents"
for path in /usr/bin/arizuko-desktop /usr/bin/arizukoctl \
    "$helpers/arizuko-egress" "$helpers/arizuko-guest" "$helpers/build-guest-image" "$helpers/guest-image.env" \
    "$helpers/arizuko-net-helper" "$helpers/pi/package.json" "$helpers/pi/package-lock.json" \
    /usr/share/applications/arizuko-desktop.desktop \
    /usr/share/icons/hicolor/scalable/apps/arizuko-desktop.svg \
    /usr/share/metainfo/org.arizuko.desktop.metainfo.xml \
    /usr/share/man/man1/arizukoctl.1.gz /usr/share/man/man1/arizuko-desktop.1.gz /usr/share/man/man1/arizuko-egress.1.gz \
    /usr/share/bash-completion/completions/arizukoctl \
    /usr/share/doc/arizuko-desktop/copyright /usr/share/doc/arizuko-desktop/changelog.gz \
    /usr/share/doc/arizuko-desktop/highlight.js-LICENSE; do
    grep -qx "$path" "$scratch/contents" || fail "the package lacks $path"
done
dpkg-deb --field "$deb" Depends >"$scratch/depends"
for needed in libvirt-daemon-system qemu-system-x86 libqt6webenginewidgets6 libvirt0 npm acl \
    libcap2-bin iptables ebtables; do
    grep -q "\b$needed\b" "$scratch/depends" || fail "Depends lacks $needed: $(cat "$scratch/depends")"
done

say "lintian"
lintian --fail-on error --tag-display-limit 0 "$deb" | tee "$output_dir/lintian.txt" ||
    fail "lintian reports errors (above)"

# --- install -----------------------------------------------------------------
say "apt install ./$(basename "$deb")"
installed_by_test=yes
(cd "$(dirname "$deb")" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$(basename "$deb")" \
    >"$scratch/apt.log" 2>&1) || {
    cat "$scratch/apt.log" >&2
    fail "apt install of the package failed"
}

desktop_file=/usr/share/applications/arizuko-desktop.desktop
desktop-file-validate "$desktop_file" || fail "desktop-file-validate rejects $desktop_file"
appstreamcli validate --no-net /usr/share/metainfo/org.arizuko.desktop.metainfo.xml ||
    fail "appstreamcli rejects the metainfo file"
for program in arizuko-desktop arizukoctl; do
    [ "$(command -v "$program")" = "/usr/bin/$program" ] || fail "$program is not /usr/bin/$program on PATH"
done
/usr/bin/arizukoctl --version | grep -q '^arizukoctl ' || fail "the installed arizukoctl does not run"
"$helpers/arizuko-egress" --help | grep -q 'allowlist' || fail "the installed arizuko-egress does not run"
# The postinst gave the net helper CAP_NET_ADMIN, and nothing else, so a
# normal user's turns start in pretap.
getcap "$helpers/arizuko-net-helper" | grep -q 'cap_net_admin[=+]ep$' ||
    fail "the net helper lacks its capability: $(getcap "$helpers/arizuko-net-helper")"
# Only root and group libvirt may run it at all; nobody else gets as far as
# its own group check.
helper_mode=$(stat -c '%U:%G %a' "$helpers/arizuko-net-helper")
[ "$helper_mode" = "root:libvirt 750" ] ||
    fail "the net helper is $helper_mode, not root:libvirt 750"
nobody_run=$(runuser -u nobody -- "$helpers/arizuko-net-helper" check 2>&1) &&
    fail "user nobody could run the net helper"
case "$nobody_run" in
    *"Permission denied"*) ;;
    *) fail "user nobody was not refused execution of the net helper: $nobody_run" ;;
esac

# bash completion: the installed script completes a command and a subcommand.
completion=$(bash -c '
    source /usr/share/bash-completion/bash_completion
    source /usr/share/bash-completion/completions/arizukoctl
    COMP_WORDS=(arizukoctl netw); COMP_CWORD=1; COMP_LINE="arizukoctl netw"; COMP_POINT=${#COMP_LINE}
    _arizukoctl; printf "%s\n" "${COMPREPLY[@]}"
    COMP_WORDS=(arizukoctl network al); COMP_CWORD=2; COMP_LINE="arizukoctl network al"; COMP_POINT=${#COMP_LINE}
    _arizukoctl; printf "%s\n" "${COMPREPLY[@]}"')
[ "$completion" = $'network\nallow' ] || fail "bash completion gave '$completion', not 'network' then 'allow'"

getfacl -p /var/lib/libvirt/qemu | grep -qx 'group:libvirt:--x' ||
    fail "the postinst did not let the libvirt group traverse /var/lib/libvirt/qemu"

# --- a normal user in the libvirt group --------------------------------------
say "user $test_user (group libvirt)"
useradd --create-home --home-dir "$test_home" --shell /bin/bash --groups libvirt "$test_user"
user_by_test=yes

# Runs a command as USER with a login's plain environment (Debian's PATH
# for root or for a user); root gets a scratch home, so its own cache and
# data stay untouched.
as_user() {
    local user=$1 home path=/usr/local/bin:/usr/bin:/bin
    shift
    home=$test_home
    if [ "$user" = root ]; then
        home=$scratch/root-home
        path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    fi
    mkdir -p "$home"
    runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="$path" \
        LANG=C.UTF-8 ${DISPLAY:+DISPLAY="$DISPLAY"} ${XAUTHORITY:+XAUTHORITY="$XAUTHORITY"} \
        ${EXTRA_ENV:+$EXTRA_ENV} "$@"
}

# The guest image, built into the user's cache as the first-run guide's
# button does. Debian packages and Claude Code already downloaded by this
# machine's own image builds are offered to it (the builder checks them).
turn_home=$([ "$turn_user" = root ] && echo "$scratch/root-home" || echo "$test_home")
if [ -d "${HOME:-/root}/.cache/arizuko-desktop/downloads" ]; then
    mkdir -p "$turn_home/.cache/arizuko-desktop"
    cp -r "${HOME:-/root}/.cache/arizuko-desktop/downloads" "$turn_home/.cache/arizuko-desktop/"
    chown -R "$turn_user:" "$turn_home/.cache"
fi
say "guest image as $turn_user"
as_user "$turn_user" "$helpers/build-guest-image" --guest-binary "$helpers/arizuko-guest" \
    >"$output_dir/guest-image.log" 2>&1 || {
    tail -20 "$output_dir/guest-image.log" >&2
    fail "the installed image builder failed as $turn_user"
}

say "demo turn as $turn_user with /usr/bin/arizukoctl"
as_user "$turn_user" /usr/bin/arizukoctl folder add demo --name Demo >/dev/null
as_user "$turn_user" /usr/bin/arizukoctl network allow demo example.com >/dev/null
# The demo takes about a minute under TCG; a turn that cannot boot fails
# within the deadline rather than the default half hour.
as_user "$turn_user" /usr/bin/arizukoctl run demo --model-provider demo --deadline 600 \
    "Show me what you can do in this VM: run a command, write a file, fetch a host." \
    >"$output_dir/turn.out" 2>"$output_dir/turn.err" || {
    tail -30 "$output_dir/turn.err" >&2
    fail "the demo turn failed as $turn_user"
}
grep -q "Demo model" "$output_dir/turn.out" || fail "the turn's transcript lacks the demo model's text"
grep -q "done in" "$output_dir/turn.err" || fail "the turn did not end done"

# --- the window from the menu entry ------------------------------------------
exec_line=$(sed -n 's/^Exec=//p' "$desktop_file" | head -1 | sed 's/ *%[fFuUdDnNickvm]//g')
[ -n "$exec_line" ] || fail "no Exec line in $desktop_file"
say "the window as $test_user: Exec=$exec_line"
# A display of its own, whose cookie the test user may read. The server
# takes every cookie in its file; clients look theirs up by display.
cookie=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
xauth -f "$scratch/xauth" add :0 . "$cookie"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp -auth "$scratch/xauth" \
    3>"$scratch/display" >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
    [ -s "$scratch/display" ] && break
    sleep 0.1
done
[ -s "$scratch/display" ] || fail "Xvfb did not start"
display=:$(head -1 "$scratch/display")
xauth -f "$scratch/xauth" add "$display" . "$cookie"
chmod 0644 "$scratch/xauth" # after xauth, which writes a new file
export DISPLAY=$display XAUTHORITY=$scratch/xauth
# Xvfb has no GPU; everything else is as the menu starts it.
EXTRA_ENV="QTWEBENGINE_CHROMIUM_FLAGS=--disable-gpu" as_user "$test_user" sh -c "exec $exec_line" \
    >"$output_dir/window.log" 2>&1 &
window_pid=$!
shown=no
for _ in $(seq 600); do
    kill -0 "$window_pid" 2>/dev/null || break
    if xwininfo -root -tree | grep -q '"Arizuko Desktop'; then
        shown=yes
        break
    fi
    sleep 0.1
done
kill -0 "$window_pid" 2>/dev/null || {
    cat "$output_dir/window.log" >&2
    fail "the window exited"
}
[ "$shown" = yes ] || fail "no window titled 'Arizuko Desktop' within 60 s"
sleep 8 # WebEngine paints the transcript without a GPU
kill -0 "$window_pid" 2>/dev/null || {
    cat "$output_dir/window.log" >&2
    fail "the window died after showing"
}
"$grab_screen" "$output_dir/window.png" || fail "no screenshot of the window"
if [ "$turn_user" = "$test_user" ]; then
    as_user "$test_user" /usr/bin/arizukoctl turns --limit 1 | grep -q done ||
        fail "the window's store does not show the demo turn done"
fi

printf 'PASS: package built, lintian clean of errors, installed, validated; demo turn as %s; window from the menu entry (%s)\n' \
    "$turn_user" "$output_dir/window.png"
