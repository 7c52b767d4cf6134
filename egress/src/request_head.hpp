#pragma once

// A proxy request head: the request line in authority form (CONNECT host:port) or absolute form
// (GET http://host/path), or origin form for the proxy's own /health, plus its header fields.

#include "expected.hpp"
#include "header_fields.hpp"
#include "host_name.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arizuko::egress {

enum class TargetForm
{
    Authority,
    Absolute,
    Origin,
};

struct RequestHead
{
    std::string method;
    TargetForm form = TargetForm::Origin;
    HostName host;
    uint16_t port = 0;
    // "host[:port]" as the client wrote it, for the Host field sent upstream.
    std::string authority;
    // Path and query: the origin-form target sent upstream, or the origin-form target itself.
    std::string path;
    int minorVersion = 1;
    HeaderFields fields;

    bool isConnect() const { return form == TargetForm::Authority; }
    bool isHealthCheck() const
    {
        return form == TargetForm::Origin && method == "GET" && path == "/health";
    }
};

// Parses a complete head (ending in CRLF CRLF). Every error is a 400 for the client.
Expected<RequestHead> parseRequestHead(std::string_view head);

// A host as a request names it: a name, a dotted quad or a bracketed IPv6 literal, and never a
// numeric-looking name the system resolver would read as an address.
Expected<HostName> parseRequestHost(std::string_view host);

// "host:port" or "[v6]:port"; the port is required unless `defaultPort` is given.
struct Authority
{
    HostName host;
    uint16_t port = 0;
};
Expected<Authority> parseAuthority(std::string_view authority, std::optional<uint16_t> defaultPort);

// HTTP/1.1 keeps the connection unless the client says close; HTTP/1.0 closes unless it asks to
// keep it.
bool clientWantsKeepAlive(const RequestHead &head);

} // namespace arizuko::egress
