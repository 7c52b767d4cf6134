#!/bin/bash
# Claude Code's start inside the guest, timed with the guest's own clock.
# The strace step wants the host's /usr/bin/strace and the libraries ldd names (less libc)
# in $HOME/tools and $HOME/tools/lib: it is never put into the image.
out=$HOME/out/$1; mkdir -p $out; exec 2>&1
C=/usr/local/bin/claude
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
stamp() { local s=$1; while IFS= read -r l; do echo "$(ms $s $EPOCHREALTIME) ${l:0:100}"; done; }
run_claude() { # name home debugfile
  local h=$2; mkdir -p $h; local s=$(now)
  local sid=$(cat /proc/sys/kernel/random/uuid)
  HOME=$h $C -p hi --output-format stream-json --verbose --session-id $sid \
    --mcp-config "{\"mcpServers\":{\"arizuko\":{\"type\":\"http\",\"url\":\"$ANTHROPIC_BASE_URL/mcp\",\"headers\":{\"Authorization\":\"Bearer $ANTHROPIC_API_KEY\"}}}}" \
    --strict-mcp-config --dangerously-skip-permissions --debug-file $3 < /dev/null | stamp $s > $out/$1.lines
  echo "$1 total $(ms $s $(now)) ms start_epoch $s"; head -c 300 $out/$1.lines | cut -c1-60; cp $3 $out/$1.debug
}
echo "uptime $(cat /proc/uptime)"; cat /proc/meminfo | head -3
drop; s=$(now); cat $C > /dev/null; echo "read-cold $(ms $s $(now)) ms"
s=$(now); cat $C > /dev/null; echo "read-cached $(ms $s $(now)) ms"
s=$(now); $C --version; echo "version-cached $(ms $s $(now)) ms"
drop; s=$(now); $C --version; echo "version-cold $(ms $s $(now)) ms"
drop; run_claude p-cold-9p /home/agent/h1 /tmp/d1.txt
run_claude p-cached-9p /home/agent/h2 /tmp/d2.txt
run_claude p-cached-9p-again /home/agent/h2 /tmp/d2b.txt
run_claude p-cached-tmpfs /tmp/h3 /tmp/d3.txt
drop; s=$(now); LD_LIBRARY_PATH=$HOME/tools/lib $HOME/tools/strace -f -tt --seccomp-bpf -e trace=execve,openat,connect,exit_group -o $out/strace.txt $C --version; echo "strace-version-cold $(ms $s $(now)) ms"
echo "uptime $(cat /proc/uptime)"
