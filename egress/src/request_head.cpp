#include "request_head.hpp"

#include "httpfield/field_line.h"

#include <algorithm>
#include <charconv>

namespace arizuko::egress {
namespace {

Expected<uint16_t> parsePort(std::string_view text)
{
    unsigned value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || text.size() > 5 || error != std::errc{} ||
        end != text.data() + text.size() || value == 0 || value > 65535)
        return Failure{"invalid port"};
    return static_cast<uint16_t>(value);
}

Expected<int> parseVersion(std::string_view text)
{
    if (text == "HTTP/1.1")
        return 1;
    if (text == "HTTP/1.0")
        return 0;
    return Failure{"unsupported HTTP version"};
}

bool isVisible(char c)
{
    return c > 0x20 && c < 0x7F;
}

Expected<RequestHead> parseTarget(RequestHead head, std::string_view target)
{
    if (head.method == "CONNECT") {
        auto authority = parseAuthority(target, std::nullopt);
        if (!authority)
            return Failure{"CONNECT target: " + authority.error()};
        head.form = TargetForm::Authority;
        head.host = std::move(authority->host);
        head.port = authority->port;
        head.authority = std::string(target);
        return head;
    }
    if (target.starts_with('/')) {
        head.form = TargetForm::Origin;
        head.path = std::string(target);
        return head;
    }
    constexpr std::string_view kScheme = "http://";
    if (target.size() < kScheme.size() ||
        !equalsIgnoringCase(target.substr(0, kScheme.size()), kScheme))
        return Failure{"target is neither http:// absolute form nor CONNECT authority form"};
    target.remove_prefix(kScheme.size());
    const size_t authorityEnd = std::min(target.find('/'), target.find('?'));
    const std::string_view authorityText = target.substr(0, authorityEnd);
    if (authorityText.find('@') != std::string_view::npos)
        return Failure{"user information in the URL is not accepted"};
    auto authority = parseAuthority(authorityText, 80);
    if (!authority)
        return Failure{"URL authority: " + authority.error()};
    head.form = TargetForm::Absolute;
    head.host = std::move(authority->host);
    head.port = authority->port;
    head.authority = std::string(authorityText);
    const std::string_view rest =
        authorityEnd == std::string_view::npos ? std::string_view{} : target.substr(authorityEnd);
    head.path = rest.starts_with('/') ? std::string(rest) : "/" + std::string(rest);
    return head;
}

} // namespace

Expected<Authority> parseAuthority(std::string_view authority, std::optional<uint16_t> defaultPort)
{
    std::string_view hostText;
    std::string_view afterHost;
    if (authority.starts_with('[')) {
        const size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return Failure{"unterminated IPv6 literal"};
        hostText = authority.substr(0, close + 1);
        afterHost = authority.substr(close + 1);
    } else {
        const size_t colon = authority.find(':');
        hostText = authority.substr(0, colon);
        afterHost = colon == std::string_view::npos ? std::string_view{} : authority.substr(colon);
    }
    Authority result;
    if (afterHost.empty() || afterHost == ":") {
        if (!defaultPort)
            return Failure{"port missing"};
        result.port = *defaultPort;
    } else {
        if (afterHost.front() != ':')
            return Failure{"garbage after host"};
        auto port = parsePort(afterHost.substr(1));
        if (!port)
            return Failure{port.error()};
        result.port = port.value();
    }
    auto host = parseRequestHost(hostText);
    if (!host)
        return Failure{host.error()};
    result.host = std::move(host.value());
    return result;
}

Expected<HostName> parseRequestHost(std::string_view hostText)
{
    // Bare IPv6 would be ambiguous with the port separator; requests must bracket it.
    if (!hostText.starts_with('[') && hostText.find(':') != std::string_view::npos)
        return Failure{"IPv6 literal without brackets"};
    auto host = normalizeHost(hostText);
    if (!host)
        return Failure{"invalid host"};
    if (looksNumericButIsNotIpv4(*host))
        return Failure{"host looks like an IP address but is not a dotted quad"};
    return std::move(*host);
}

Expected<RequestHead> parseRequestHead(std::string_view headText)
{
    auto split = splitHead(headText);
    if (!split)
        return Failure{split.error()};
    const std::string_view line = split->startLine;
    const size_t firstSpace = line.find(' ');
    const size_t secondSpace =
        firstSpace == std::string_view::npos ? firstSpace : line.find(' ', firstSpace + 1);
    if (secondSpace == std::string_view::npos || line.find(' ', secondSpace + 1) != line.npos)
        return Failure{"request line is not METHOD SP TARGET SP VERSION"};
    const std::string_view method = line.substr(0, firstSpace);
    const std::string_view target = line.substr(firstSpace + 1, secondSpace - firstSpace - 1);
    if (!httpfield::isToken(method))
        return Failure{"invalid method"};
    if (target.empty() || !std::all_of(target.begin(), target.end(), isVisible))
        return Failure{"invalid request target"};
    auto version = parseVersion(line.substr(secondSpace + 1));
    if (!version)
        return Failure{version.error()};
    RequestHead head;
    head.method = std::string(method);
    head.minorVersion = version.value();
    head.fields = std::move(split->fields);
    return parseTarget(std::move(head), target);
}

bool clientWantsKeepAlive(const RequestHead &head)
{
    if (fieldListsToken(head.fields, "Connection", "close"))
        return false;
    return head.minorVersion >= 1 || fieldListsToken(head.fields, "Connection", "keep-alive");
}

} // namespace arizuko::egress
