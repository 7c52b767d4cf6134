#pragma once

// Why a request was allowed or refused, with the status and the error response the client gets
// (docs/egress.md, "Responses").

#include <string>
#include <string_view>

namespace arizuko::egress {

enum class Reason
{
    Allowed,
    ClientNotAllowed,
    HostNotAllowed,
    HostDenied,
    PrivateAddress,
    ResolveFailed,
    ConnectFailed,
    ConnectTimeout,
    BadRequest,
    HeadersTooLarge,
    ConnectionLimit,
    BadResponse,
    HeaderTimeout,
    Starting,
    // A request held for the user's answer (--ask) and refused: the user said no, nobody answered
    // in time, or too many questions were already waiting.
    UserDenied,
    NoAnswer,
    AskLimit,
    // Inspected hosts (--rule): a deny rule matched, or no allow rule did; the upstream's
    // certificate did not verify for the host.
    DeniedByRule,
    NoMatchingRule,
    UpstreamNotTrusted,
    // A secret's placeholder on its way to a host the secret is not bound to (--secrets-fd).
    PlaceholderLeak,
};

std::string_view reasonCode(Reason reason);
int reasonStatus(Reason reason);
std::string_view statusText(int status);

// The complete response: status line, X-Arizuko-Egress-Reason, X-Arizuko-Egress-Host when the
// request named a host, Connection: close, and the one-line body
// "arizuko-egress: <reason>: <detail>". `host` must be a parsed host name (it goes in a header).
// `keepAlive` leaves out Connection: close, for a denial inside an inspected connection that goes
// on.
std::string buildErrorResponse(Reason reason, std::string_view detail, std::string_view host = {},
                               bool keepAlive = false);

// What a denial body tells the agent to pass on: how the user can allow `host` for `folder` (the
// proxy's --folder; empty for none). Ends with the host name, no full stop, so it can be copied.
std::string allowHint(std::string_view host, std::string_view folder);

} // namespace arizuko::egress
