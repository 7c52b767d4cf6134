#include "secret_bindings.hpp"

#include "base64.hpp"
#include "httpfield/field_line.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string.h>

namespace arizuko::egress {
namespace {

constexpr std::string_view kPlaceholderPrefix = "arizuko-placeholder-";
constexpr size_t kPlaceholderHexDigits = 32;
constexpr size_t kMaxNameBytes = 128;
// A shorter value would be scrubbed from every response it happens to occur in by chance.
constexpr size_t kMinValueBytes = 4;
constexpr size_t kMaxValueBytes = 8192;
constexpr std::string_view kUnreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789-._~";

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool validName(std::string_view name)
{
    return !name.empty() && name.size() <= kMaxNameBytes &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

bool validPlaceholder(std::string_view placeholder)
{
    if (!placeholder.starts_with(kPlaceholderPrefix))
        return false;
    const std::string_view hex = placeholder.substr(kPlaceholderPrefix.size());
    return hex.size() == kPlaceholderHexDigits && std::all_of(hex.begin(), hex.end(), isHexDigit);
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

// `text` with every valid %XX escape decoded (others left as they are).
std::string percentDecoded(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
            hexValue(text[i + 2]) >= 0) {
            out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string percentEncoded(std::string_view bytes, bool upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    std::string out;
    for (const char c : bytes) {
        if (kUnreserved.find(c) != std::string_view::npos) {
            out += c;
        } else {
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += digits[byte >> 4];
            out += digits[byte & 15];
        }
    }
    return out;
}

// The base64 characters that depend on `value`'s bytes alone when it starts `offset` (0 to 2)
// bytes into a base64-encoded text: whatever precedes or follows it.
std::string base64Inner(std::string_view value, size_t offset)
{
    std::string padded(offset, '\0');
    padded += value;
    const std::string encoded = encodeBase64(padded);
    const size_t first = offset == 0 ? 0 : offset + 1;
    const size_t last = padded.size() * 8 / 6;
    return last > first ? encoded.substr(first, last - first) : std::string();
}

// The password of an Authorization: Basic value, decoded; nothing when it is none.
struct BasicCredentials
{
    std::string user;
    std::string password;
};

std::optional<BasicCredentials> basicCredentials(std::string_view fieldValue)
{
    const std::string_view scheme = "Basic ";
    if (fieldValue.size() <= scheme.size() ||
        !equalsIgnoringCase(fieldValue.substr(0, scheme.size()), scheme))
        return std::nullopt;
    auto decoded = decodeBase64(httpfield::trimBlanks(fieldValue.substr(scheme.size())));
    if (!decoded)
        return std::nullopt;
    const size_t colon = decoded->find(':');
    if (colon == std::string::npos)
        return std::nullopt;
    return BasicCredentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

void wipe(std::string &text)
{
    explicit_bzero(text.data(), text.size());
    text.clear();
}

Expected<SecretBinding> parseBinding(std::string_view line)
{
    std::set<std::string> keys;
    bool repeated = false;
    const auto noteKeys = [&](int depth, nlohmann::json::parse_event_t event,
                              nlohmann::json &parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1 &&
            !keys.insert(parsed.get<std::string>()).second)
            repeated = true;
        return true;
    };
    nlohmann::json object = nlohmann::json::parse(line, noteKeys, false);
    if (object.is_discarded() || !object.is_object())
        return Failure{"not a JSON object"};
    if (repeated)
        return Failure{"a member given twice"};
    for (const auto &member : object.items()) {
        static const std::set<std::string> kKnown{"name",   "placeholder", "value_b64", "hosts",
                                                  "header", "template",    "basic"};
        if (!kKnown.contains(member.key()))
            return Failure{"unknown member \"" + member.key() + "\""};
    }
    const auto text = [&](const char *key) -> std::optional<std::string> {
        const auto found = object.find(key);
        if (found == object.end() || !found->is_string())
            return std::nullopt;
        return found->get<std::string>();
    };
    SecretBinding binding;
    const auto name = text("name");
    if (!name || !validName(*name))
        return Failure{"\"name\" is not a name of 1 to 128 letters, digits and '_'"};
    binding.name = *name;
    const std::string of = " (secret " + binding.name + ")";
    const auto placeholder = text("placeholder");
    if (!placeholder || !validPlaceholder(*placeholder))
        return Failure{"\"placeholder\" is not arizuko-placeholder- and 32 lowercase hex digits" +
                       of};
    binding.placeholder = *placeholder;
    auto encodedValue = text("value_b64");
    if (!encodedValue)
        return Failure{"no \"value_b64\" string" + of};
    auto value = decodeBase64(*encodedValue);
    wipe(*encodedValue);
    if (!value)
        return Failure{"\"value_b64\" is not base64" + of};
    binding.value = std::move(value.value());
    if (binding.value.size() < kMinValueBytes || binding.value.size() > kMaxValueBytes)
        return Failure{"the value is not 4 to 8192 bytes long" + of};
    if (binding.value.find(binding.placeholder) != std::string::npos)
        return Failure{"the value holds the placeholder" + of};
    const auto hosts = object.find("hosts");
    if (hosts == object.end() || !hosts->is_array() || hosts->empty())
        return Failure{"\"hosts\" is not a non-empty array of host names" + of};
    for (const auto &host : *hosts) {
        if (!host.is_string())
            return Failure{"\"hosts\" holds something other than a host name" + of};
        auto entry = parseHostEntry(host.get<std::string>());
        if (!entry)
            return Failure{"\"hosts\": '" + host.get<std::string>() + "': " + entry.error() + of};
        binding.hosts.add(std::move(entry.value()));
    }
    const auto basic = object.find("basic");
    const bool hasTemplate = object.contains("template") || object.contains("header");
    if (basic != object.end()) {
        if (!basic->is_boolean() || !basic->get<bool>())
            return Failure{"\"basic\" is not true" + of};
        if (hasTemplate)
            return Failure{"both \"basic\" and a \"template\"/\"header\"; a binding has one" + of};
        binding.basic = true;
    } else {
        const auto header = text("header");
        const auto pattern = text("template");
        if (!header || !pattern)
            return Failure{"neither \"basic\":true nor a \"header\" with a \"template\"" + of};
        if (!httpfield::isToken(*header))
            return Failure{"\"header\" is not a header field name" + of};
        if (equalsIgnoringCase(*header, "Host") || isFramingOrHop(*header))
            return Failure{"\"header\" names a field the proxy writes itself" + of};
        const size_t slot = pattern->find("{}");
        if (slot == std::string::npos || pattern->find("{}", slot + 2) != std::string::npos)
            return Failure{"\"template\" does not hold {} exactly once" + of};
        binding.header = *header;
        binding.prefix = pattern->substr(0, slot);
        binding.suffix = pattern->substr(slot + 2);
        if (!httpfield::isFieldValue(binding.prefix + binding.value + binding.suffix) ||
            httpfield::trimBlanks(binding.prefix + "x" + binding.suffix).size() !=
                binding.prefix.size() + 1 + binding.suffix.size())
            return Failure{"the template with the value is no header field value (control "
                           "characters, or blanks at its ends)" +
                           of};
    }
    return binding;
}

} // namespace

bool isFramingOrHop(std::string_view name)
{
    for (const std::string_view field :
         {"Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Proxy-Connection",
          "Proxy-Authorization", "TE", "Trailer", "Upgrade"}) {
        if (equalsIgnoringCase(name, field))
            return true;
    }
    return false;
}

std::string leakDenialDetail(const SecretBinding &secret, std::string_view host)
{
    return "the request carries the placeholder of the secret " + secret.name +
           ", which is not "
           "bound to " +
           std::string(host) +
           "; it was not sent. The placeholder stands for the "
           "secret only toward the hosts the user bound it to, in Arizuko's secrets";
}

SecretBindings::~SecretBindings()
{
    for (SecretBinding &binding : bindings_)
        wipe(binding.value);
}

Expected<SecretBindings> SecretBindings::parse(std::string_view jsonLines)
{
    SecretBindings parsed;
    size_t lineNumber = 0;
    while (!jsonLines.empty()) {
        ++lineNumber;
        const size_t newline = jsonLines.find('\n');
        const std::string_view line = jsonLines.substr(0, newline);
        jsonLines.remove_prefix(newline == std::string_view::npos ? jsonLines.size() : newline + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        auto binding = parseBinding(line);
        const std::string where = "line " + std::to_string(lineNumber) + ": ";
        if (!binding)
            return Failure{where + binding.error()};
        for (const SecretBinding &earlier : parsed.bindings_) {
            if (earlier.name == binding->name)
                return Failure{where + "secret " + binding->name + " is bound twice"};
            if (earlier.placeholder == binding->placeholder)
                return Failure{where + "secret " + binding->name + " has the placeholder of " +
                               earlier.name};
        }
        parsed.bindings_.push_back(std::move(binding.value()));
    }
    return parsed;
}

const SecretBinding *SecretBindings::boundTo(const HostName &host) const
{
    for (const SecretBinding &binding : bindings_) {
        if (binding.hosts.covers(host))
            return &binding;
    }
    return nullptr;
}

bool SecretBindings::allBoundTo(const HostName &host) const
{
    return std::all_of(bindings_.begin(), bindings_.end(),
                       [&](const SecretBinding &binding) { return binding.hosts.covers(host); });
}

const SecretBinding *SecretBindings::leakIn(const HostName &host, std::string_view text) const
{
    for (const SecretBinding &binding : bindings_) {
        if (text.find(binding.placeholder) != std::string_view::npos && !binding.hosts.covers(host))
            return &binding;
    }
    return nullptr;
}

const SecretBinding *SecretBindings::leakInHead(const HostName &host, std::string_view target,
                                                const HeaderFields &fields) const
{
    if (bindings_.empty() || allBoundTo(host))
        return nullptr;
    const auto seen = [&](std::string_view text) -> const SecretBinding * {
        if (const SecretBinding *leak = leakIn(host, text))
            return leak;
        if (text.find('%') != std::string_view::npos)
            return leakIn(host, percentDecoded(text));
        return nullptr;
    };
    if (const SecretBinding *leak = seen(target))
        return leak;
    for (const HeaderField &field : fields) {
        if (const SecretBinding *leak = seen(field.value))
            return leak;
        if (const auto basic = basicCredentials(field.value)) {
            if (const SecretBinding *leak = seen(basic->user + ":" + basic->password))
                return leak;
        }
    }
    return nullptr;
}

const SecretBinding *SecretBindings::leakInBody(const HostName &host, std::string_view body) const
{
    if (bindings_.empty() || allBoundTo(host))
        return nullptr;
    return leakIn(host, body);
}

void SecretBindings::maskPlaceholders(std::string &text) const
{
    for (const SecretBinding &binding : bindings_) {
        for (size_t at = text.find(binding.placeholder); at != std::string::npos;
             at = text.find(binding.placeholder, at))
            text.replace(at, binding.placeholder.size(), "{" + binding.name + "}");
    }
}

void SecretBindings::substitute(const HostName &host, HeaderFields &fields) const
{
    if (boundTo(host) == nullptr)
        return;
    for (const SecretBinding &binding : bindings_) {
        if (!binding.hosts.covers(host))
            continue;
        for (HeaderField &field : fields) {
            if (binding.basic) {
                if (!equalsIgnoringCase(field.name, "Authorization"))
                    continue;
                const auto basic = basicCredentials(field.value);
                if (basic && basic->password == binding.placeholder)
                    field.value = "Basic " + encodeBase64(basic->user + ":" + binding.value);
            } else if (equalsIgnoringCase(field.name, binding.header) &&
                       field.value.size() == binding.prefix.size() + binding.placeholder.size() +
                                                 binding.suffix.size() &&
                       field.value == binding.prefix + binding.placeholder + binding.suffix) {
                field.value = binding.prefix + binding.value + binding.suffix;
            }
        }
    }
    // The response is scrubbed of the values, which a compressed one would hide.
    std::erase_if(fields, [](const HeaderField &field) {
        return equalsIgnoringCase(field.name, "Accept-Encoding");
    });
    fields.push_back({"Accept-Encoding", "identity"});
}

std::vector<std::string> SecretBindings::scrubForms() const
{
    std::vector<std::string> forms;
    const auto add = [&](std::string form) {
        if (!form.empty() && std::find(forms.begin(), forms.end(), form) == forms.end())
            forms.push_back(std::move(form));
    };
    for (const SecretBinding &binding : bindings_) {
        add(binding.value);
        add(percentEncoded(binding.value, true));
        add(percentEncoded(binding.value, false));
        for (size_t offset = 0; offset < 3; ++offset) {
            std::string inner = base64Inner(binding.value, offset);
            std::string url = inner;
            std::replace(url.begin(), url.end(), '+', '-');
            std::replace(url.begin(), url.end(), '/', '_');
            add(std::move(inner));
            add(std::move(url));
        }
    }
    // The longest first, so a form inside another is not matched in its place.
    std::sort(forms.begin(), forms.end(),
              [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    return forms;
}

} // namespace arizuko::egress
