#include "request_rules.hpp"

#include <algorithm>

namespace arizuko::egress {
namespace {

std::vector<std::string_view> splitPath(std::string_view path)
{
    // "/a/b" -> {"a", "b"}; "/" -> {""}; a trailing slash leaves an empty last segment.
    std::vector<std::string_view> segments;
    path.remove_prefix(1);
    while (true) {
        const size_t slash = path.find('/');
        segments.push_back(path.substr(0, slash));
        if (slash == std::string_view::npos)
            return segments;
        path.remove_prefix(slash + 1);
    }
}

// `*` matches any run of characters within the segment.
bool segmentMatches(std::string_view pattern, std::string_view segment)
{
    size_t p = 0;
    size_t s = 0;
    size_t starAt = std::string_view::npos;
    size_t resumeAt = 0;
    while (s < segment.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starAt = p++;
            resumeAt = s;
        } else if (p < pattern.size() && pattern[p] == segment[s]) {
            ++p;
            ++s;
        } else if (starAt != std::string_view::npos) {
            p = starAt + 1;
            s = ++resumeAt;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

bool segmentsMatch(const std::vector<std::string> &pattern, size_t p,
                   const std::vector<std::string_view> &path, size_t s)
{
    while (p < pattern.size()) {
        if (pattern[p] == "**") {
            // Consecutive `**` are one; try every number of segments it could stand for.
            while (p < pattern.size() && pattern[p] == "**")
                ++p;
            if (p == pattern.size())
                return true;
            for (size_t skip = s; skip <= path.size(); ++skip) {
                if (segmentsMatch(pattern, p, path, skip))
                    return true;
            }
            return false;
        }
        if (s == path.size() || !segmentMatches(pattern[p], path[s]))
            return false;
        ++p;
        ++s;
    }
    return s == path.size();
}

bool isMethodCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
}

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> found;
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    size_t at = 0;
    while (at < text.size()) {
        while (at < text.size() && blank(text[at]))
            ++at;
        const size_t start = at;
        while (at < text.size() && !blank(text[at]))
            ++at;
        if (at > start)
            found.push_back(text.substr(start, at - start));
    }
    return found;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

Expected<PathGlob> PathGlob::parse(std::string_view pattern)
{
    if (!pattern.starts_with('/'))
        return Failure{"a path pattern starts with '/'"};
    PathGlob glob;
    for (const std::string_view segment : splitPath(pattern)) {
        if (segment.find("**") != std::string_view::npos && segment != "**")
            return Failure{"'**' must be a whole path segment"};
        if (std::any_of(segment.begin(), segment.end(), [](char c) {
                return static_cast<unsigned char>(c) <= 0x20 || c == 0x7F || c == '?' || c == '#' ||
                       c == '\\';
            }))
            return Failure{"a path pattern has no blanks, control characters, '?', '#' or '\\'"};
        glob.segments_.emplace_back(segment);
    }
    return glob;
}

bool PathGlob::matches(std::string_view path) const
{
    if (!path.starts_with('/'))
        return false;
    return segmentsMatch(segments_, 0, splitPath(path), 0);
}

bool RequestRule::matchesMethod(std::string_view method) const
{
    return methods.empty() || std::find(methods.begin(), methods.end(), method) != methods.end();
}

Expected<RequestRule> parseRequestRule(std::string_view text)
{
    const std::vector<std::string_view> parts = words(text);
    if (parts.size() != 4)
        return Failure{"expected 'allow|deny METHODS HOST PATH'"};
    RequestRule rule;
    if (parts[0] == "allow")
        rule.allow = true;
    else if (parts[0] != "deny")
        return Failure{"a rule starts with allow or deny"};
    if (parts[1] != "*") {
        std::string_view list = parts[1];
        while (true) {
            const size_t comma = list.find(',');
            const std::string_view method = list.substr(0, comma);
            if (method.empty() || !std::all_of(method.begin(), method.end(), isMethodCharacter))
                return Failure{"methods are '*' or upper-case names separated by commas"};
            rule.methods.emplace_back(method);
            if (comma == std::string_view::npos)
                break;
            list.remove_prefix(comma + 1);
        }
    }
    auto host = parseHostEntry(parts[2]);
    if (!host)
        return Failure{host.error() + ": '" + std::string(parts[2]) + "'"};
    rule.host.add(std::move(host.value()));
    auto path = PathGlob::parse(parts[3]);
    if (!path)
        return Failure{path.error() + ": '" + std::string(parts[3]) + "'"};
    rule.path = std::move(path.value());
    rule.text = std::string(parts[0]) + " " + std::string(parts[1]) + " " + std::string(parts[2]) +
                " " + std::string(parts[3]);
    return rule;
}

Expected<std::string> canonicalRulePath(std::string_view target)
{
    target = target.substr(0, target.find_first_of("?#"));
    if (!target.starts_with('/'))
        return Failure{"the request target is not an absolute path"};
    std::string decoded;
    decoded.reserve(target.size());
    for (size_t i = 0; i < target.size(); ++i) {
        if (target[i] != '%') {
            decoded.push_back(target[i]);
            continue;
        }
        const int high = i + 2 < target.size() ? hexValue(target[i + 1]) : -1;
        const int low = high >= 0 ? hexValue(target[i + 2]) : -1;
        if (low < 0)
            return Failure{"the path has a '%' that starts no escape"};
        decoded.push_back(static_cast<char>(high * 16 + low));
        i += 2;
    }
    if (std::any_of(decoded.begin(), decoded.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 || c == 0x7F || c == '\\';
        }))
        return Failure{"the path holds control characters or a backslash"};
    const std::vector<std::string_view> segments = splitPath(decoded);
    for (size_t i = 0; i < segments.size(); ++i) {
        const std::string_view segment = segments[i];
        const bool last = i + 1 == segments.size();
        if ((segment.empty() && !last) || segment == "." || segment == "..")
            return Failure{"the path has empty, '.' or '..' segments"};
    }
    return decoded;
}

std::string ruleDenialDetail(std::string_view method, std::string_view host, std::string_view path,
                             const RuleJudgement &judgement)
{
    std::string detail = std::string(method) + " " + std::string(host) + std::string(path);
    detail += judgement.reason == Reason::DeniedByRule
                  ? " is denied by the rule '" + judgement.rule + "'"
                  : " matches no allow rule for " + std::string(host);
    return detail + ". Only the user can change the rules, in Arizuko's Network tab";
}

const RequestRule *RequestRules::naming(const HostName &host) const
{
    for (const RequestRule &rule : rules_) {
        if (rule.host.covers(host))
            return &rule;
    }
    return nullptr;
}

RuleJudgement RequestRules::judge(std::string_view method, const HostName &host,
                                  std::string_view path) const
{
    const RequestRule *allowedBy = nullptr;
    for (const RequestRule &rule : rules_) {
        if (!rule.host.covers(host) || !rule.matchesMethod(method) || !rule.path.matches(path))
            continue;
        if (!rule.allow)
            return {Reason::DeniedByRule, rule.text};
        if (allowedBy == nullptr)
            allowedBy = &rule;
    }
    if (allowedBy != nullptr)
        return {Reason::Allowed, allowedBy->text};
    return {Reason::NoMatchingRule, {}};
}

} // namespace arizuko::egress
