#include "reason.hpp"

#include <algorithm>
#include <cctype>

namespace arizuko::egress {
namespace {

// A folder name as one word of a shell command: as it is when it needs no quoting, else in single
// quotes (a name with a space must still paste as one argument).
std::string shellWord(std::string_view word)
{
    const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '/' || c == '.' ||
               c == '_' || c == '-' || c == '+' || c == ':' || c == '@' || c == ',';
    });
    if (plain)
        return std::string(word);
    std::string quoted = "'";
    for (const char c : word) {
        if (c == '\'')
            quoted.append("'\\''");
        else
            quoted.push_back(c);
    }
    return quoted + "'";
}

} // namespace

std::string_view reasonCode(Reason reason)
{
    switch (reason) {
    case Reason::Allowed:
        return "allowed";
    case Reason::ClientNotAllowed:
        return "client-not-allowed";
    case Reason::HostNotAllowed:
        return "host-not-allowed";
    case Reason::HostDenied:
        return "host-denied";
    case Reason::PrivateAddress:
        return "private-address";
    case Reason::ResolveFailed:
        return "resolve-failed";
    case Reason::ConnectFailed:
        return "connect-failed";
    case Reason::ConnectTimeout:
        return "connect-timeout";
    case Reason::BadRequest:
        return "bad-request";
    case Reason::HeadersTooLarge:
        return "headers-too-large";
    case Reason::ConnectionLimit:
        return "connection-limit";
    case Reason::BadResponse:
        return "bad-response";
    case Reason::HeaderTimeout:
        return "header-timeout";
    case Reason::Starting:
        return "starting";
    case Reason::UserDenied:
        return "user-denied";
    case Reason::NoAnswer:
        return "no-answer";
    case Reason::AskLimit:
        return "ask-limit";
    case Reason::DeniedByRule:
        return "denied-by-rule";
    case Reason::NoMatchingRule:
        return "no-matching-rule";
    case Reason::UpstreamNotTrusted:
        return "upstream-not-trusted";
    case Reason::PlaceholderLeak:
        return "placeholder-leak";
    }
    return "unknown";
}

int reasonStatus(Reason reason)
{
    switch (reason) {
    case Reason::Allowed:
        return 200;
    case Reason::ClientNotAllowed:
    case Reason::HostNotAllowed:
    case Reason::HostDenied:
    case Reason::PrivateAddress:
    case Reason::UserDenied:
    case Reason::NoAnswer:
    case Reason::AskLimit:
    case Reason::DeniedByRule:
    case Reason::NoMatchingRule:
    case Reason::PlaceholderLeak:
        return 403;
    case Reason::ResolveFailed:
    case Reason::ConnectFailed:
    case Reason::BadResponse:
    case Reason::UpstreamNotTrusted:
        return 502;
    case Reason::ConnectTimeout:
        return 504;
    case Reason::BadRequest:
        return 400;
    case Reason::HeadersTooLarge:
        return 431;
    case Reason::ConnectionLimit:
    case Reason::Starting:
        return 503;
    case Reason::HeaderTimeout:
        return 408;
    }
    return 500;
}

std::string_view statusText(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 408:
        return "Request Timeout";
    case 431:
        return "Request Header Fields Too Large";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Error";
    }
}

std::string allowHint(std::string_view host, std::string_view folder)
{
    std::string hint = "The user can allow it in Arizuko's Network tab or with: arizukoctl network "
                       "allow ";
    hint.append(folder.empty() ? std::string("<folder>") : shellWord(folder));
    hint.append(" ").append(host);
    return hint;
}

std::string buildErrorResponse(Reason reason, std::string_view detail, std::string_view host,
                               bool keepAlive)
{
    const int status = reasonStatus(reason);
    std::string body = "arizuko-egress: ";
    body.append(reasonCode(reason)).append(": ");
    // The body is one line: a detail quoting client input must not start a second one.
    for (const char c : detail)
        body.push_back(c == '\r' || c == '\n' ? ' ' : c);
    body.append("\n");
    std::string response = "HTTP/1.1 " + std::to_string(status) + " ";
    response.append(statusText(status)).append("\r\n");
    response.append("X-Arizuko-Egress-Reason: ").append(reasonCode(reason)).append("\r\n");
    if (!host.empty())
        response.append("X-Arizuko-Egress-Host: ").append(host).append("\r\n");
    response.append("Content-Type: text/plain; charset=utf-8\r\n");
    response.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    response.append(keepAlive ? "\r\n" : "Connection: close\r\n\r\n");
    response.append(body);
    return response;
}

} // namespace arizuko::egress
