#pragma once

// Scrubs secret values from what inspected hosts answer (docs/egress.md, "Secrets"): every
// occurrence of a form of a value becomes as many '*' bytes, so lengths and framing hold. A body
// is scrubbed as it streams, across read boundaries and across the chunks of a chunked body: the
// last (longest form - 1) bytes of its data are kept back until more comes or the body ends.

#include "header_fields.hpp"
#include "http_framing.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arizuko::egress {

class ValueScrubber
{
public:
    ValueScrubber() = default;
    // `forms` longest first (SecretBindings::scrubForms()).
    explicit ValueScrubber(std::vector<std::string> forms);
    ~ValueScrubber();
    ValueScrubber(const ValueScrubber &) = delete;
    ValueScrubber &operator=(const ValueScrubber &) = delete;

    bool empty() const { return forms_.empty(); }
    size_t longest() const { return longest_; }
    // Overwrites every occurrence of a form in `bytes` with '*'.
    void scrub(char *bytes, size_t size) const;
    void scrub(std::string &bytes) const { scrub(bytes.data(), bytes.size()); }
    // A response head's field values and reason phrase, but not the framing fields (a value that
    // happened to be a Content-Length would break the message).
    void scrubFields(HeaderFields &fields) const;

private:
    std::vector<std::string> forms_;
    size_t longest_ = 0;
};

// One response body on its way to the client, scrubbed by `scrubber` (which must outlive it).
class BodyScrubber
{
public:
    BodyScrubber(const ValueScrubber &scrubber, BodyFraming framing);

    // Takes the next bytes of the body as they came (chunk framing included, as much as the
    // body's BodyReader accepted) and appends to `out` what may go on now.
    void feed(std::string_view bytes, std::string &out);
    // At the body's end (or the connection's): appends what was kept back.
    void finish(std::string &out);

private:
    const ValueScrubber &scrubber_;
    bool chunked_;
    ChunkedDecoder decoder_;
    std::string pending_;
    // The body's data within pending_ (offset, length): all of it unless chunked.
    std::vector<std::pair<size_t, size_t>> spans_;
    std::string data_;
};

} // namespace arizuko::egress
