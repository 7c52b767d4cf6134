// arizuko-egress: the per-turn forward proxy (docs/egress.md).

#include "config.hpp"
#include "descriptor_read.hpp"
#include "json_line.hpp"
#include "proxy_server.hpp"
#include "turn_authority.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

namespace {

using namespace arizuko::egress;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Every tunnel costs six descriptors (two sockets, two pipes); the default soft limit of 1024
// would cap the proxy near 170 tunnels.
void raiseDescriptorLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// Blocked before any thread starts, so every thread inherits the mask and the signals reach
// only the event loop's signalfd. SIGPIPE is ignored: splice(2) has no MSG_NOSIGNAL.
void prepareSignals()
{
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    sigprocmask(SIG_BLOCK, &stopSignals, nullptr);
    signal(SIGPIPE, SIG_IGN);
}

// A few bindings are a few KiB; more is not what the engine sends.
constexpr size_t kMaxSecretsBytes = 1 << 20;

std::optional<std::string> readSecrets(int fd, Config &config)
{
    const std::string flag = "--secrets-fd " + std::to_string(fd);
    auto read = readDescriptor(fd, kMaxSecretsBytes, flag);
    if (!read)
        return read.error();
    std::string &text = read.value();
    std::optional<std::string> error;
    if (text.size() > kMaxSecretsBytes) {
        error = flag + ": more than 1 MiB of bindings";
    } else if (auto parsed = SecretBindings::parse(text)) {
        config.secrets = std::move(parsed.value());
    } else {
        error = flag + ": " + parsed.error();
    }
    explicit_bzero(text.data(), text.size());
    return error;
}

int serve(Config config, std::unique_ptr<TurnAuthority> authority)
{
    prepareSignals();
    raiseDescriptorLimit();
    ProxyServer server(std::move(config), std::move(authority));
    const auto bound = server.listen();
    if (!bound) {
        std::cerr << "arizuko-egress: " << bound.error() << '\n';
        return kExitFailure;
    }
    const auto stamp = std::chrono::system_clock::now;
    server.log().write(JsonLine(stamp(), "listening").add("addr", bound->toString()).finish());

    return server.run();
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    ConfigOutcome outcome = parseConfig(arguments, [](std::string_view name) {
        const char *value = std::getenv(std::string(name).c_str());
        return value == nullptr ? std::nullopt : std::optional<std::string>(value);
    });
    switch (outcome.kind) {
    case ConfigOutcome::Kind::Help:
        std::cout << usageText();
        return 0;
    case ConfigOutcome::Kind::Invalid:
        std::cerr << "arizuko-egress: " << outcome.message << '\n';
        return kExitUsage;
    case ConfigOutcome::Kind::Run:
        break;
    }
    // The turn's CA is read (and its descriptor closed) before anything else runs.
    std::unique_ptr<TurnAuthority> authority;
    if (outcome.config.inspectCaFd) {
        auto read = TurnAuthority::readFrom(*outcome.config.inspectCaFd,
                                            std::getenv("EGRESS_TEST_UPSTREAM_CA"));
        if (!read) {
            std::cerr << "arizuko-egress: " << read.error() << '\n';
            return kExitUsage;
        }
        authority = std::move(read.value());
    }
    // The bindings of secrets likewise; one that does not parse is no turn (fail closed).
    if (outcome.config.secretsFd) {
        if (auto error = readSecrets(*outcome.config.secretsFd, outcome.config)) {
            std::cerr << "arizuko-egress: " << *error << '\n';
            return kExitUsage;
        }
    }
    try {
        return serve(std::move(outcome.config), std::move(authority));
    } catch (const std::exception &error) {
        std::cerr << "arizuko-egress: " << error.what() << '\n';
        return kExitFailure;
    }
}
