// egress-bench-client: the load the benchmark puts on one path to the
// upstream, either direct or through a proxy's CONNECT tunnel. One mode per
// run, one JSON object on stdout:
//   throughput  one tunnel, GET /bytes/N, received with splice(2) into
//               /dev/null so the client costs almost nothing;
//   latency     K sequential new tunnels, each with one small request and
//               response, every duration recorded;
//   rate        the same K requests from P threads at once, timed together:
//               requests per second with the proxy kept busy;
//   hold        N tunnels opened and verified, then left idle until stdin
//               closes.

#include "bench_socket.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace egress_bench;

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t drainPipeBytes = 1 << 20;
constexpr int socketTimeoutSeconds = 30;

struct Options
{
    std::string mode;
    std::string target;
    std::optional<std::string> proxy;
    std::uint64_t bytes = 0;
    std::uint64_t count = 0;
    std::uint64_t parallel = 1;
};

struct Path
{
    Endpoint target;
    std::string targetText;
    std::optional<Endpoint> proxy;
};

void setTimeouts(int fd)
{
    const timeval timeout{socketTimeoutSeconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

// A connection on which the next bytes sent reach the upstream.
UniqueFd openPath(const Path &path)
{
    UniqueFd socket = connectTo(path.proxy ? *path.proxy : path.target);
    if (!socket)
        failWithErrno("connect");
    setTimeouts(socket.get());
    if (!path.proxy)
        return socket;
    const std::string request =
        "CONNECT " + path.targetText + " HTTP/1.1\r\nHost: " + path.targetText + "\r\n\r\n";
    if (!sendAll(socket.get(), request))
        failWithErrno("sending CONNECT");
    std::string reply;
    const auto length = readHead(socket.get(), reply);
    if (!length)
        fail("the proxy closed the connection instead of answering CONNECT");
    if (statusCode(reply) != 200)
        fail("the proxy refused CONNECT: " + reply.substr(0, reply.find("\r\n")));
    if (reply.size() != *length)
        fail("the proxy sent bytes the upstream never wrote");
    return socket;
}

// Sends one request and reads the whole small response.
void exchange(int fd, std::string_view request)
{
    if (!sendAll(fd, request))
        failWithErrno("sending the request");
    std::string reply;
    const auto length = readHead(fd, reply);
    if (!length || statusCode(reply) != 200)
        fail("the upstream's reply did not arrive");
    const auto bodyBytes = contentLength(std::string_view(reply).substr(0, *length));
    if (!bodyBytes)
        fail("the upstream's reply has no Content-Length");
    char chunk[4096];
    while (reply.size() < *length + *bodyBytes) {
        const ssize_t received = recv(fd, chunk, sizeof chunk, 0);
        if (received <= 0)
            fail("the reply body was cut short");
        reply.append(chunk, static_cast<std::size_t>(received));
    }
}

std::string smallRequest(const Path &path)
{
    return "GET / HTTP/1.1\r\nHost: " + path.targetText + "\r\n\r\n";
}

void measureThroughput(const Path &path, std::uint64_t bytes)
{
    const UniqueFd socket = openPath(path);
    const Pipe drain = makePipe(drainPipeBytes, false);
    const UniqueFd devNull(open("/dev/null", O_WRONLY | O_CLOEXEC));
    if (!devNull)
        failWithErrno("/dev/null");

    const auto start = Clock::now();
    const std::string request = "GET /bytes/" + std::to_string(bytes) +
                                " HTTP/1.1\r\nHost: " + path.targetText + "\r\n\r\n";
    if (!sendAll(socket.get(), request))
        failWithErrno("sending the request");
    std::string reply;
    const auto length = readHead(socket.get(), reply);
    if (!length || statusCode(reply) != 200 ||
        contentLength(std::string_view(reply).substr(0, *length)) != bytes)
        fail("the upstream's reply head is wrong");
    std::uint64_t received = reply.size() - *length;
    while (received < bytes) {
        const auto wanted = std::min<std::uint64_t>(bytes - received, drain.capacity);
        const ssize_t moved = splice(socket.get(), nullptr, drain.writeEnd.get(), nullptr,
                                     static_cast<std::size_t>(wanted), SPLICE_F_MOVE);
        if (moved < 0 && errno == EINTR)
            continue;
        if (moved < 0)
            failWithErrno("receiving");
        if (moved == 0)
            fail("the stream ended after " + std::to_string(received) + " bytes");
        for (ssize_t left = moved; left > 0;) {
            const ssize_t dropped = splice(drain.readEnd.get(), nullptr, devNull.get(), nullptr,
                                           static_cast<std::size_t>(left), SPLICE_F_MOVE);
            if (dropped <= 0)
                failWithErrno("draining into /dev/null");
            left -= dropped;
        }
        received += static_cast<std::uint64_t>(moved);
    }
    const std::chrono::duration<double> seconds = Clock::now() - start;
    std::printf("{\"mode\":\"throughput\",\"bytes\":%llu,\"seconds\":%.9f}\n",
                static_cast<unsigned long long>(bytes), seconds.count());
}

void measureLatency(const Path &path, std::uint64_t count)
{
    const std::string request = smallRequest(path);
    std::vector<long long> samples;
    samples.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto start = Clock::now();
        {
            const UniqueFd socket = openPath(path);
            exchange(socket.get(), request);
        }
        samples.push_back(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    }
    std::string json = "{\"mode\":\"latency\",\"samples_ns\":[";
    for (std::size_t i = 0; i < samples.size(); ++i)
        json += (i ? "," : "") + std::to_string(samples[i]);
    json += "]}\n";
    std::fputs(json.c_str(), stdout);
}

void measureRate(const Path &path, std::uint64_t count, std::uint64_t parallel)
{
    const std::string request = smallRequest(path);
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (std::uint64_t t = 0; t < parallel; ++t) {
        const std::uint64_t share = count / parallel + (t < count % parallel ? 1 : 0);
        threads.emplace_back([&path, &request, share] {
            for (std::uint64_t i = 0; i < share; ++i) {
                const UniqueFd socket = openPath(path);
                exchange(socket.get(), request);
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    const std::chrono::duration<double> seconds = Clock::now() - start;
    std::printf("{\"mode\":\"rate\",\"requests\":%llu,\"parallel\":%llu,\"seconds\":%.9f}\n",
                static_cast<unsigned long long>(count), static_cast<unsigned long long>(parallel),
                seconds.count());
}

void holdTunnels(const Path &path, std::uint64_t count)
{
    raiseFileLimit();
    const std::string request = smallRequest(path);
    std::vector<UniqueFd> tunnels;
    tunnels.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        tunnels.push_back(openPath(path));
        exchange(tunnels.back().get(), request);
    }
    std::printf("{\"mode\":\"hold\",\"held\":%zu}\n", tunnels.size());
    std::fflush(stdout);
    char ignored[64];
    for (;;) {
        const ssize_t received = read(STDIN_FILENO, ignored, sizeof ignored);
        if (received == 0 || (received < 0 && errno != EINTR))
            break;
    }
}

[[noreturn]] void usage(int status)
{
    std::fputs("usage: egress-bench-client MODE --target ADDR:PORT [--proxy ADDR:PORT] [options]\n"
               "  throughput --bytes N   GET /bytes/N through one tunnel, timed\n"
               "  latency    --count K   K new tunnels, each with one small request, each timed\n"
               "  rate       --count K [--parallel P]  the same K requests from P threads, timed\n"
               "  hold       --count N   open N tunnels, then keep them idle until stdin closes\n"
               "Without --proxy the client connects to the target directly. Prints one JSON\n"
               "object on stdout.\n",
               status == 0 ? stdout : stderr);
    std::exit(status);
}

Options parseOptions(int argc, char **argv)
{
    if (argc < 2)
        usage(2);
    Options options;
    options.mode = argv[1];
    if (options.mode == "--help")
        usage(0);
    for (int i = 2; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--help")
            usage(0);
        if (i + 1 >= argc)
            usage(2);
        const std::string value = argv[++i];
        if (argument == "--target") {
            options.target = value;
        } else if (argument == "--proxy") {
            options.proxy = value;
        } else if (argument == "--bytes" || argument == "--count" || argument == "--parallel") {
            const auto number = parseNumber(value);
            if (!number)
                usage(2);
            (argument == "--bytes"   ? options.bytes
             : argument == "--count" ? options.count
                                     : options.parallel) = *number;
        } else {
            usage(2);
        }
    }
    return options;
}

} // namespace

int main(int argc, char **argv)
{
    const Options options = parseOptions(argc, argv);
    const auto target = parseEndpoint(options.target);
    const auto proxy = options.proxy ? parseEndpoint(*options.proxy) : std::nullopt;
    if (!target || (options.proxy && !proxy))
        fail("egress-bench-client: --target and --proxy take a numeric ADDR:PORT");
    const Path path{*target, options.target, proxy};

    if (options.mode == "throughput" && options.bytes > 0)
        measureThroughput(path, options.bytes);
    else if (options.mode == "latency" && options.count > 0)
        measureLatency(path, options.count);
    else if (options.mode == "rate" && options.count > 0 && options.parallel > 0)
        measureRate(path, options.count, options.parallel);
    else if (options.mode == "hold" && options.count > 0)
        holdTunnels(path, options.count);
    else
        usage(2);
    return 0;
}
