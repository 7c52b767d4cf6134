#include "config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>

namespace arizuko::egress {
namespace {

enum class OptionKind
{
    Value,
    Flag,
    List,
    // Repeatable, each value one whole entry (a rule holds blanks and commas).
    Each,
};

struct OptionSpec
{
    std::string_view flag;
    std::string_view env;
    OptionKind kind;
    std::string_view argument;
    std::string_view help;
};

constexpr OptionSpec kOptions[] = {
    {"--listen", "EGRESS_LISTEN", OptionKind::Value, "ADDR:PORT",
     "address to bind (default :3128 = all IPv4 addresses; port 0 picks one)"},
    {"--allow", "EGRESS_ALLOW", OptionKind::List, "LIST", "host names or IP literals to allow"},
    {"--deny", "EGRESS_DENY", OptionKind::List, "LIST", "host names never to reach (wins)"},
    {"--allow-file", "EGRESS_ALLOW_FILE", OptionKind::Value, "PATH",
     "more allow entries, one a line"},
    {"--deny-file", "EGRESS_DENY_FILE", OptionKind::Value, "PATH", "more deny entries, one a line"},
    {"--allow-all", "EGRESS_ALLOW_ALL", OptionKind::Flag, "", "allow every host not denied"},
    {"--client", "EGRESS_CLIENT", OptionKind::Value, "IP", "the only peer address served"},
    {"--deny-private", "EGRESS_DENY_PRIVATE", OptionKind::Flag, "",
     "refuse private, loopback, link-local and other non-public addresses"},
    {"--allow-loopback", "EGRESS_ALLOW_LOOPBACK", OptionKind::Flag, "",
     "with --deny-private, still allow loopback"},
    {"--max-connections", "EGRESS_MAX_CONNECTIONS", OptionKind::Value, "N",
     "client connections served at once (default 1024)"},
    {"--header-timeout", "EGRESS_HEADER_TIMEOUT", OptionKind::Value, "SEC",
     "time to send a complete request head (default 10)"},
    {"--connect-timeout", "EGRESS_CONNECT_TIMEOUT", OptionKind::Value, "SEC",
     "time to connect to an upstream address (default 10)"},
    {"--idle-timeout", "EGRESS_IDLE_TIMEOUT", OptionKind::Value, "SEC",
     "close a connection idle this long (default 300)"},
    {"--max-header-bytes", "EGRESS_MAX_HEADER_BYTES", OptionKind::Value, "N",
     "largest request or response head (default 16384)"},
    {"--drain-timeout", "EGRESS_DRAIN_TIMEOUT", OptionKind::Value, "SEC",
     "on SIGTERM, time open connections may finish (default 5)"},
    {"--ask", "EGRESS_ASK", OptionKind::Flag, "",
     "hold a request for a host on no list and ask (answers on stdin)"},
    {"--ask-timeout", "EGRESS_ASK_TIMEOUT", OptionKind::Value, "SEC",
     "deny a question nobody answered after this (default 60)"},
    {"--ask-limit", "EGRESS_ASK_LIMIT", OptionKind::Value, "N",
     "questions waiting at once; more are denied (default 20)"},
    {"--folder", "EGRESS_FOLDER", OptionKind::Value, "NAME",
     "the folder's name, for the text of denials"},
    {"--rule", "EGRESS_RULES", OptionKind::Each, "RULE",
     "'allow|deny METHODS HOST PATH'; inspects HOST (env: one rule a line)"},
    {"--rule-file", "EGRESS_RULE_FILE", OptionKind::Value, "PATH", "more rules, one a line"},
    {"--inspect-ca-fd", "EGRESS_INSPECT_CA_FD", OptionKind::Value, "N",
     "inherited descriptor to read the turn's CA certificate and key from"},
    {"--secrets-fd", "EGRESS_SECRETS_FD", OptionKind::Value, "N",
     "inherited descriptor to read the bindings of secrets from (JSON Lines)"},
};

constexpr double kMaxSeconds = 7 * 24 * 3600;

const OptionSpec *findOption(std::string_view flag)
{
    for (const OptionSpec &option : kOptions) {
        if (option.flag == flag)
            return &option;
    }
    return nullptr;
}

Expected<bool> parseBoolean(std::string_view text)
{
    for (const std::string_view yes : {"1", "true", "yes", "on"}) {
        if (text == yes)
            return true;
    }
    for (const std::string_view no : {"0", "false", "no", "off"}) {
        if (text == no)
            return false;
    }
    return Failure{"expected 1, true, yes, on, 0, false, no or off"};
}

Expected<uint64_t> parseCount(std::string_view text, uint64_t minimum, uint64_t maximum)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() ||
        value < minimum || value > maximum)
        return Failure{"expected a whole number from " + std::to_string(minimum) + " to " +
                       std::to_string(maximum)};
    return value;
}

