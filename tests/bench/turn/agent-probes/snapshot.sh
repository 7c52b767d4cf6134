#!/bin/bash
# Snapshot experiment (run on the host, as root, with a spare of tests/bench/turn/warm's driver):
# save a spare's guest (booted, binary read ahead, waiting for its spec),
# restore it (same name and UUID: libvirt requires both) with its own sockets, console and tap,
# send a command spec on its channel, time it. Usage: snapshot.sh SPARE-DOMAIN
set -u
U=qemu:///system; SP=$1; W=${SNAPSHOT_DIR:-/tmp/agent-probe-snapshot}; rm -rf $W; mkdir -p $W
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
s=$(now); virsh -c $U save $SP $W/snap.sav --running >/dev/null || exit 1; e=$(now)
echo "save $(ms $s $e) ms, file $(stat -c %s $W/snap.sav) bytes"
virsh -c $U save-image-dumpxml $W/snap.sav > $W/orig.xml
sleep 5  # the engine tears its spare's objects down
ip tuntap add dev probesnap mode tap vnet_hdr && ip link set probesnap up
python3 - "$SP" $W <<'PY'
import re,sys
sp,w=sys.argv[1],sys.argv[2]
x=open(f"{w}/orig.xml").read()
x=re.sub(r"path='[^']*turn\.sock'",f"path='{w}/turn.sock'",x)
x=re.sub(r"path='[^']*mcp\.sock'",f"path='{w}/mcp.sock'",x)
x=re.sub(r"<log file='[^']*'",f"<log file='{w}/console.log'",x)
x=re.sub(r"path='[^']*console\.log'",f"path='{w}/console.log'",x)
x=x.replace(f"<target dev='{sp}-g'",f"<target dev='probesnap'")
open(f"{w}/new.xml","w").write(x)
PY
grep -n "probesnap\|sock\|console" $W/new.xml | head
s=$(now); virsh -c $U restore $W/snap.sav --xml $W/new.xml --running >/dev/null || { echo restore failed; ip link del probesnap; exit 1; }; e=$(now)
echo "restore $(ms $s $e) ms"
python3 - $W/turn.sock $s <<'PY'
import json,socket,sys,time
path,start=sys.argv[1],int(sys.argv[2])
c=socket.socket(socket.AF_UNIX); c.connect(path)
spec={"type":"turn","version":1,"turn_id":"t-snap","folder":"snap","topic":"t","agent":"command",
      "command":"echo hi; cat /proc/uptime","timeout_seconds":60,"uid":0,"gid":0}
c.sendall((json.dumps(spec)+"\n").encode())
f=c.makefile()
for line in f:
    m=json.loads(line); t=(time.time_ns()-start)/1e6
    print(f"{t:8.0f} ms after restore began: {line.strip()[:120]}")
    if m.get("type")=="exit":
        c.sendall((json.dumps({"type":"ack","seq":m["seq"]})+"\n").encode()); break
PY
sleep 2; virsh -c $U destroy $SP >/dev/null 2>&1; ip link del probesnap; ls -la $W
