#include "host_matcher.hpp"

namespace arizuko::egress {

Expected<HostName> parseHostEntry(std::string_view entry)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!entry.empty() && blank(entry.front()))
        entry.remove_prefix(1);
    while (!entry.empty() && blank(entry.back()))
        entry.remove_suffix(1);
    if (entry.starts_with("*."))
        entry.remove_prefix(2);
    auto host = normalizeHost(entry);
    if (!host)
        return Failure{"not a host name or IP address"};
    return std::move(*host);
}

void HostList::add(HostName entry)
{
    (entry.isIpLiteral ? literals_ : names_).insert(std::move(entry.text));
}

void HostList::merge(HostList &&other)
{
    names_.merge(other.names_);
    literals_.merge(other.literals_);
}

bool HostList::covers(const HostName &host) const
{
    if (host.isIpLiteral)
        return literals_.contains(host.text);
    if (names_.contains(host.text))
        return true;
    // Each parent domain that still has a dot may cover the host; a dotless entry ("com",
    // "localhost") only ever matches itself, which the exact lookup above handled.
    std::string_view parent(host.text);
    for (size_t dot = parent.find('.'); dot != std::string_view::npos; dot = parent.find('.')) {
        parent.remove_prefix(dot + 1);
        if (parent.find('.') == std::string_view::npos)
            break;
        if (names_.contains(std::string(parent)))
            return true;
    }
    return false;
}

HostVerdict HostPolicy::decide(const HostName &host) const
{
    if (deny_.covers(host))
        return HostVerdict::Denied;
    if (allowAll_ || allow_.covers(host))
        return HostVerdict::Allowed;
    return HostVerdict::NotAllowed;
}

} // namespace arizuko::egress
