# Run in the guest by test_ask_approvals.py and test_ask_on_terminal.py:
# plain HTTP requests through the turn's proxy to hosts on no allow entry of
# a folder that asks, one per "STEP URL" pair of arguments. One line per
# request: "ASKED <step> http-<status> reason=<reason> body=<first line>".
proxy=${http_proxy#http://}
proxy=${proxy%/}
PROXY_HOST=${proxy%%:*}
PROXY_PORT=${proxy##*:}

get() {
    local response status reason body
    response=$(timeout 60 bash -c '
        exec 3<>"/dev/tcp/$0/$1" || exit 9
        host=${2#http://}; host=${host%%/*}
        printf "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" "$2" "$host" >&3
        cat <&3' "$PROXY_HOST" "$PROXY_PORT" "$2" 2>&1)
    status=$(echo "$response" | head -n 1 | awk '{print $2}')
    reason=$(echo "$response" | grep -i '^X-Arizuko-Egress-Reason:' | tr -d '\r' | awk '{print $2}')
    body=$(echo "$response" | tr -d '\r' | sed '1,/^$/d' | head -n 1)
    echo "ASKED $1 http-${status:-none} reason=${reason:-none} body=$body"
}

# The steps: pairs of arguments "STEP URL", in order.
while [ $# -ge 2 ]; do
    get "$1" "$2"
    shift 2
done
