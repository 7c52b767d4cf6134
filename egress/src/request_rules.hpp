#pragma once

// Rules by method and path for inspected hosts (docs/egress.md, "Inspected hosts"):
// `allow|deny METHODS HOST PATH`. A host some rule names is inspected; each request to it is
// judged on its own: a deny rule that matches wins, then an allow rule that matches, else it is
// denied (no-matching-rule).

#include "expected.hpp"
#include "host_matcher.hpp"
#include "host_name.hpp"
#include "reason.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace arizuko::egress {

// A path pattern: '/'-separated segments where `*` stands for any characters of one segment and a
// segment `**` for any number of segments (none included).
class PathGlob
{
public:
    static Expected<PathGlob> parse(std::string_view pattern);
    bool matches(std::string_view path) const;

private:
    std::vector<std::string> segments_;
};

struct RequestRule
{
    bool allow = false;
    // Empty for `*` (every method).
    std::vector<std::string> methods;
    HostList host;
    PathGlob path;
    // The rule as written, normalised to single spaces: quoted in the decision log and denials.
    std::string text;

    bool matchesMethod(std::string_view method) const;
};

Expected<RequestRule> parseRequestRule(std::string_view text);

// The path a rule is matched against: the request target without query or fragment, its
// percent-escapes decoded. A path a server could read as another (dot or empty segments,
// backslashes, control characters, an escape that is not one) has no canonical form: such a
// request is refused rather than judged.
Expected<std::string> canonicalRulePath(std::string_view target);

struct RuleJudgement
{
    Reason reason = Reason::Allowed;
    // The text of the rule that decided; empty when none matched.
    std::string rule;
};

// The detail of a rule's denial: what was asked, the rule that denied it or that none allowed
// it, and who can change that.
std::string ruleDenialDetail(std::string_view method, std::string_view host, std::string_view path,
                             const RuleJudgement &judgement);

class RequestRules
{
public:
    void add(RequestRule rule) { rules_.push_back(std::move(rule)); }
    void merge(RequestRules &&other)
    {
        for (RequestRule &rule : other.rules_)
            rules_.push_back(std::move(rule));
    }
    bool empty() const { return rules_.empty(); }
    size_t size() const { return rules_.size(); }
    // Whether some rule names `host` (as an allow entry would cover it).
    bool inspects(const HostName &host) const { return naming(host) != nullptr; }
    // The first rule that names `host`: the one that makes it inspected.
    const RequestRule *naming(const HostName &host) const;
    // `path` is a canonicalRulePath().
    RuleJudgement judge(std::string_view method, const HostName &host, std::string_view path) const;

private:
    std::vector<RequestRule> rules_;
};

} // namespace arizuko::egress
