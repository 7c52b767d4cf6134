#!/bin/bash
# Claude Code already started (--input-format stream-json, idle), then the prompt on stdin:
# prompt written -> first model request -> first text, beside a launch after the prompt.
out=$HOME/out/$1; rounds=${2:-2}; idle=${3:-60}; mkdir -p $out; exec 2>&1
C=/usr/local/bin/claude
now() { echo $EPOCHREALTIME; }
ms() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
stamp() { local s=$1; while IFS= read -r l; do echo "$(ms $s $EPOCHREALTIME) ${l:0:100}"; done; }
mcp="{\"mcpServers\":{\"arizuko\":{\"type\":\"http\",\"url\":\"$ANTHROPIC_BASE_URL/mcp\",\"headers\":{\"Authorization\":\"Bearer $ANTHROPIC_API_KEY\"}}}}"
prestarted() {
  local name=$1 h=/tmp/h-$1; rm -rf $h; mkdir -p $h; rm -f /tmp/in-$name; mkfifo /tmp/in-$name
  HOME=$h $C -p --input-format stream-json --output-format stream-json --verbose --session-id $(cat /proc/sys/kernel/random/uuid) \
    --mcp-config "$mcp" --strict-mcp-config --dangerously-skip-permissions --debug-file /tmp/$name.debug < /tmp/in-$name > /tmp/$name.out &
  local pid=$!
  exec 3>/tmp/in-$name
  sleep $idle
  local lines_before=$(wc -l < /tmp/$name.debug)
  local p=$(now)
  echo '{"type":"user","message":{"role":"user","content":"hi"}}' >&3
  local text=
  while :; do grep -q '"type":"assistant"' /tmp/$name.out && { text=$(now); break; }; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  exec 3>&-; wait $pid
  echo "RESULT $name mode=prestarted idle=$idle debug_lines_before_prompt=$lines_before prompt_epoch=$p prompt_to_text=$(ms $p $text) req_at=$(grep -m1 'API REQUEST' /tmp/$name.debug | cut -c1-24) first_debug_after_prompt=$(sed -n "$((lines_before+1))p" /tmp/$name.debug | cut -c1-24)"
  cp /tmp/$name.debug /tmp/$name.out $out/
}
launched() {
  local name=$1 h=/tmp/h-$1; rm -rf $h; mkdir -p $h
  local s=$(now)
  HOME=$h $C -p hi --output-format stream-json --verbose --session-id $(cat /proc/sys/kernel/random/uuid) \
    --mcp-config "$mcp" --strict-mcp-config --dangerously-skip-permissions --debug-file /tmp/$name.debug < /dev/null | stamp $s > /tmp/$name.out
  echo "RESULT $name mode=launched start_epoch=$s init=$(awk '/"subtype":"init"/{print $1; exit}' /tmp/$name.out) first_text=$(awk '/"type":"assistant"/{print $1; exit}' /tmp/$name.out) req_at=$(grep -m1 'API REQUEST' /tmp/$name.debug | cut -c1-24)"
  cp /tmp/$name.debug /tmp/$name.out $out/
}
cat $C > /dev/null
echo "uptime $(cat /proc/uptime)"
for r in $(seq $rounds); do prestarted pre-$r; launched launch-$r; done
echo "uptime $(cat /proc/uptime)"
