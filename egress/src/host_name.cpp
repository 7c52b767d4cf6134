#include "host_name.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <netinet/in.h>

namespace arizuko::egress {
namespace {

constexpr size_t kMaxNameLength = 253;
constexpr size_t kMaxLabelLength = 63;

std::string toLower(std::string_view text)
{
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lowered;
}

std::optional<std::string> canonicalIpv6(std::string_view text)
{
    in6_addr address{};
    if (inet_pton(AF_INET6, std::string(text).c_str(), &address) != 1)
        return std::nullopt;
    char canonical[INET6_ADDRSTRLEN] = {};
    inet_ntop(AF_INET6, &address, canonical, sizeof(canonical));
    return std::string(canonical);
}

bool isIpv4DottedQuad(const std::string &text)
{
    in_addr address{};
    return inet_pton(AF_INET, text.c_str(), &address) == 1;
}

bool isValidLabel(std::string_view label)
{
    if (label.empty() || label.size() > kMaxLabelLength)
        return false;
    return std::all_of(label.begin(), label.end(), [](unsigned char c) {
        return std::isalnum(c) != 0 || c == '-' || c == '_';
    });
}

bool isValidName(std::string_view name)
{
    if (name.empty() || name.size() > kMaxNameLength)
        return false;
    size_t start = 0;
    while (true) {
        const size_t dot = name.find('.', start);
        if (!isValidLabel(name.substr(start, dot - start)))
            return false;
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

} // namespace

std::optional<HostName> normalizeHost(std::string_view raw)
{
    if (raw.size() >= 2 && raw.front() == '[' && raw.back() == ']') {
        const auto v6 = canonicalIpv6(raw.substr(1, raw.size() - 2));
        if (!v6)
            return std::nullopt;
        return HostName{*v6, true};
    }
    if (raw.find(':') != std::string_view::npos) {
        const auto v6 = canonicalIpv6(raw);
        if (!v6)
            return std::nullopt;
        return HostName{*v6, true};
    }
    if (!raw.empty() && raw.back() == '.')
        raw.remove_suffix(1);
    std::string name = toLower(raw);
    if (isIpv4DottedQuad(name))
        return HostName{std::move(name), true};
    if (!isValidName(name))
        return std::nullopt;
    return HostName{std::move(name), false};
}

bool looksNumericButIsNotIpv4(const HostName &host)
{
    if (host.isIpLiteral)
        return false;
    const size_t dot = host.text.rfind('.');
    const std::string_view lastLabel = dot == std::string::npos
                                           ? std::string_view(host.text)
                                           : std::string_view(host.text).substr(dot + 1);
    const bool hex = lastLabel.size() > 2 && lastLabel.substr(0, 2) == "0x" &&
                     std::all_of(lastLabel.begin() + 2, lastLabel.end(),
                                 [](unsigned char c) { return std::isxdigit(c) != 0; });
    const bool decimal = std::all_of(lastLabel.begin(), lastLabel.end(),
                                     [](unsigned char c) { return std::isdigit(c) != 0; });
    return hex || decimal;
}

} // namespace arizuko::egress
