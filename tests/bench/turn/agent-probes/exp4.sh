#!/bin/bash
# JIT off against on (ABBA order), page cache warm; then a pre-started agent's memory.
out=$HOME/out/$1; rounds=${2:-3}; mkdir -p $out; exec 2>&1
C=/usr/local/bin/claude
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
mcp="{\"mcpServers\":{\"arizuko\":{\"type\":\"http\",\"url\":\"$ANTHROPIC_BASE_URL/mcp\",\"headers\":{\"Authorization\":\"Bearer $ANTHROPIC_API_KEY\"}}}}"
run() { # name env...
  local name=$1; shift; local h=/tmp/h-$name; rm -rf $h; mkdir -p $h
  local s=$(now)
  env HOME=$h "$@" $C -p hi --output-format stream-json --verbose --session-id $(cat /proc/sys/kernel/random/uuid) \
    --mcp-config "$mcp" --strict-mcp-config --dangerously-skip-permissions --debug-file /tmp/$name.debug < /dev/null > /tmp/$name.out
  local e=$(now)
  echo "RESULT $name start=$s total=$(ms $s $e) first_debug=$(head -1 /tmp/$name.debug | cut -c1-24) req_at=$(grep -m1 'API REQUEST' /tmp/$name.debug | cut -c1-24)"
  cp /tmp/$name.debug $out/
}
cat $C > /dev/null
echo "uptime $(cat /proc/uptime)"
for r in $(seq $rounds); do
  if [ $((r % 2)) = 1 ]; then run jit-$r; run nojit-$r BUN_JSC_useJIT=0; else run nojit-$r BUN_JSC_useJIT=0; run jit-$r; fi
done
# A pre-started agent, idle: its memory (what a snapshot would have to hold).
h=/tmp/h-pre; mkdir -p $h; mkfifo /tmp/in-pre
HOME=$h $C -p --input-format stream-json --output-format stream-json --verbose --dangerously-skip-permissions < /tmp/in-pre > /tmp/pre.out &
pid=$!; exec 3>/tmp/in-pre
prev=-1; for i in $(seq 300); do sleep 2; cpu=$(awk '{print $14+$15}' /proc/$pid/stat); [ "$cpu" = "$prev" ] && break; prev=$cpu; done
echo "RESULT pre-idle settled_after_s=$((i*2)) rss_kb=$(awk '/VmRSS/{print $2}' /proc/$pid/status) $(grep -E '^(MemTotal|MemFree|MemAvailable|Cached):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
exec 3>&-; wait $pid
echo "uptime $(cat /proc/uptime)"
