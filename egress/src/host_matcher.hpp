#pragma once

// The allow and deny lists and the one rule that compares a requested host with them (see
// docs/egress.md, "Matching host names").

#include "expected.hpp"
#include "host_name.hpp"

#include <cstddef>
#include <string_view>
#include <unordered_set>

namespace arizuko::egress {

enum class HostVerdict
{
    Allowed,
    NotAllowed,
    Denied,
};

// Parses one list entry: surrounding blanks trimmed, a leading "*." dropped, then normalised.
Expected<HostName> parseHostEntry(std::string_view entry);

class HostList
{
public:
    void add(HostName entry);
    void merge(HostList &&other);
    bool covers(const HostName &host) const;
    size_t size() const { return names_.size() + literals_.size(); }

private:
    std::unordered_set<std::string> names_;
    std::unordered_set<std::string> literals_;
};

class HostPolicy
{
public:
    HostList &allowList() { return allow_; }
    HostList &denyList() { return deny_; }
    const HostList &allowList() const { return allow_; }
    const HostList &denyList() const { return deny_; }
    void setAllowAll(bool allowAll) { allowAll_ = allowAll; }
    bool allowAll() const { return allowAll_; }

    HostVerdict decide(const HostName &host) const;

private:
    HostList allow_;
    HostList deny_;
    bool allowAll_ = false;
};

} // namespace arizuko::egress
