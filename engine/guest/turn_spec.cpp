#include "turn_spec.h"

#include "agent_profile.h"
#include "json.h"

#include <limits>

namespace arizuko::guest {
namespace {

class SpecReader
{
public:
    explicit SpecReader(const json::Value &root)
        : m_root(root)
    {}

    std::optional<std::string> optionalString(std::string_view key) const
    {
        const json::Value *value = m_root.find(key);
        if (!value || value->isNull())
            return std::nullopt;
        const std::string *text = value->asString();
        if (!text)
            throw SpecError(std::string(key) + " must be a string");
        if (text->find('\0') != std::string::npos)
            throw SpecError(std::string(key) + " must not contain a NUL character");
        return *text;
    }

    std::string string(std::string_view key) const { return optionalString(key).value_or(""); }

    std::string requiredString(std::string_view key) const
    {
        std::string text = string(key);
        if (text.empty())
            throw SpecError(std::string(key) + " is required");
        return text;
    }

    std::optional<std::int64_t> optionalInteger(std::string_view key, std::int64_t minimum,
                                                std::int64_t maximum) const
    {
        const json::Value *value = m_root.find(key);
        if (!value || value->isNull())
            return std::nullopt;
        const json::Value::Number *number = value->asNumber();
        if (!number || !number->integer)
            throw SpecError(std::string(key) + " must be an integer");
        if (*number->integer < minimum || *number->integer > maximum)
            throw SpecError(std::string(key) + " must be between " + std::to_string(minimum) +
                            " and " + std::to_string(maximum));
        return *number->integer;
    }

    std::int64_t requiredInteger(std::string_view key, std::int64_t minimum,
                                 std::int64_t maximum) const
    {
        const auto number = optionalInteger(key, minimum, maximum);
        if (!number)
            throw SpecError(std::string(key) + " is required");
        return *number;
    }

    bool optionalBool(std::string_view key) const
    {
        const json::Value *value = m_root.find(key);
        if (!value || value->isNull())
            return false;
        if (!value->asBool())
            throw SpecError(std::string(key) + " must be true or false");
        return *value->asBool();
    }

    const json::Value *object(std::string_view key) const
    {
        const json::Value *value = m_root.find(key);
        if (!value || value->isNull())
            return nullptr;
        if (!value->asObject())
            throw SpecError(std::string(key) + " must be an object");
        return value;
    }

private:
    const json::Value &m_root;
};

AgentKind parseAgentKind(const std::string &name)
{
    if (const AgentProfile *profile = agentProfileNamed(name))
        return profile->kind;
    throw SpecError("agent \"" + name + "\" is not one of " + agentNames());
}

std::optional<Ipv4Interface> parseNetwork(const json::Value *network)
{
    if (!network)
        return std::nullopt;
    const SpecReader reader(*network);
    try {
        return parseIpv4Interface(reader.requiredString("address"),
                                  reader.requiredString("gateway"));
    } catch (const AddressError &error) {
        throw SpecError(std::string("network: ") + error.what());
    } catch (const SpecError &error) {
        throw SpecError(std::string("network.") + error.what());
    }
}

// Absent means resume, as hosts before session modes existed asked.
SessionMode parseSessionMode(const std::string &name)
{
    if (name.empty() || name == "resume")
        return SessionMode::Resume;
    if (name == "new")
        return SessionMode::New;
    throw SpecError("unknown session_mode \"" + name + "\" (expected new or resume)");
}

// Names the launcher sets itself (agent_launch.cpp, each kind's own:
// AgentProfile::ownVariables) or that would change
// how the agent or its libraries run; a secret may not take their place.
bool isReservedVariable(const std::string &name)
{
    static constexpr std::string_view reserved[] = {
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TMPDIR", "SSL_CERT_FILE",
        "DISABLE_TELEMETRY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "IS_SANDBOX", "NO_PROXY",
        // where tools find the turn's CA (inspected hosts)
        "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "GIT_SSL_CAINFO", "CURL_CA_BUNDLE", "no_proxy",
        "HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy",
        // a started agent's (agent_launch.cpp, whatever its kind)
        "CLAUDE_ENV_FILE",
        // how programs and their libraries run
        "LD_PRELOAD", "LD_LIBRARY_PATH", "NODE_OPTIONS", "BASH_ENV", "ENV"};
    for (const std::string_view word : reserved) {
        if (name == word)
            return true;
    }
    return isAgentVariable(name) || name.rfind("ARIZUKO_", 0) == 0 ||
           name.rfind("ANTHROPIC_", 0) == 0;
}

// One PEM certificate and nothing else: the guest trusts what it holds, and
// the turn's key is the proxy's alone.
std::string parseInspectCa(const std::string &pem)
{
    if (pem.empty())
        return pem;
    const std::string_view begin = "-----BEGIN CERTIFICATE-----";
    const std::string_view end = "-----END CERTIFICATE-----";
    if (pem.rfind(begin, 0) != 0 || pem.find(end) == std::string::npos ||
        pem.find("-----BEGIN", begin.size()) != std::string::npos)
        throw SpecError("inspect_ca must be one PEM certificate and nothing else");
    return pem;
}

std::vector<std::pair<std::string, std::string>> parseEnvironment(const json::Value *object)
{
    std::vector<std::pair<std::string, std::string>> environment;
    if (!object)
        return environment;
    for (const auto &[name, value] : *object->asObject()) {
        const bool plain =
            !name.empty() && name.size() <= 128 && !(name[0] >= '0' && name[0] <= '9') &&
            name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                   "0123456789_") == std::string::npos;
        if (!plain || isReservedVariable(name))
            throw SpecError("env: '" + name + "' is not a variable a secret may set");
        const std::string *text = value.asString();
        if (!text || text->find('\0') != std::string::npos)
            throw SpecError("env: " + name + " must be a string without NUL");
        environment.emplace_back(name, *text);
    }
    return environment;
}

} // namespace

