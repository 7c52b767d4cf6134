#include "network.h"

#include "system_error.h"
#include "posix/unique_fd.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace arizuko::guest::network {
namespace {

posix::UniqueFd controlSocket()
{
    posix::UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd)
        throwErrno("socket for interface configuration");
    return fd;
}

ifreq requestFor(const std::string &name)
{
    ifreq request{};
    std::strncpy(request.ifr_name, name.c_str(), IFNAMSIZ - 1);
    return request;
}

sockaddr inetAddress(std::uint32_t address)
{
    sockaddr_in inet{};
    inet.sin_family = AF_INET;
    inet.sin_addr.s_addr = htonl(address);
    sockaddr generic{};
    std::memcpy(&generic, &inet, sizeof inet);
    return generic;
}

void setUp(int socket, const std::string &name)
{
    ifreq request = requestFor(name);
    if (::ioctl(socket, SIOCGIFFLAGS, &request) != 0)
        throwErrno("read the flags of " + name);
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(socket, SIOCSIFFLAGS, &request) != 0)
        throwErrno("bring " + name + " up");
}

std::string firstEthernetInterface()
{
    DIR *directory = ::opendir("/sys/class/net");
    if (!directory)
        throwErrno("list /sys/class/net");
    std::vector<std::string> names;
    while (const dirent *entry = ::readdir(directory)) {
        const std::string name = entry->d_name;
        if (name != "." && name != ".." && name != "lo")
            names.push_back(name);
    }
    ::closedir(directory);
    if (names.empty())
        throw GuestError("a network address was given but the VM has no network interface");
    return *std::min_element(names.begin(), names.end());
}

} // namespace

void bringUpLoopback()
{
    const posix::UniqueFd socket = controlSocket();
    setUp(socket.get(), "lo");
}

std::string configure(const Ipv4Interface &settings)
{
    const std::string name = firstEthernetInterface();
    const posix::UniqueFd socket = controlSocket();

    ifreq request = requestFor(name);
    request.ifr_addr = inetAddress(settings.address);
    if (::ioctl(socket.get(), SIOCSIFADDR, &request) != 0)
        throwErrno("set the address of " + name);
    request = requestFor(name);
    request.ifr_netmask = inetAddress(settings.netmask());
    if (::ioctl(socket.get(), SIOCSIFNETMASK, &request) != 0)
        throwErrno("set the netmask of " + name);
    setUp(socket.get(), name);

    rtentry route{};
    route.rt_dst = inetAddress(0);
    route.rt_genmask = inetAddress(0);
    route.rt_gateway = inetAddress(settings.gateway);
    route.rt_flags = RTF_UP | RTF_GATEWAY;
    if (::ioctl(socket.get(), SIOCADDRT, &route) != 0)
        throwErrno("add the default route via " + formatIpv4(settings.gateway));
    return name;
}

void disableIpv6()
{
    // Absent when the kernel has no IPv6; then there is nothing to disable.
    for (const char *path : {"/proc/sys/net/ipv6/conf/all/disable_ipv6",
                             "/proc/sys/net/ipv6/conf/default/disable_ipv6"}) {
        const posix::UniqueFd fd(::open(path, O_WRONLY | O_CLOEXEC));
        if (fd && ::write(fd.get(), "1", 1) != 1)
            throwErrno(std::string("write ") + path);
    }
}

} // namespace arizuko::guest::network
