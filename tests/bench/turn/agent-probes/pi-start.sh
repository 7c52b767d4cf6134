#!/bin/bash
# pi's start in the guest (docs/agents.md, "pi's start"): the installed tree (dist/cli.js) beside the
# bundle without and with its compile cache, all on the image's root disk, timed with the
# guest's own clock; variants alternate so the load hits them alike.
# Usage (a command turn, as root): bash /home/agent/pi-start.sh NAME [ROUNDS]; the strace
# step wants the host's strace in $HOME/tools as exp1.sh does.
out=$HOME/out/$1; rounds=${2:-2}; mkdir -p $out; exec 2>&1
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
timed() { local name=$1; shift; local s=$(now); "$@" > $out/$name.out 2>&1; local rc=$?; echo "$name $(ms $s $(now)) ms rc=$rc $(head -c 80 $out/$name.out | tr '\n' ' ')"; }
echo "uptime $(cat /proc/uptime) nproc $(nproc) $(cat /proc/loadavg)"; head -3 /proc/meminfo
cat /sys/devices/system/clocksource/clocksource0/current_clocksource
ORIG=/usr/local/lib/pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js
B=/usr/local/lib/pi/bundle/cli.mjs   # the bundle alone
C=/usr/local/lib/pi/bundle/pi.mjs    # the bundle with the image's compile cache (/usr/local/bin/pi)
ls -la /usr/local/bin/pi
timed node-e0 node -e 0
for r in $(seq $rounds); do
  drop; timed orig-cold-$r node $ORIG --version
  timed orig-warm-$r node $ORIG --version
  drop; timed bundle-cold-$r node $B --version
  timed bundle-warm-$r node $B --version
  drop; timed cached-cold-$r node $C --version
  timed cached-warm-$r node $C --version
done
timed orig-prof node --cpu-prof --cpu-prof-dir=$out/prof-orig $ORIG --version
timed bundle-prof node --cpu-prof --cpu-prof-dir=$out/prof-bundle $B --version
timed cached-prof node --cpu-prof --cpu-prof-dir=$out/prof-cached $C --version
if [ -x $HOME/tools/strace ]; then
  drop; timed orig-strace env LD_LIBRARY_PATH=$HOME/tools/lib $HOME/tools/strace -f -c -o $out/strace-orig.txt node $ORIG --version
  drop; timed bundle-strace env LD_LIBRARY_PATH=$HOME/tools/lib $HOME/tools/strace -f -c -o $out/strace-bundle.txt node $B --version
fi
echo "uptime $(cat /proc/uptime) $(cat /proc/loadavg)"