std::string agentName(AgentKind kind)
{
    return agentProfile(kind).name;
}

namespace {

json::Value parseObject(std::string_view line, const char *what)
{
    json::Value root;
    try {
        root = json::parse(line);
    } catch (const json::ParseError &error) {
        throw SpecError(std::string(what) + " is not valid JSON: " + error.what());
    }
    if (!root.asObject())
        throw SpecError(std::string(what) + " must be a JSON object");
    return root;
}

void checkVersion(const SpecReader &reader)
{
    const std::int64_t version =
        reader.requiredInteger("version", 1, std::numeric_limits<std::int64_t>::max());
    if (version != protocolVersion)
        throw SpecError("protocol version " + std::to_string(version) +
                        " is not supported; this guest speaks version " +
                        std::to_string(protocolVersion));
}

// The members a `turn` and a `prestart` share: who the agent is, where it
// reaches its proxy and gateway, and the model and session it starts with.
void readAgentStart(const SpecReader &reader, TurnSpec &spec)
{
    spec.folder = reader.string("folder");
    spec.agent = parseAgentKind(reader.requiredString("agent"));
    spec.sessionId = reader.string("session_id");
    spec.model = reader.string("model");
    spec.proxyUrl = reader.string("proxy_url");
    spec.gatewayUrl = reader.string("gateway_url");
    spec.gatewayToken = reader.string("gateway_token");
    // Root (0) only when the host names it: the VM, not the agent's uid, is
    // the confinement, and tests must prove it holds against root.
    constexpr std::int64_t maxId = 65534;
    spec.uid = static_cast<std::uint32_t>(reader.optionalInteger("uid", 0, maxId).value_or(1000));
    spec.gid = static_cast<std::uint32_t>(reader.optionalInteger("gid", 0, maxId).value_or(1000));
    spec.network = parseNetwork(reader.object("network"));
}

void requireGateway(const TurnSpec &spec)
{
    if (spec.gatewayUrl.empty() || spec.gatewayToken.empty())
        throw SpecError("gateway_url and gateway_token are required for the " +
                        agentName(spec.agent) + " agent");
}

} // namespace

