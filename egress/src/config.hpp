#pragma once

// The proxy's settings from its command line and EGRESS_* environment (docs/egress.md, "Flags").
// A value that does not parse is an error naming the flag and the value: exit status 2.

#include "expected.hpp"
#include "host_matcher.hpp"
#include "request_rules.hpp"
#include "secret_bindings.hpp"
#include "socket_address.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::egress {

struct Config
{
    SocketAddress listen;
    HostPolicy policy;
    std::optional<std::string> allowFile;
    std::optional<std::string> denyFile;
    std::optional<SocketAddress> client;
    bool denyPrivate = false;
    bool allowLoopback = false;
    size_t maxConnections = 1024;
    std::chrono::milliseconds headerTimeout{10'000};
    std::chrono::milliseconds connectTimeout{10'000};
    std::chrono::milliseconds idleTimeout{300'000};
    std::chrono::milliseconds drainTimeout{5'000};
    size_t maxHeaderBytes = 16384;
    // --ask: a host on no list is held and asked about on the decision log; answers come on stdin.
    bool ask = false;
    std::chrono::milliseconds askTimeout{60'000};
    size_t askLimit = 20;
    // The folder's name, for the "how to allow it" text of denials; empty when not given.
    std::string folder;
    // --rule: rules by method and path; a host one names is inspected (TLS terminated).
    RequestRules rules;
    // --rule-file: more rules, one a line, read with the list files.
    std::optional<std::string> ruleFile;
    // --inspect-ca-fd: the inherited descriptor the turn's CA certificate and key are read from.
    std::optional<int> inspectCaFd;
    // --secrets-fd: the inherited descriptor the bindings of secrets are read from (JSON Lines).
    std::optional<int> secretsFd;
    // The bindings read from it at start; a host one names is inspected.
    SecretBindings secrets;

    // Whether the proxy terminates `host`'s TLS: a rule names it or a secret is bound to it.
    bool inspects(const HostName &host) const
    {
        return rules.inspects(host) || secrets.boundTo(host) != nullptr;
    }
};

struct ConfigOutcome
{
    enum class Kind
    {
        Run,
        Help,
        Invalid,
    };
    Kind kind = Kind::Run;
    Config config;
    std::string message;
};

// Reads the environment through `environment` (which returns nothing for an unset variable), so a
// test can pass its own.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;
ConfigOutcome parseConfig(const std::vector<std::string> &arguments,
                          const Environment &environment);

std::string usageText();

// Adds the entries of a list file (one a line, '#' starts a comment) to `list`.
Expected<size_t> loadListFile(const std::string &path, std::string_view flag, HostList &list);
// Adds the rules of a rule file (one a line, '#' starts a comment) to `rules`.
Expected<size_t> loadRuleFile(const std::string &path, RequestRules &rules);

} // namespace arizuko::egress
