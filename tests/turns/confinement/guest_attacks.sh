# Runs as the agent (root) inside a turn VM and tries every way out but the
# proxy. One line per fact: "TOOL <name> present|missing" and
# "ATTEMPT <name> <outcome> <detail>"; the host test judges them.
# Every attempt is bounded by `timeout`. Outcomes of a connect:
# connected | refused | unreachable | timeout | error.
set -u
PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin

say() { echo "ATTEMPT $1 $2 $(echo "${3:-}" | tr '\r\n' '  ' | cut -c1-300)"; }

for tool in bash timeout wget nc ping ping6 ip ifconfig arp nslookup sysctl id awk; do
    if command -v "$tool" >/dev/null 2>&1; then echo "TOOL $tool present"; else echo "TOOL $tool missing"; fi
done
echo "ATTEMPT agent-uid $(id -u) $(id)"

. "$(dirname "$0")/proxy_request.sh"
IFACE=$(ls /sys/class/net | grep -v '^lo$' | head -n 1)
ADDRESS=$(ip -4 -o addr show dev "$IFACE" | awk '{print $4}' | head -n 1)
MAC=$(cat "/sys/class/net/$IFACE/address")
echo "ATTEMPT guest-network ok iface=$IFACE address=$ADDRESS mac=$MAC proxy=$PROXY_HOST:$PROXY_PORT"

# tcp NAME HOST PORT: a raw TCP connect with bash's /dev/tcp.
tcp() {
    local out rc outcome
    out=$(timeout 4 bash -c 'exec 3<>"/dev/tcp/$0/$1" && echo connected' "$2" "$3" 2>&1)
    rc=$?
    case "$rc:$out" in
        0:*connected*) outcome=connected ;;
        124:* | 143:*) outcome=timeout ;;
        *refused*) outcome=refused ;;
        *nreachable* | *"No route"*) outcome=unreachable ;;
        *) outcome=error ;;
    esac
    say "$1" "$outcome" "rc=$rc $2:$3 $out"
}

# udp NAME HOST PORT: three datagrams with bash's /dev/udp (sent or not; the
# host's listeners tell whether anything arrived).
udp() {
    local out rc
    out=$(timeout 4 bash -c 'for i in 1 2 3; do echo probe-$i >"/dev/udp/$0/$1" || exit 1; done' "$2" "$3" 2>&1)
    rc=$?
    say "$1" "sent-rc=$rc" "$2:$3 $out"
}

# ping_host NAME HOST [ping args]: ICMP echo; outcome replies=N.
ping_host() {
    local name=$1 host=$2 out received from
    shift 2
    out=$(timeout 8 ping -c 2 -W 3 "$@" "$host" 2>&1)
    received=$(echo "$out" | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')
    from=$(echo "$out" | sed -n 's/.* bytes from \([^ ]*\): .*/\1/p' | sort -u | tr '\n' ',')
    say "$name" "replies=${received:-none}" "$host from=$from $(echo "$out" | tail -n 2)"
}

# proxy_get NAME URL: a plain HTTP request in absolute form to the proxy;
# outcome http-<status>, detail the reason header and the body's first line.
proxy_get() {
    local outcome
    outcome=$(proxy_get_outcome 10 "$2")
    say "$1" "${outcome%% *}" "${outcome#* }"
}

# proxy_connect NAME HOST:PORT: CONNECT, then (on 200) GET /hello through the tunnel.
proxy_connect() {
    local response status reason body
    response=$(timeout 10 bash -c '
        exec 3<>"/dev/tcp/$0/$1" || exit 9
        printf "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" "$2" "$2" >&3
        cr=$(printf "\r")
        IFS= read -r line <&3; echo "$line"
        while IFS= read -r header <&3; do
            echo "$header"; [ "$header" = "$cr" ] && break
        done
        echo BODY
        case "$line" in
            *" 200"*)
                printf "GET /hello HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" "$2" >&3
                cat <&3 | sed "1,/^$cr\$/d" ;;
            *) cat <&3 ;;
        esac' "$PROXY_HOST" "$PROXY_PORT" "$2" 2>&1)
    status=$(echo "$response" | head -n 1 | awk '{print $2}')
    reason=$(echo "$response" | grep -i '^X-Arizuko-Egress-Reason:' | tr -d '\r' | awk '{print $2}')
    body=$(echo "$response" | tr -d '\r' | sed '1,/^BODY$/d' | head -n 1)
    say "$1" "http-${status:-none}" "reason=${reason:-none} body=$body"
}

# --- positive control: the plan comes from the allowed server through the
# proxy, with wget and the proxy environment the guest gives every agent.
plan=$(timeout 15 wget -q -O - "http://127.0.0.1:${APP_PORT}/plan" 2>&1)
if ! echo "$plan" | grep -q '^HOST_IP='; then
    say positive-control-plan failed "$plan"
    exit 1
