#include "turn_channel.h"

#include "boot.h"
#include "posix/unique_fd.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace arizuko::guest {
namespace {

// A turn spec carries the prompt; 8 MiB is far above any real one.
constexpr std::size_t maxHostLineBytes = 8 << 20;

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::optional<std::string> findPortDevice(const std::string &portName)
{
    DIR *directory = ::opendir("/sys/class/virtio-ports");
    if (!directory)
        return std::nullopt;
    std::optional<std::string> device;
    while (const dirent *entry = ::readdir(directory)) {
        const std::string port = entry->d_name;
        if (port.rfind("vport", 0) != 0)
            continue;
        try {
            if (trimmed(boot::readFile("/sys/class/virtio-ports/" + port + "/name")) == portName)
                device = "/dev/" + port;
        } catch (const GuestError &) {
            // A port without a name yet: the host has not announced it.
        }
    }
    ::closedir(directory);
    return device;
}

} // namespace

TurnChannel::TurnChannel(posix::UniqueFd fd)
    : m_fd(std::move(fd))
    , m_framer(maxHostLineBytes)
{}

TurnChannel TurnChannel::open(const std::string &portName, std::chrono::milliseconds wait)
{
    const auto giveUp = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (const auto device = findPortDevice(portName)) {
            posix::UniqueFd fd(::open(device->c_str(), O_RDWR | O_CLOEXEC));
            if (fd)
                return TurnChannel(std::move(fd));
            if (errno != ENOENT)
                throwErrno("open " + *device);
        }
        if (std::chrono::steady_clock::now() >= giveUp)
            throw GuestError("no virtio-serial port named " + portName);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void TurnChannel::send(std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(m_fd.get(), text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throwErrno("write to the turn channel");
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

bool TurnChannel::pump()
{
    pollfd entry{m_fd.get(), POLLIN, 0};
    while (::poll(&entry, 1, 0) > 0) {
        if (!(entry.revents & POLLIN))
            return !(entry.revents & POLLHUP);
        char buffer[65536];
        const ssize_t n = ::read(m_fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throwErrno("read from the turn channel");
        if (n == 0)
            return false; // the host is not connected
        for (LinePiece &piece :
             m_framer.feed(std::string_view(buffer, static_cast<std::size_t>(n)))) {
            if (piece.continued)
                throw GuestError("the host sent a line longer than 8 MiB");
            m_lines.push_back(std::move(piece.text));
        }
    }
    return true;
}

std::optional<std::string> TurnChannel::takeLine()
{
    while (!m_lines.empty()) {
        std::string line = std::move(m_lines.front());
        m_lines.pop_front();
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            return line;
    }
    return std::nullopt;
}

std::optional<std::string> TurnChannel::readLine(std::chrono::steady_clock::time_point deadline)
{
    using namespace std::chrono;
    for (;;) {
        if (auto line = takeLine())
            return line;
        const auto now = steady_clock::now();
        if (now >= deadline)
            return std::nullopt;
        pollfd entry{m_fd.get(), POLLIN, 0};
        const auto wait = duration_cast<milliseconds>(deadline - now).count();
        if (::poll(&entry, 1, static_cast<int>(std::min<long long>(wait + 1, 100))) < 0 &&
            errno != EINTR)
            throwErrno("poll the turn channel");
        // While no host is connected the port reports hang-up at once;
        // the poll cap above keeps that from spinning hard.
        if (!pump())
            std::this_thread::sleep_for(milliseconds(20));
    }
}

} // namespace arizuko::guest
