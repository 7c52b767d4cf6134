#pragma once

// The heads the proxy sends on: the request to the upstream in origin form and the response to the
// client, each without the hop-by-hop fields that belong to one connection only.

#include "request_head.hpp"
#include "response_head.hpp"

#include <string>
#include <string_view>

namespace arizuko::egress {

// Connection, Keep-Alive, Proxy-*, TE, Trailer, Upgrade and every field Connection names. The
// framing fields (Content-Length, Transfer-Encoding) stay: bodies are forwarded unchanged.
bool isHopByHopField(std::string_view name, const HeaderFields &fields);

// "METHOD /path HTTP/1.1", Host from the request's authority, and Connection: close, since every
// forwarded plain-HTTP request gets its own upstream connection; an inspected connection keeps its
// upstream connection (`closeAfter` false).
std::string buildUpstreamRequestHead(const RequestHead &request, bool closeAfter = true);

// What a client that sent `Expect: 100-continue` waits for before its body: the proxy says it
// itself when it must read the body's start before anything goes upstream.
inline constexpr std::string_view kContinueResponse = "HTTP/1.1 100 Continue\r\n\r\n";
bool expectsContinue(const RequestHead &request);

// The status line in the proxy's own version, the upstream's fields, and Connection: close when
// the proxy will close the client connection after this response.
std::string buildClientResponseHead(const ResponseHead &response, bool keepAlive,
                                    bool clientIsHttp10);

} // namespace arizuko::egress
