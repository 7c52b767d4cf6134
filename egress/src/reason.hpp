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
};

std::string_view reasonCode(Reason reason);
int reasonStatus(Reason reason);
std::string_view statusText(int status);

// The complete response: status line, X-Arizuko-Egress-Reason, Connection: close, and the one-line
// body "arizuko-egress: <reason>: <detail>".
std::string buildErrorResponse(Reason reason, std::string_view detail);

} // namespace arizuko::egress
