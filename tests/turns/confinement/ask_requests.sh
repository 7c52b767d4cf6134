# Run in the guest by test_ask_approvals.py and test_ask_on_terminal.py:
# plain HTTP requests through the turn's proxy to hosts on no allow entry of
# a folder that asks, one per "STEP URL" pair of arguments. One line per
# request: "ASKED <step> http-<status> reason=<reason> body=<first line>".
. "$(dirname "$0")/proxy_request.sh"

# The steps: pairs of arguments "STEP URL", in order. A request may wait for
# an answer up to the folder's question timeout.
while [ $# -ge 2 ]; do
    echo "ASKED $1 $(proxy_get_outcome 60 "$2")"
    shift 2
done
