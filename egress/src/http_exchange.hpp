#pragma once

// One forwarded absolute-form request: the head rewritten to origin form, the request body and
// the response streamed through bounded buffers, each body's end found from its framing so the
// client connection can carry the next request.

#include "byte_buffer.hpp"
#include "http_framing.hpp"
#include "request_head.hpp"
#include "secret_bindings.hpp"
#include "socket_readiness.hpp"
#include "value_scrubber.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace arizuko::egress {

class HttpExchange
{
public:
    enum class Progress
    {
        Running,
        Complete,
        Failed,
    };

    struct Socket
    {
        int fd;
        SocketReadiness &readiness;
    };

    // The secrets (--secrets-fd): whether the start of the body carries a placeholder bound to
    // another host, and for an inspected host the scrubber of its response (else null).
    struct Secrets
    {
        const SecretBindings *bindings = nullptr;
        const ValueScrubber *scrubber = nullptr;
    };

    // `clientInput` holds what the client sent after the request head; the exchange takes the
    // body from it and leaves whatever follows (a pipelined request) in place.
    HttpExchange(Socket client, Socket upstream, const RequestHead &request,
                 BodyFraming requestFraming, ByteBuffer &clientInput, size_t maxHeadBytes,
                 Secrets secrets);

    Progress pump();

    // Valid once Complete: whether the client connection may carry another request.
    bool keepAlive() const { return keepAlive_; }
    // The status forwarded to the client; 0 while no response head has been sent on.
    int responseStatus() const { return responseStatus_; }
    const std::string &failure() const { return failure_; }
    // Whether a failure was the upstream's (the client is owed a 502) rather than the client's.
    bool upstreamFailed() const { return upstreamFailed_; }
    // The secret whose placeholder the start of the request body carried (the exchange failed
    // before a byte went upstream); null otherwise.
    const SecretBinding *leak() const { return leak_; }
    uint64_t bytesUp() const { return bytesUp_; }
    uint64_t bytesDown() const { return bytesDown_; }

private:
    bool pumpRequest();
    bool pumpResponse();
    bool readResponseHead();
    bool readResponseBody();
    bool failClient(std::string why);
    bool failUpstream(std::string why);
    bool holdBodyStart();
    void scrubInto(std::string_view body, bool ends);

    Socket client_;
    Socket upstream_;
    std::string method_;
    bool clientWantsKeepAlive_;
    bool clientIsHttp10_;
    ByteBuffer &clientInput_;
    ByteBuffer toUpstream_;
    ByteBuffer fromUpstream_;
    ByteBuffer toClient_;
    BodyReader requestBody_;
    BodyReader responseBody_;
    bool requestAbandoned_ = false;
    bool responseHeadForwarded_ = false;
    bool responseDone_ = false;
    bool keepAlive_ = false;
    int responseStatus_ = 0;
    uint64_t bytesUp_ = 0;
    uint64_t bytesDown_ = 0;
    std::string failure_;
    bool upstreamFailed_ = false;
    Secrets secrets_;
    HostName host_;
    // The head waits in toUpstream_ until the body's first kLeakWindow bytes (or its end) are
    // there and carry no placeholder of another host.
    bool holding_ = false;
    size_t headSize_ = 0;
    const SecretBinding *leak_ = nullptr;
    std::optional<BodyScrubber> bodyScrubber_;
    std::string scrubIn_;
    std::string scrubOut_;
};

} // namespace arizuko::egress
