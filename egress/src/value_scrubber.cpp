#include "value_scrubber.hpp"

#include <algorithm>
#include <cstring>
#include <string.h>

namespace arizuko::egress {

ValueScrubber::ValueScrubber(std::vector<std::string> forms)
    : forms_(std::move(forms))
{
    for (const std::string &form : forms_)
        longest_ = std::max(longest_, form.size());
}

ValueScrubber::~ValueScrubber()
{
    for (std::string &form : forms_)
        explicit_bzero(form.data(), form.size());
}

void ValueScrubber::scrub(char *bytes, size_t size) const
{
    for (const std::string &form : forms_) {
        size_t from = 0;
        while (from + form.size() <= size) {
            void *found = memmem(bytes + from, size - from, form.data(), form.size());
            if (found == nullptr)
                break;
            char *at = static_cast<char *>(found);
            std::memset(at, '*', form.size());
            from = static_cast<size_t>(at - bytes) + form.size();
        }
    }
}

void ValueScrubber::scrubFields(HeaderFields &fields) const
{
    if (empty())
        return;
    for (HeaderField &field : fields) {
        if (!equalsIgnoringCase(field.name, "Content-Length") &&
            !equalsIgnoringCase(field.name, "Transfer-Encoding"))
            scrub(field.value);
    }
}

BodyScrubber::BodyScrubber(const ValueScrubber &scrubber, BodyFraming framing)
    : scrubber_(scrubber)
    , chunked_(framing.kind == BodyFraming::Kind::Chunked)
{}

void BodyScrubber::feed(std::string_view bytes, std::string &out)
{
    if (scrubber_.empty()) {
        out.append(bytes);
        return;
    }
    const size_t base = pending_.size();
    pending_.append(bytes);
    if (chunked_) {
        decoder_.feed(bytes, [&](size_t offset, size_t length) {
            spans_.emplace_back(base + offset, length);
        });
    } else if (!bytes.empty()) {
        spans_.emplace_back(base, bytes.size());
    }
    // The data alone, so a value split by chunk framing is found too.
    data_.clear();
    for (const auto &[offset, length] : spans_)
        data_.append(pending_, offset, length);
    scrubber_.scrub(data_);
    size_t at = 0;
    for (const auto &[offset, length] : spans_) {
        pending_.replace(offset, length, data_, at, length);
        at += length;
    }
    // Keep back the data's last longest - 1 bytes, and whatever comes after the first of them.
    const size_t keep = scrubber_.longest() - 1;
    if (data_.size() <= keep) {
        // Framing before the first data byte may go.
        const size_t until = spans_.empty() ? pending_.size() : spans_.front().first;
        out.append(pending_, 0, until);
        pending_.erase(0, until);
        for (auto &span : spans_)
            span.first -= until;
        return;
    }
    size_t skip = data_.size() - keep;
    size_t until = pending_.size();
    size_t dropSpans = 0;
    for (auto &span : spans_) {
        if (skip < span.second) {
            until = span.first + skip;
            span.first += skip;
            span.second -= skip;
            break;
        }
        skip -= span.second;
        ++dropSpans;
    }
    spans_.erase(spans_.begin(), spans_.begin() + static_cast<std::ptrdiff_t>(dropSpans));
    out.append(pending_, 0, until);
    pending_.erase(0, until);
    for (auto &span : spans_)
        span.first -= until;
}

void BodyScrubber::finish(std::string &out)
{
    out.append(pending_);
    pending_.clear();
    spans_.clear();
}

} // namespace arizuko::egress