fi
say positive-control-plan ok "wget via \$http_proxy"
eval "$plan"
APP="127.0.0.1:${APP_PORT}"

# --- through the proxy
proxy_get proxy-http-allowed "http://$APP/hello"
proxy_connect proxy-connect-allowed "$APP"
proxy_get proxy-http-off-list "http://denied.example/"
proxy_connect proxy-connect-off-list "denied.example:443"
proxy_get proxy-http-private-address "http://$OUTSIDE_PRIVATE_ADDRESS:$OUTSIDE_TCP_PORT/"
proxy_get proxy-http-outside-allowed "http://$OUTSIDE_ADDRESS:$OUTSIDE_TCP_PORT/"
# Allowed NAMES: the engine's /etc/hosts (a private mount for this test)
# maps outside.test to the outside and private.test to a private address.
proxy_get proxy-http-name-outside "http://$OUTSIDE_NAME:$OUTSIDE_TCP_PORT/"
proxy_get proxy-http-name-private "http://$PRIVATE_NAME:$OUTSIDE_TCP_PORT/"
proxy_connect proxy-connect-name-private "$PRIVATE_NAME:$OUTSIDE_TCP_PORT"
tcp raw-tcp-proxy-port "$HOST_IP" "$PROXY_PORT"

# --- every other way out, at the same time (each bounded). The batch has
# its own positive controls (started once the probes are in flight), so a
# guest too slow to connect anything within the caps cannot pass as blocked.
tcp raw-tcp-host-other-port "$HOST_IP" "$HOST_TCP_PORT" &
n=0
for address in $HOST_OTHER_ADDRESSES; do
    n=$((n + 1))
    tcp "raw-tcp-host-address-$n" "$address" "$HOST_TCP_PORT" &
done
tcp raw-tcp-outside "$OUTSIDE_ADDRESS" "$OUTSIDE_TCP_PORT" &
tcp raw-tcp-outside-private "$OUTSIDE_PRIVATE_ADDRESS" "$OUTSIDE_TCP_PORT" &
tcp raw-tcp-other-proxy "$OTHER_PROXY_HOST" "$OTHER_PROXY_PORT" &
udp udp-53-host "$HOST_IP" 53 &
udp udp-53-outside "$OUTSIDE_ADDRESS" 53 &
( out=$(timeout 8 nslookup example.com "$HOST_IP" 2>&1); say dns-lookup-host "rc=$?" "$out" ) &
( out=$(timeout 8 nslookup example.com "$OUTSIDE_ADDRESS" 2>&1); say dns-lookup-outside "rc=$?" "$out" ) &
ping_host icmp-host "$HOST_IP" &
ping_host icmp-outside "$OUTSIDE_ADDRESS" &
ping_host icmp-other-turn-host "$OTHER_HOST_IP" &
sleep 1
tcp positive-control-batch-ipv4 "$HOST_IP" "$PROXY_PORT" &
proxy_get positive-control-batch-ipv4-http "http://$APP/hello" &
wait

# --- IPv6: off in the guest, no route; then root turns it on and tries the host's link-local
say ipv6-disabled "$(cat "/proc/sys/net/ipv6/conf/$IFACE/disable_ipv6" 2>&1)" "$(ip -6 addr 2>&1)"
say ipv6-routes "count=$(ip -6 route 2>/dev/null | grep -c .)" "$(ip -6 route 2>&1)"
tcp raw-tcp6-global "$HOST_GLOBAL_IPV6" "$HOST_TCP6_PORT"
sysctl -w net.ipv6.conf.all.disable_ipv6=0 "net.ipv6.conf.$IFACE.disable_ipv6=0" >/dev/null 2>&1
for _ in 1 2 3 4 5 6 7 8 9 10; do
    ip -6 addr show dev "$IFACE" scope link 2>/dev/null | grep -q 'fe80' \
        && ! ip -6 addr show dev "$IFACE" 2>/dev/null | grep -q tentative && break
    sleep 0.5
done
say ipv6-enabled-by-root "$(cat "/proc/sys/net/ipv6/conf/$IFACE/disable_ipv6")" \
    "$(ip -6 addr show dev "$IFACE" 2>&1)"
# An address on the bridge's global /64, so the host's global address is
# on-link: the guest's first frame towards it (a neighbour solicitation)
# really leaves the guest. busybox cannot pin a neighbour, so no SYN goes
# out; the host-side witnesses check that the solicitation reached the tap
# and nothing IPv6 got past it.
ip -6 addr add "$GUEST_GLOBAL_IPV6/64" dev "$IFACE" 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do
    ip -6 addr show dev "$IFACE" 2>/dev/null | grep -q "$GUEST_GLOBAL_IPV6" \
        && ! ip -6 addr show dev "$IFACE" 2>/dev/null | grep -q tentative && break
    sleep 0.5
