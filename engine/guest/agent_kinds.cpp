#include "agent_kinds.h"

#include <cstdio>

namespace arizuko::guest {

std::string trimmedSlash(std::string url)
{
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    return url;
}

void requireModelLaunch(const TurnSpec &spec, const char *agent)
{
    if (spec.prompt.empty() && !spec.prestarted)
        throw SpecError(std::string("prompt is required for the ") + agent + " agent");
    if (spec.gatewayUrl.empty() || spec.gatewayToken.empty())
        throw SpecError(std::string("gateway_url and gateway_token are required for the ") + agent +
                        " agent");
}

std::vector<std::string> anthropicGateway(const TurnSpec &spec)
{
    std::vector<std::string> environment;
    if (!spec.gatewayUrl.empty())
        environment.push_back("ANTHROPIC_BASE_URL=" + spec.gatewayUrl);
    if (!spec.gatewayToken.empty())
        environment.push_back("ANTHROPIC_API_KEY=" + spec.gatewayToken);
    return environment;
}

std::string tomlString(const std::string &text)
{
    std::string quoted = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04X", byte);
            quoted += escaped;
        } else {
            quoted += c;
        }
    }
    return quoted + '"';
}

} // namespace arizuko::guest