std::string messageType(std::string_view line)
{
    try {
        const json::Value root = json::parse(line);
        const json::Value *type = root.find("type");
        return type && type->asString() ? *type->asString() : std::string();
    } catch (const json::ParseError &) {
        return {};
    }
}

std::optional<bool> messageFlag(std::string_view line, const char *name)
{
    try {
        const json::Value root = json::parse(line);
        const json::Value *member = root.find(name);
        return member && member->asBool() ? std::optional<bool>(*member->asBool()) : std::nullopt;
    } catch (const json::ParseError &) {
        return std::nullopt;
    }
}

TurnSpec parseTurnSpec(std::string_view line)
{
    const json::Value root = parseObject(line, "the turn spec");
    const SpecReader reader(root);
    if (reader.string("type") != "turn")
        throw SpecError("expected a message of type \"turn\"");
    checkVersion(reader);

    TurnSpec spec;
    spec.turnId = reader.requiredString("turn_id");
    readAgentStart(reader, spec);
    spec.topic = reader.string("topic");
    spec.prompt = reader.string("prompt");
    spec.command = reader.string("command");
    spec.sessionMode = parseSessionMode(reader.string("session_mode"));
    spec.skills = reader.optionalBool("skills");
    spec.timeoutSeconds = reader.requiredInteger("timeout_seconds", 1, maxTimeoutSeconds);
    spec.environment = parseEnvironment(reader.object("env"));
    spec.prestarted = reader.optionalBool("prestarted");
    spec.inspectCa = parseInspectCa(reader.string("inspect_ca"));

    if (!agentProfile(spec.agent).usesModel) {
        if (spec.command.empty())
            throw SpecError("command is required for the " + agentName(spec.agent) + " agent");
        return spec;
    }
    if (spec.prompt.empty())
        throw SpecError("prompt is required for the " + agentName(spec.agent) + " agent");
    requireGateway(spec);
    return spec;
}

TurnSpec parsePrestart(std::string_view line)
{
    const json::Value root = parseObject(line, "the prestart message");
    const SpecReader reader(root);
    if (reader.string("type") != "prestart")
        throw SpecError("expected a message of type \"prestart\"");
    checkVersion(reader);

    TurnSpec spec;
    readAgentStart(reader, spec);
    if (!agentProfile(spec.agent).startedPrompt)
        throw SpecError("a " + agentName(spec.agent) + " is not started before its prompt");
    requireGateway(spec);
    if (spec.sessionId.empty())
        throw SpecError("session_id is required: the agent starts a new session");
    spec.sessionMode = SessionMode::New;
    spec.prestarted = true;
    return spec;
}

std::string prestartMismatch(const TurnSpec &prestart, const TurnSpec &spec)
{
    if (!spec.prestarted)
        return "the spec does not ask for the started agent";
    std::vector<std::string> differ;
    const auto check = [&differ](bool same, const char *what) {
        if (!same)
            differ.emplace_back(what);
    };
    check(spec.agent == prestart.agent, "the agent");
    check(spec.uid == prestart.uid && spec.gid == prestart.gid, "the uid/gid");
    check(spec.folder == prestart.folder, "the folder");
    check(spec.gatewayUrl == prestart.gatewayUrl && spec.gatewayToken == prestart.gatewayToken,
          "the gateway");
    check(spec.proxyUrl == prestart.proxyUrl, "the proxy");
    check(spec.model == prestart.model, "the model");
    check(spec.sessionMode == SessionMode::New && spec.sessionId == prestart.sessionId,
          "the session");
    check(spec.network == prestart.network, "the network");
    // Read by Claude Code and pi only at their start.
    check(!spec.skills, "the skills");
    check(spec.environment.empty(), "the shell:env secrets");
    // Its environment has no CA variables (a spare's proxy inspects nothing).
    check(spec.inspectCa.empty(), "the inspected hosts");
    std::string phrase;
    for (const std::string &what : differ)
        phrase += (phrase.empty() ? "" : ", ") + what;
    return phrase;
}

} // namespace arizuko::guest