Expected<std::chrono::milliseconds> parseSeconds(std::string_view text, bool zeroAllowed)
{
    double seconds = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() ||
        !std::isfinite(seconds) || seconds < 0 || (seconds == 0 && !zeroAllowed) ||
        seconds > kMaxSeconds)
        return Failure{zeroAllowed ? "expected seconds from 0 to 604800"
                                   : "expected seconds above 0, up to 604800"};
    return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000)));
}

std::string_view withoutBrackets(std::string_view ip)
{
    if (ip.size() >= 2 && ip.front() == '[' && ip.back() == ']')
        return ip.substr(1, ip.size() - 2);
    return ip;
}

Expected<SocketAddress> parseListen(std::string_view text)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
        return Failure{"expected ADDR:PORT or :PORT"};
    auto port = parseCount(text.substr(colon + 1), 0, 65535);
    if (!port)
        return Failure{"invalid port: " + port.error()};
    const std::string_view host = text.substr(0, colon);
    if (host.find(':') != std::string_view::npos && !host.starts_with('['))
        return Failure{"an IPv6 address needs brackets: [ADDR]:PORT"};
    const auto address = SocketAddress::fromIpLiteral(
        host.empty() ? "0.0.0.0" : withoutBrackets(host), static_cast<uint16_t>(port.value()));
    if (!address)
        return Failure{"not an IP address"};
    return *address;
}

Expected<SocketAddress> parseClient(std::string_view text)
{
    const auto address = SocketAddress::fromIpLiteral(withoutBrackets(text), 0);
    if (!address)
        return Failure{"not an IP address"};
    return *address;
}

// The folder name goes into denial bodies, one line of text: no control characters, bounded.
Expected<std::string> parseFolder(std::string_view text)
{
    constexpr size_t kMaxFolderBytes = 256;
    if (text.empty() || text.size() > kMaxFolderBytes)
        return Failure{"expected a folder name of 1 to 256 bytes"};
    if (std::any_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }))
        return Failure{"a folder name has no control characters"};
    return std::string(text);
}

std::optional<std::string> addEntries(std::string_view list, HostList &hosts)
{
    while (true) {
        const size_t comma = list.find(',');
        const std::string_view entry = list.substr(0, comma);
        if (entry.find_first_not_of(" \t") != std::string_view::npos) {
            auto host = parseHostEntry(entry);
            if (!host)
                return host.error() + ": '" + std::string(entry) + "'";
            hosts.add(std::move(host.value()));
        }
        if (comma == std::string_view::npos)
            return std::nullopt;
        list.remove_prefix(comma + 1);
    }
}

// Each value is one rule; a value from the environment may hold several, one a line.
std::optional<std::string> addRules(const std::vector<std::string> &values, RequestRules &rules)
{
    for (const std::string &value : values) {
        std::string_view rest = value;
        while (true) {
            const size_t newline = rest.find('\n');
            const std::string_view text = rest.substr(0, newline);
            if (text.find_first_not_of(" \t\r") != std::string_view::npos) {
                auto rule = parseRequestRule(text);
                if (!rule)
                    return "'" + std::string(text) + "': " + rule.error();
                rules.add(std::move(rule.value()));
            }
            if (newline == std::string_view::npos)
                break;
            rest.remove_prefix(newline + 1);
        }
    }
    return std::nullopt;
}

