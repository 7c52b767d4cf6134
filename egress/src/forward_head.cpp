#include "forward_head.hpp"

#include <array>

namespace arizuko::egress {
namespace {

// `replaced` names a field the proxy writes itself (empty for none).
void appendEndToEndFields(std::string &out, const HeaderFields &fields, std::string_view replaced)
{
    for (const HeaderField &field : fields) {
        if (isHopByHopField(field.name, fields) ||
            (!replaced.empty() && equalsIgnoringCase(field.name, replaced)))
            continue;
        out.append(field.name).append(": ").append(field.value).append("\r\n");
    }
}

} // namespace

bool isHopByHopField(std::string_view name, const HeaderFields &fields)
{
    static constexpr std::array<std::string_view, 8> kHopByHop{
        "Connection",         "Keep-Alive", "Proxy-Connection", "Proxy-Authorization",
        "Proxy-Authenticate", "TE",         "Trailer",          "Upgrade"};
    for (const std::string_view hopByHop : kHopByHop) {
        if (equalsIgnoringCase(name, hopByHop))
            return true;
    }
    if (equalsIgnoringCase(name, "Content-Length") || equalsIgnoringCase(name, "Transfer-Encoding"))
        return false;
    return fieldListsToken(fields, "Connection", name);
}

std::string buildUpstreamRequestHead(const RequestHead &request, bool closeAfter)
{
    std::string out;
    out.reserve(256);
    out.append(request.method).append(" ").append(request.path).append(" HTTP/1.1\r\n");
    out.append("Host: ").append(request.authority).append("\r\n");
    appendEndToEndFields(out, request.fields, "Host");
    out.append(closeAfter ? "Connection: close\r\n\r\n" : "\r\n");
    return out;
}

bool expectsContinue(const RequestHead &request)
{
    return request.minorVersion == 1 && fieldListsToken(request.fields, "Expect", "100-continue");
}

std::string buildClientResponseHead(const ResponseHead &response, bool keepAlive,
                                    bool clientIsHttp10)
{
    std::string out;
    out.reserve(256);
    out.append("HTTP/1.1 ").append(std::to_string(response.status));
    out.append(" ").append(response.reasonPhrase).append("\r\n");
    appendEndToEndFields(out, response.fields, {});
    if (!keepAlive)
        out.append("Connection: close\r\n");
    else if (clientIsHttp10)
        out.append("Connection: keep-alive\r\n");
    out.append("\r\n");
    return out;
}

} // namespace arizuko::egress
