#include "http_exchange.hpp"

#include "forward_head.hpp"
#include "response_head.hpp"
#include "socket_io.hpp"

namespace arizuko::egress {
namespace {

// Bodies move through user space in slices of this size; heads are bounded by the flag.
constexpr size_t kBodySlice = 64 * 1024;
// How much of a request body is searched for placeholders before any of it is sent.
constexpr size_t kLeakWindow = 64 * 1024;

} // namespace

HttpExchange::HttpExchange(Socket client, Socket upstream, const RequestHead &request,
                           BodyFraming requestFraming, ByteBuffer &clientInput, size_t maxHeadBytes,
                           Secrets secrets)
    : client_(client)
    , upstream_(upstream)
    , method_(request.method)
    , clientWantsKeepAlive_(clientWantsKeepAlive(request))
    , clientIsHttp10_(request.minorVersion == 0)
    , clientInput_(clientInput)
    , toUpstream_(kBodySlice)
    , fromUpstream_(maxHeadBytes)
    , toClient_(kBodySlice)
    , requestBody_(requestFraming)
    , secrets_(secrets)
    , host_(request.host)
{
    toUpstream_.append(buildUpstreamRequestHead(request));
    headSize_ = toUpstream_.size();
    holding_ = secrets_.bindings != nullptr && !secrets_.bindings->empty() &&
               !secrets_.bindings->allBoundTo(host_) && !requestBody_.done();
    if (secrets_.scrubber != nullptr && secrets_.scrubber->empty())
        secrets_.scrubber = nullptr;
}

bool HttpExchange::holdBodyStart()
{
    const auto held = [&] { return toUpstream_.size() - headSize_; };
    bool moved = false;
    while (!requestBody_.done() && held() < kLeakWindow) {
        if (clientInput_.empty()) {
            if (!client_.readiness.readable)
                return moved;
            const IoOutcome received = receiveInto(client_.fd, client_.readiness, clientInput_);
            if (received.kind == IoOutcome::Kind::Closed)
                return failClient("the client closed before the request body ended");
            if (received.kind == IoOutcome::Kind::Failed)
                return failClient("reading the request body failed");
            if (received.bytes == 0)
                return moved;
        }
        const std::string_view available = clientInput_.view().substr(0, kLeakWindow - held());
        const size_t bodyBytes = requestBody_.feed(available);
        if (requestBody_.failed())
            return failClient("malformed chunked request body");
        toUpstream_.append(available.substr(0, bodyBytes));
        clientInput_.consume(bodyBytes);
        moved = true;
    }
    holding_ = false;
    leak_ = secrets_.bindings->leakInBody(host_, toUpstream_.view().substr(headSize_));
    if (leak_ != nullptr)
        return failClient("the request body carries the placeholder of " + leak_->name);
    return true;
}

void HttpExchange::scrubInto(std::string_view body, bool ends)
{
    scrubOut_.clear();
    bodyScrubber_->feed(body, scrubOut_);
    if (ends)
        bodyScrubber_->finish(scrubOut_);
    toClient_.append(scrubOut_);
}

bool HttpExchange::failClient(std::string why)
{
    failure_ = std::move(why);
    return false;
}

bool HttpExchange::failUpstream(std::string why)
{
    upstreamFailed_ = true;
    return failClient(std::move(why));
}

bool HttpExchange::pumpRequest()
{
    if (requestAbandoned_)
        return false;
    if (holding_)
        return holdBodyStart();
    const IoOutcome sent = sendFrom(upstream_.fd, upstream_.readiness, toUpstream_);
    bytesUp_ += sent.bytes;
    if (sent.kind == IoOutcome::Kind::Failed) {
        // The upstream stopped reading, perhaps after answering early (a 413 to a large upload):
        // its answer is still to be read, and the rest of the request is dropped. The client's
        // body is then not read to its end, so the client connection closes after the response.
        requestAbandoned_ = true;
        toUpstream_.consume(toUpstream_.size());
        toUpstream_.releaseIfEmpty();
        return true;
    }
    bool moved = sent.bytes > 0;
    if (requestBody_.done())
        return moved;
    if (!clientInput_.empty()) {
        if (toUpstream_.room() == 0)
            return moved;
        const std::string_view available = clientInput_.view().substr(0, toUpstream_.room());
        const size_t bodyBytes = requestBody_.feed(available);
        if (requestBody_.failed())
            return failClient("malformed chunked request body");
        toUpstream_.append(available.substr(0, bodyBytes));
        clientInput_.consume(bodyBytes);
        return true;
    }
    if (!client_.readiness.readable)
        return moved;
    const IoOutcome received = receiveInto(client_.fd, client_.readiness, clientInput_);
    if (received.kind == IoOutcome::Kind::Closed)
        return failClient("the client closed before the request body ended");
    if (received.kind == IoOutcome::Kind::Failed)
        return failClient("reading the request body failed");
    return moved || received.bytes > 0;
}

bool HttpExchange::readResponseHead()
{
    const auto headEnd = findHeadEnd(fromUpstream_.view());
    if (!headEnd) {
        if (fromUpstream_.room() == 0)
            return failUpstream("response head larger than --max-header-bytes");
        if (!upstream_.readiness.readable)
            return false;
        const IoOutcome received = receiveInto(upstream_.fd, upstream_.readiness, fromUpstream_);
        if (received.kind == IoOutcome::Kind::Closed)
            return failUpstream("the upstream closed before a complete response head");
        if (received.kind == IoOutcome::Kind::Failed)
            return failUpstream("reading the response failed");
        return received.bytes > 0;
    }
    auto head = parseResponseHead(fromUpstream_.view().substr(0, *headEnd));
    if (!head)
        return failUpstream("malformed response head: " + head.error());
    fromUpstream_.consume(*headEnd);
    if (head->status == 101)
        return failUpstream("the upstream switched protocols, which the proxy does not forward");
    if (head->status < 200) {
        // An interim response (100 Continue); HTTP/1.0 clients do not expect one.
        if (!clientIsHttp10_)
            toClient_.append(buildClientResponseHead(head.value(), true, false));
        return true;
    }
    auto framing = responseBodyFraming(method_, head->status, head->fields);
    if (!framing)
        return failUpstream("response framing: " + framing.error());
    responseBody_ = BodyReader(framing.value());
    keepAlive_ = clientWantsKeepAlive_ && !responseBody_.endsAtClose() && requestBody_.done();
    if (secrets_.scrubber != nullptr) {
        secrets_.scrubber->scrubFields(head->fields);
        secrets_.scrubber->scrub(head->reasonPhrase);
        bodyScrubber_.emplace(*secrets_.scrubber, framing.value());
    }
    toClient_.append(buildClientResponseHead(head.value(), keepAlive_, clientIsHttp10_));
    responseStatus_ = head->status;
    responseHeadForwarded_ = true;
    const std::string_view early = fromUpstream_.view();
    const size_t bodyBytes = responseBody_.feed(early);
    if (responseBody_.failed())
        return failUpstream("malformed chunked response body");
    if (bodyScrubber_)
        scrubInto(early.substr(0, bodyBytes), responseBody_.done());
    else
        toClient_.append(early.substr(0, bodyBytes));
    // Bytes past the body's end are the upstream's error; its connection is closed after this.
    fromUpstream_.consume(fromUpstream_.size());
    fromUpstream_.releaseIfEmpty();
    responseDone_ = responseBody_.done();
    return true;
}

bool HttpExchange::readResponseBody()
{
    if (!upstream_.readiness.readable || toClient_.room() == 0)
        return false;
    std::span<char> space;
    if (bodyScrubber_) {
        // Read beside the buffer: the scrubber may keep some back and give more later.
        scrubIn_.resize(toClient_.room());
        space = {scrubIn_.data(), scrubIn_.size()};
    } else {
        space = toClient_.writable();
    }
    const IoOutcome received = receive(upstream_.fd, upstream_.readiness, space);
    if (received.kind == IoOutcome::Kind::Closed) {
        if (!responseBody_.endsAtClose())
            return failUpstream("the upstream closed before the response body ended");
        if (bodyScrubber_)
            scrubInto({}, true);
        responseDone_ = true;
        return true;
    }
    if (received.kind == IoOutcome::Kind::Failed)
        return failUpstream("reading the response body failed");
    if (received.bytes == 0)
        return false;
    const size_t bodyBytes = responseBody_.feed({space.data(), received.bytes});
    if (responseBody_.failed())
        return failUpstream("malformed chunked response body");
    if (bodyScrubber_)
        scrubInto({space.data(), bodyBytes}, responseBody_.done());
    else
        toClient_.commit(bodyBytes);
    responseDone_ = responseBody_.done();
    return true;
}

bool HttpExchange::pumpResponse()
{
    const IoOutcome sent = sendFrom(client_.fd, client_.readiness, toClient_);
    bytesDown_ += sent.bytes;
    if (sent.kind == IoOutcome::Kind::Failed)
        return failClient("the client went away");
    const bool moved = sent.bytes > 0;
    if (responseDone_)
        return moved;
    const bool read = responseHeadForwarded_ ? readResponseBody() : readResponseHead();
    return read || moved;
}

HttpExchange::Progress HttpExchange::pump()
{
    while (true) {
        const bool requestMoved = pumpRequest();
        if (!failure_.empty())
            return Progress::Failed;
        const bool responseMoved = pumpResponse();
        if (!failure_.empty())
            return Progress::Failed;
        if (responseDone_ && toClient_.empty())
            return Progress::Complete;
        if (!requestMoved && !responseMoved)
            return Progress::Running;
    }
}

} // namespace arizuko::egress
