#!/bin/bash
# pi as piLaunch starts it, in a command turn with the scripted model
# (--model-script pi-fixture-script.json): its JSON lines compared with
# tests/engine/agent/fixtures/pi-0.73.1-bash-turn.jsonl (docs/agents.md, "pi's start").
D=/tmp/piagent; mkdir -p $D
echo "{\"providers\":{\"anthropic\":{\"baseUrl\":\"$ANTHROPIC_BASE_URL\"}}}" > $D/models.json
echo '{"retry":{"enabled":false},"enableInstallTelemetry":false,"quietStartup":true}' > $D/settings.json
cd /home/agent; s=$EPOCHREALTIME
PI_CODING_AGENT_DIR=$D PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 pi -p --mode json --offline --provider anthropic \
  --session-dir /home/agent/.pi/agent/sessions --model claude-sonnet-4-5 "write a note" > /home/agent/pi-out.jsonl 2> /home/agent/pi-err.txt
echo "pi rc=$? in $(( (${EPOCHREALTIME/./} - ${s/./}) / 1000 )) ms; lines $(wc -l < /home/agent/pi-out.jsonl)"
