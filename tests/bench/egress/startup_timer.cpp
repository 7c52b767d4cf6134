// egress-bench-startup: how long a proxy takes from fork+exec until
// `GET /health` answers 200, the moment the engine may start a turn. The
// command prints arizuko-egress's `listening` JSON line on stderr (so it can
// bind port 0); /health is then polled on that address, a new connection per
// poll, until it answers 200. Each start is stopped with SIGTERM.

#include "bench_socket.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace egress_bench;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

struct Options
{
    std::uint64_t count = 50;
    microseconds pollInterval{100};
    milliseconds timeout{5000};
    bool listeningOnly = false;
    std::vector<char *> command;
};

struct Start
{
    long long listeningNs = 0;
    long long healthyNs = 0;
    bool cleanExit = false;
};

long long nanosecondsSince(Clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// The address from {"event":"listening","addr":"127.0.0.1:43123"}.
std::optional<std::string> listeningAddress(std::string_view line)
{
    if (line.find("\"listening\"") == std::string_view::npos)
        return std::nullopt;
    const auto key = line.find("\"addr\"");
    if (key == std::string_view::npos)
        return std::nullopt;
    const auto open = line.find('"', line.find(':', key + 6));
    const auto close = line.find('"', open + 1);
    if (open == std::string_view::npos || close == std::string_view::npos)
        return std::nullopt;
    return std::string(line.substr(open + 1, close - open - 1));
}

// Reads the child's stderr until its listening line; false at the deadline
// or when the child closes stderr first.
std::optional<std::string> awaitListening(int stderrFd, std::string &log,
                                          Clock::time_point deadline)
{
    std::size_t scanned = 0;
    for (;;) {
        for (auto end = log.find('\n', scanned); end != std::string::npos;
             end = log.find('\n', scanned)) {
            if (auto address =
                    listeningAddress(std::string_view(log).substr(scanned, end - scanned)))
                return address;
            scanned = end + 1;
        }
        const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
        pollfd readable{stderrFd, POLLIN, 0};
        if (left.count() <= 0 || poll(&readable, 1, static_cast<int>(left.count()) + 1) <= 0)
            return std::nullopt;
        char chunk[4096];
        const ssize_t received = read(stderrFd, chunk, sizeof chunk);
        if (received <= 0)
            return std::nullopt;
        log.append(chunk, static_cast<std::size_t>(received));
    }
}

bool healthy(const Endpoint &endpoint)
{
    const UniqueFd socket = connectTo(endpoint);
    if (!socket || !sendAll(socket.get(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        return false;
    std::string reply;
    return readHead(socket.get(), reply) && statusCode(reply) == 200;
}

// Stops the child and reads its stderr to the end, so it never blocks on a
// full pipe; true when it exited 0 within the deadline.
bool stop(pid_t child, int stderrFd, std::string &log, Clock::time_point deadline)
{
    kill(child, SIGTERM);
    char chunk[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
        pollfd readable{stderrFd, POLLIN, 0};
        if (left.count() <= 0 || poll(&readable, 1, static_cast<int>(left.count()) + 1) <= 0) {
            kill(child, SIGKILL);
            break;
        }
        const ssize_t received = read(stderrFd, chunk, sizeof chunk);
        if (received <= 0)
            break;
        log.append(chunk, static_cast<std::size_t>(received));
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::optional<Start> startOnce(const Options &options, std::string &log)
{
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0)
        failWithErrno("pipe2");
    const UniqueFd stderrRead(ends[0]);
    UniqueFd stderrWrite(ends[1]);

    const auto start = Clock::now();
    const pid_t child = fork();
    if (child < 0)
        failWithErrno("fork");
    if (child == 0) {
        dup2(stderrWrite.get(), STDERR_FILENO);
        execv(options.command[0], options.command.data());
        _exit(127);
    }
    stderrWrite.reset();
    const auto deadline = start + options.timeout;

    Start result;
    const auto address = awaitListening(stderrRead.get(), log, deadline);
    const auto endpoint = address ? parseEndpoint(*address) : std::nullopt;
    bool answered = false;
    if (endpoint) {
        result.listeningNs = nanosecondsSince(start);
        answered = options.listeningOnly || healthy(*endpoint);
        while (!answered && Clock::now() < deadline) {
            std::this_thread::sleep_for(options.pollInterval);
            answered = healthy(*endpoint);
        }
        result.healthyNs = nanosecondsSince(start);
    }
    result.cleanExit = stop(child, stderrRead.get(), log, Clock::now() + options.timeout);
    if (!answered)
        return std::nullopt;
    return result;
}

std::string jsonArray(const std::vector<long long> &values)
{
    std::string json = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        json += (i ? "," : "") + std::to_string(values[i]);
    return json + "]";
}

[[noreturn]] void usage(int status)
{
    std::fputs("usage: egress-bench-startup [--count N] [--poll-interval-us U] [--timeout-ms T]\n"
               "                            [--listening-only] -- PROGRAM [ARGS...]\n"
               "Starts PROGRAM (an absolute path) N times (default 50); each time measures\n"
               "fork+exec until its stderr `listening` line and until GET /health answers 200,\n"
               "polling every U microseconds (default 100). --listening-only stops at the\n"
               "listening line (for programs without /health). Prints one JSON object.\n",
               status == 0 ? stdout : stderr);
    std::exit(status);
}

Options parseOptions(int argc, char **argv)
{
    Options options;
    int i = 1;
    for (; i < argc && std::string_view(argv[i]) != "--"; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--help")
            usage(0);
        if (argument == "--listening-only") {
            options.listeningOnly = true;
            continue;
        }
        const auto number = i + 1 < argc ? parseNumber(argv[i + 1]) : std::nullopt;
        if (!number)
            usage(2);
        ++i;
        if (argument == "--count")
            options.count = *number;
        else if (argument == "--poll-interval-us")
            options.pollInterval = microseconds(*number);
        else if (argument == "--timeout-ms")
            options.timeout = milliseconds(*number);
        else
            usage(2);
    }
    for (++i; i < argc; ++i)
        options.command.push_back(argv[i]);
    if (options.command.empty() || options.count == 0)
        usage(2);
    options.command.push_back(nullptr);
    return options;
}

} // namespace

int main(int argc, char **argv)
{
    const Options options = parseOptions(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    std::vector<long long> listening;
    std::vector<long long> healthyAfter;
    std::uint64_t uncleanExits = 0;
    for (std::uint64_t i = 0; i < options.count; ++i) {
        std::string log;
        const auto start = startOnce(options, log);
        if (!start) {
            std::fprintf(stderr,
                         "egress-bench-startup: start %llu never became ready; its "
                         "stderr:\n%s\n",
                         static_cast<unsigned long long>(i + 1), log.c_str());
            return 1;
        }
        listening.push_back(start->listeningNs);
        if (!options.listeningOnly)
            healthyAfter.push_back(start->healthyNs);
        uncleanExits += start->cleanExit ? 0 : 1;
    }
    std::printf("{\"mode\":\"startup\",\"listening_ns\":%s,\"healthy_ns\":%s,"
                "\"unclean_exits\":%llu}\n",
                jsonArray(listening).c_str(), jsonArray(healthyAfter).c_str(),
                static_cast<unsigned long long>(uncleanExits));
    return 0;
}
