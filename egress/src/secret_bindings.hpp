#pragma once

// Credentials as placeholders (docs/egress.md, "Secrets"): the guest holds a placeholder, the
// proxy puts the value in, only in requests to the hosts the secret is bound to and only where
// the binding says (a header template, or HTTP Basic's password). A placeholder on its way to any
// other host is a leak and refused; the values are scrubbed from what inspected hosts answer.

#include "expected.hpp"
#include "header_fields.hpp"
#include "host_matcher.hpp"
#include "host_name.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace arizuko::egress {

// Content-Length, Transfer-Encoding and the hop-by-hop fields: a binding may not fill them.
bool isFramingOrHop(std::string_view name);

struct SecretBinding
{
    std::string name;
    std::string placeholder;
    std::string value;
    HostList hosts;
    // `basic`: an Authorization: Basic header whose password is the placeholder. Otherwise the
    // header `header` whose whole value is prefix + placeholder + suffix (the template's `{}`).
    bool basic = false;
    std::string header;
    std::string prefix;
    std::string suffix;
};

// The detail of a placeholder-leak denial: the secret's name and the host, never the placeholder.
std::string leakDenialDetail(const SecretBinding &secret, std::string_view host);

class SecretBindings
{
public:
    SecretBindings() = default;
    SecretBindings(SecretBindings &&) = default;
    SecretBindings &operator=(SecretBindings &&) = default;
    // The values are wiped from memory with the bindings.
    ~SecretBindings();

    // JSON Lines, one binding a line (blank lines skipped); an error names the line and the
    // problem, never a value.
    static Expected<SecretBindings> parse(std::string_view jsonLines);

    bool empty() const { return bindings_.empty(); }
    size_t size() const { return bindings_.size(); }
    const std::vector<SecretBinding> &all() const { return bindings_; }

    // Whether some secret is bound to `host` (which makes it inspected).
    const SecretBinding *boundTo(const HostName &host) const;
    // Whether every secret is bound to `host`: no placeholder can leak there.
    bool allBoundTo(const HostName &host) const;

    // A secret whose placeholder is in the request (the target, as written and percent-decoded;
    // every header field, also percent-decoded and, for Basic credentials, base64-decoded) but
    // which is not bound to `host`.
    const SecretBinding *leakInHead(const HostName &host, std::string_view target,
                                    const HeaderFields &fields) const;
    // The same for the start of a request body, as it came.
    const SecretBinding *leakInBody(const HostName &host, std::string_view body) const;

    // Replaces every placeholder in `text` (a path for the log) with {NAME}.
    void maskPlaceholders(std::string &text) const;

    // Puts the values of the secrets bound to `host` into the fields their bindings name, and
    // asks for an uncompressed response (so it can be scrubbed). Nothing when none is bound.
    void substitute(const HostName &host, HeaderFields &fields) const;

    // Every form of every value a response is scrubbed of: raw, percent-encoded, base64 (at each
    // of the three alignments a value can have inside a longer base64 text) and base64url.
    std::vector<std::string> scrubForms() const;

private:
    const SecretBinding *leakIn(const HostName &host, std::string_view text) const;

    std::vector<SecretBinding> bindings_;
};

} // namespace arizuko::egress