// Applies the values given for one option; returns an error message on a bad value.
std::optional<std::string> applyOption(Config &config, const OptionSpec &option,
                                       const std::vector<std::string> &values)
{
    const std::string_view flag = option.flag;
    if (option.kind == OptionKind::Each)
        return addRules(values, config.rules);
    if (option.kind == OptionKind::List) {
        HostList &list = flag == "--allow" ? config.policy.allowList() : config.policy.denyList();
        for (const std::string &value : values) {
            if (auto error = addEntries(value, list))
                return error;
        }
        return std::nullopt;
    }
    const std::string &value = values.back();
    const auto fail = [&](const std::string &why) -> std::optional<std::string> {
        return "'" + value + "': " + why;
    };
    if (option.kind == OptionKind::Flag) {
        auto on = parseBoolean(value);
        if (!on)
            return fail(on.error());
        if (flag == "--allow-all")
            config.policy.setAllowAll(on.value());
        else if (flag == "--deny-private")
            config.denyPrivate = on.value();
        else if (flag == "--ask")
            config.ask = on.value();
        else
            config.allowLoopback = on.value();
        return std::nullopt;
    }
    if (flag == "--listen") {
        auto listen = parseListen(value);
        if (!listen)
            return fail(listen.error());
        config.listen = listen.value();
    } else if (flag == "--allow-file" || flag == "--deny-file" || flag == "--rule-file") {
        if (value.empty())
            return fail("empty path");
        (flag == "--allow-file"  ? config.allowFile
         : flag == "--deny-file" ? config.denyFile
                                 : config.ruleFile) = value;
    } else if (flag == "--client") {
        auto client = parseClient(value);
        if (!client)
            return fail(client.error());
        config.client = client.value();
    } else if (flag == "--folder") {
        auto folder = parseFolder(value);
        if (!folder)
            return fail(folder.error());
        config.folder = folder.value();
    } else if (flag == "--inspect-ca-fd" || flag == "--secrets-fd") {
        // 0 to 2 are the proxy's stdio (stdin carries the answers of --ask).
        auto fd = parseCount(value, 3, 1 << 20);
        if (!fd)
            return fail(fd.error());
        (flag == "--secrets-fd" ? config.secretsFd : config.inspectCaFd) =
            static_cast<int>(fd.value());
    } else if (flag == "--max-connections" || flag == "--max-header-bytes" ||
               flag == "--ask-limit") {
        auto count = flag == "--max-header-bytes" ? parseCount(value, 256, 1 << 24)
                                                  : parseCount(value, 1, 1'000'000);
        if (!count)
            return fail(count.error());
        (flag == "--max-connections" ? config.maxConnections
         : flag == "--ask-limit"     ? config.askLimit
                                     : config.maxHeaderBytes) = count.value();
    } else {
        const bool drain = flag == "--drain-timeout";
        auto seconds = parseSeconds(value, drain);
        if (!seconds)
            return fail(seconds.error());
        if (drain)
            config.drainTimeout = seconds.value();
        else if (flag == "--header-timeout")
            config.headerTimeout = seconds.value();
        else if (flag == "--connect-timeout")
            config.connectTimeout = seconds.value();
        else if (flag == "--ask-timeout")
            config.askTimeout = seconds.value();
        else
            config.idleTimeout = seconds.value();
    }
    return std::nullopt;
}

ConfigOutcome invalid(std::string message)
{
    ConfigOutcome outcome;
    outcome.kind = ConfigOutcome::Kind::Invalid;
    outcome.message = std::move(message);
    return outcome;
}

} // namespace

