# Sourced in the guest by guest_attacks.sh and ask_requests.sh: a plain HTTP
# request in absolute form to the turn's proxy ($http_proxy), over bash's
# /dev/tcp so no client hides the proxy's answer.
proxy=${http_proxy#http://}
proxy=${proxy%/}
PROXY_HOST=${proxy%%:*}
PROXY_PORT=${proxy##*:}

# proxy_get_outcome SECONDS URL: prints "http-<status> reason=<the
# X-Arizuko-Egress-Reason header> body=<the body's first line>".
proxy_get_outcome() {
    local response status reason body
    response=$(timeout "$1" bash -c '
        exec 3<>"/dev/tcp/$0/$1" || exit 9
        host=${2#http://}; host=${host%%/*}
        printf "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" "$2" "$host" >&3
        cat <&3' "$PROXY_HOST" "$PROXY_PORT" "$2" 2>&1)
    status=$(echo "$response" | head -n 1 | awk '{print $2}')
    reason=$(echo "$response" | grep -i '^X-Arizuko-Egress-Reason:' | tr -d '\r' | awk '{print $2}')
    body=$(echo "$response" | tr -d '\r' | sed '1,/^$/d' | head -n 1)
    echo "http-${status:-none} reason=${reason:-none} body=$body"
}
