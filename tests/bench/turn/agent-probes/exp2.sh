#!/bin/bash
# A/B of Claude Code's start inside one guest, variants alternated round by round.
out=$HOME/out/$1; rounds=${2:-2}; mkdir -p $out; exec 2>&1
C=/usr/local/bin/claude
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
cached_kb() { awk '/^Cached:/{print $2}' /proc/meminfo; }
stamp() { local s=$1; while IFS= read -r l; do echo "$(ms $s $EPOCHREALTIME) ${l:0:100}"; done; }
run_claude() { # name home env...
  local name=$1 h=$2; shift 2; rm -rf $h; mkdir -p $h
  local c0=$(cached_kb) s=$(now) sid=$(cat /proc/sys/kernel/random/uuid)
  env HOME=$h "$@" $C -p hi --output-format stream-json --verbose --session-id $sid \
    --mcp-config "{\"mcpServers\":{\"arizuko\":{\"type\":\"http\",\"url\":\"$ANTHROPIC_BASE_URL/mcp\",\"headers\":{\"Authorization\":\"Bearer $ANTHROPIC_API_KEY\"}}}}" \
    --strict-mcp-config --dangerously-skip-permissions --debug-file /tmp/$name.debug < /dev/null | stamp $s > $out/$name.lines
  local e=$(now)
  local init=$(awk '/"subtype":"init"/{print $1; exit}' $out/$name.lines)
  local text=$(awk '/"type":"assistant"/{print $1; exit}' $out/$name.lines)
  local req=$(grep -m1 'API REQUEST' /tmp/$name.debug | cut -c1-24)
  echo "RESULT $name init=$init first_text=$text total=$(ms $s $e) cached_delta_kb=$(( $(cached_kb) - c0 )) start=$s req_at=$req"
  cp /tmp/$name.debug $out/$name.debug
}
echo "uptime $(cat /proc/uptime) load $(cat /proc/loadavg)"
for r in $(seq $rounds); do
  drop; run_claude cold-$r /tmp/h
  run_claude cached-$r /tmp/h
  run_claude nojit-$r /tmp/h BUN_JSC_useJIT=0
  run_claude baselinejit-$r /tmp/h BUN_JSC_useDFGJIT=0 BUN_JSC_useFTLJIT=0
  run_claude cached9p-$r /home/agent/h9
done
echo "uptime $(cat /proc/uptime)"