done
say ipv6-attack-set ok "$(ip -6 -o addr show dev "$IFACE" 2>&1 | awk '{print $4}' | tr '\n' ' ')"
tcp raw-tcp6-link-local "$BRIDGE_LINK_LOCAL%$IFACE" "$HOST_TCP6_PORT" &
ping_host icmp6-link-local "$BRIDGE_LINK_LOCAL" -6 -I "$IFACE" &
ping_host icmp6-all-nodes ff02::1 -6 -I "$IFACE" &
tcp raw-tcp6-global-after-enable "$HOST_GLOBAL_IPV6" "$HOST_TCP6_PORT" &
sleep 1
tcp positive-control-batch-ipv6 "$HOST_IP" "$PROXY_PORT" &
wait
say ipv6-neighbours "count=$(ip -6 neigh show dev "$IFACE" 2>/dev/null | grep -c 'lladdr')" \
    "$(ip -6 neigh show dev "$IFACE" 2>&1)"
sysctl -w net.ipv6.conf.all.disable_ipv6=1 "net.ipv6.conf.$IFACE.disable_ipv6=1" >/dev/null 2>&1

# --- a changed IP address (the other turn's guest address): nothing gets through.
# The host's MAC is pinned first, so the spoofed packets really leave the
# guest (ARP from a spoofed address would fail first and prove less).
HOST_MAC=$(awk -v ip="$HOST_IP" '$1 == ip { print $4 }' /proc/net/arp)
ip addr flush dev "$IFACE"
ip addr add "$OTHER_GUEST_IP/30" dev "$IFACE"
ip route add "$HOST_IP/32" dev "$IFACE" 2>/dev/null
ip route add default via "$HOST_IP" dev "$IFACE" 2>/dev/null
arp -i "$IFACE" -s "$HOST_IP" "$HOST_MAC"
# The other turn's host address is on the spoofed /30: send it to our host too.
arp -i "$IFACE" -s "$OTHER_HOST_IP" "$HOST_MAC"
say spoofed-ip-set ok "$(ip -4 -o addr show dev "$IFACE") host-mac=$HOST_MAC $(cat /proc/net/arp | tail -n +2)"
tcp spoofed-ip-own-proxy "$HOST_IP" "$PROXY_PORT" &
tcp spoofed-ip-other-proxy "$OTHER_PROXY_HOST" "$OTHER_PROXY_PORT" &
tcp spoofed-ip-outside "$OUTSIDE_ADDRESS" "$OUTSIDE_TCP_PORT" &
wait
ip addr flush dev "$IFACE"
arp -i "$IFACE" -d "$HOST_IP" 2>/dev/null
arp -i "$IFACE" -d "$OTHER_HOST_IP" 2>/dev/null
ip addr add "$ADDRESS" dev "$IFACE"
ip route add default via "$HOST_IP" dev "$IFACE" 2>/dev/null
tcp restored-ip-proxy-port "$HOST_IP" "$PROXY_PORT"

# --- a changed MAC address: nothing gets through
ip link set dev "$IFACE" down
ip link set dev "$IFACE" address 52:54:00:de:ad:01
ip link set dev "$IFACE" up
ip route add default via "$HOST_IP" dev "$IFACE" 2>/dev/null
arp -i "$IFACE" -s "$HOST_IP" "$HOST_MAC"
say spoofed-mac-set ok "$(cat "/sys/class/net/$IFACE/address") host-mac=$HOST_MAC"
tcp spoofed-mac-own-proxy "$HOST_IP" "$PROXY_PORT" &
tcp spoofed-mac-outside "$OUTSIDE_ADDRESS" "$OUTSIDE_TCP_PORT" &
ping_host spoofed-mac-icmp-host "$HOST_IP" &
wait
ip link set dev "$IFACE" down
ip link set dev "$IFACE" address "$MAC"
ip link set dev "$IFACE" up
ip route add default via "$HOST_IP" dev "$IFACE" 2>/dev/null
arp -i "$IFACE" -d "$HOST_IP" 2>/dev/null

# --- positive control at the end: the network works again once restored
for _ in 1 2 3 4 5; do
    tcp_out=$(timeout 4 bash -c 'exec 3<>"/dev/tcp/$0/$1" && echo connected' "$HOST_IP" "$PROXY_PORT" 2>&1)
    [ "$tcp_out" = connected ] && break
    sleep 1
done
final=$(timeout 15 wget -q -O - "http://$APP/hello" 2>&1)
say positive-control-final "$( [ "$final" = hello-from-allowed ] && echo ok || echo failed)" "$final"
echo "ATTEMPT done ok"