ConfigOutcome parseConfig(const std::vector<std::string> &arguments, const Environment &environment)
{
    std::map<std::string_view, std::vector<std::string>> given;
    for (size_t i = 0; i < arguments.size(); ++i) {
        const std::string &argument = arguments[i];
        if (argument == "--help" || argument == "-h") {
            ConfigOutcome help;
            help.kind = ConfigOutcome::Kind::Help;
            return help;
        }
        const size_t equals = argument.find('=');
        const std::string_view name = std::string_view(argument).substr(0, equals);
        const OptionSpec *option = findOption(name);
        if (option == nullptr)
            return invalid("unknown option '" + argument + "' (see --help)");
        std::string value;
        if (equals != std::string::npos)
            value = argument.substr(equals + 1);
        else if (option->kind == OptionKind::Flag)
            value = "1";
        else if (i + 1 < arguments.size())
            value = arguments[++i];
        else
            return invalid(std::string(option->flag) + " needs a value");
        given[option->flag].push_back(std::move(value));
    }

    ConfigOutcome outcome;
    outcome.config.listen = *SocketAddress::fromIpLiteral("0.0.0.0", 3128);
    for (const OptionSpec &option : kOptions) {
        std::string source(option.flag);
        std::vector<std::string> values;
        if (const auto found = given.find(option.flag); found != given.end()) {
            values = found->second;
        } else if (auto fromEnvironment = environment(option.env)) {
            source = option.env;
            values.push_back(std::move(*fromEnvironment));
        } else {
            continue;
        }
        if (auto error = applyOption(outcome.config, option, values))
            return invalid("invalid value for " + source + ": " + *error);
    }
    // Without the turn's CA an inspected host could only be refused or tunnelled unseen; neither
    // may happen silently.
    if ((!outcome.config.rules.empty() || outcome.config.ruleFile) && !outcome.config.inspectCaFd)
        return invalid(std::string(outcome.config.rules.empty() ? "--rule-file" : "--rule") +
                       " needs --inspect-ca-fd: an inspected host's TLS is terminated with the "
                       "turn's CA");
    // A bound host is inspected: its values go into requests the proxy must read.
    if (outcome.config.secretsFd && !outcome.config.inspectCaFd)
        return invalid("--secrets-fd needs --inspect-ca-fd: a host a secret is bound to is "
                       "inspected, its TLS terminated with the turn's CA");
    if (outcome.config.secretsFd && outcome.config.secretsFd == outcome.config.inspectCaFd)
        return invalid("--secrets-fd and --inspect-ca-fd name the same descriptor");
    return outcome;
}

std::string usageText()
{
    std::string text = "usage: arizuko-egress [options]\n\n"
                       "A forward HTTP/CONNECT proxy that lets one client reach an allowlist of "
                       "hosts.\nEvery option can also be set by its environment variable; the "
                       "command line wins.\nLists are comma-separated and may be repeated.\n\n";
    for (const OptionSpec &option : kOptions) {
        std::string left = "  " + std::string(option.flag);
        if (!option.argument.empty())
            left += " " + std::string(option.argument);
        left.resize(std::max<size_t>(left.size() + 1, 30), ' ');
        text += left + std::string(option.help) + "  [" + std::string(option.env) + "]\n";
    }
    text += "  --help                      print this help and exit\n";
    return text;
}

namespace {

// Calls `add` with each entry of a file of one entry a line ('#' starts a comment); its error
// becomes the file's, with the line number.
Expected<size_t> loadEntries(const std::string &path, std::string_view flag,
                             const std::function<std::optional<std::string>(std::string_view)> &add)
{
    std::ifstream file(path);
    if (!file)
        return Failure{"invalid value for " + std::string(flag) + ": '" + path +
                       "': cannot be read"};
    size_t added = 0;
    size_t lineNumber = 0;
    for (std::string line; std::getline(file, line);) {
        ++lineNumber;
        const std::string_view entry = std::string_view(line).substr(0, line.find('#'));
        if (entry.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        if (auto error = add(entry))
            return Failure{"invalid value for " + std::string(flag) + ": '" + path + "' line " +
                           std::to_string(lineNumber) + ": " + *error + ": '" + std::string(entry) +
                           "'"};
        ++added;
    }
    return added;
}

} // namespace

Expected<size_t> loadListFile(const std::string &path, std::string_view flag, HostList &list)
{
    return loadEntries(path, flag, [&](std::string_view entry) -> std::optional<std::string> {
        auto host = parseHostEntry(entry);
        if (!host)
            return host.error();
        list.add(std::move(host.value()));
        return std::nullopt;
    });
}

Expected<size_t> loadRuleFile(const std::string &path, RequestRules &rules)
{
    // A path pattern never holds '#', so a comment cannot cut a rule short.
    return loadEntries(path, "--rule-file",
                       [&](std::string_view entry) -> std::optional<std::string> {
                           auto rule = parseRequestRule(entry);
                           if (!rule)
                               return rule.error();
                           rules.add(std::move(rule.value()));
                           return std::nullopt;
                       });
}

} // namespace arizuko::egress
