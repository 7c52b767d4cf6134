#!/bin/bash
# pi's bundle without (cli.mjs) and with (pi.mjs) the image's compile cache, alternated in one
# guest, cached and after drop_caches (docs/agents.md, "pi's start"). A command turn, as root:
# bash /home/agent/pi-cache-ab.sh
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
timed() { local name=$1; shift; local s=$(now); "$@" > /dev/null 2>&1; echo "$name $(ms $s $(now)) ms rc=$?"; }
B=/usr/local/lib/pi/bundle/cli.mjs; C=/usr/local/lib/pi/bundle/pi.mjs
timed warmup node $B --version
for r in 1 2 3; do
  timed bundle-warm-$r node $B --version
  timed cached-warm-$r node $C --version
  drop; timed cached-cold-$r node $C --version
  drop; timed bundle-cold-$r node $B --version
done
cat /proc/loadavg
