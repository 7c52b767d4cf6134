#pragma once
// Socket plumbing shared by the egress benchmark's helper programs: owned
// descriptors, loopback endpoints, pipes and reading an HTTP head.

#include "posix/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <utility>

namespace egress_bench {

using arizuko::posix::UniqueFd;

struct Pipe
{
    UniqueFd readEnd;
    UniqueFd writeEnd;
    std::size_t capacity = 0;
};

// A numeric address and port: "127.0.0.1:80" or "[::1]:80".
struct Endpoint
{
    sockaddr_storage address{};
    socklen_t length = 0;
};

// Prints "<program>: <what>: <strerror(errno)>" and exits 1: the helpers are
// short-lived tools whose caller only needs to see why they stopped.
[[noreturn]] void failWithErrno(std::string_view what);
[[noreturn]] void fail(std::string_view what);

std::optional<Endpoint> parseEndpoint(std::string_view hostPort);
std::string formatEndpoint(const sockaddr_storage &address);

// The benchmark opens thousands of sockets; the soft limit rarely allows it.
void raiseFileLimit();

UniqueFd listenOn(const Endpoint &endpoint, bool nonblocking);
// Tells the caller the bound address the way arizuko-egress does, so the
// script reads every server's address with one parser.
void announceListening(int listenFd);

// Blocking connect; an empty descriptor (errno set) when the peer refuses.
UniqueFd connectTo(const Endpoint &endpoint);
void setNoDelay(int fd);
// wantedCapacity 0 keeps the kernel default; a size the kernel refuses too.
Pipe makePipe(std::size_t wantedCapacity, bool nonblocking);

// Receives into buffer until it holds a complete head. Returns the head's
// length including the blank line, or nothing on EOF, error or a head larger
// than the limit; bytes after the head stay in buffer.
std::optional<std::size_t> readHead(int fd, std::string &buffer);
std::optional<std::size_t> headLength(std::string_view buffer);
bool sendAll(int fd, std::string_view bytes);

int statusCode(std::string_view head);
std::optional<std::uint64_t> contentLength(std::string_view head);
std::optional<std::uint64_t> parseNumber(std::string_view text);

} // namespace egress_bench
