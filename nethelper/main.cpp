// arizuko-net-helper: the few network steps of a fast (pretap) turn start
// that need CAP_NET_ADMIN, for an engine that runs as a normal user. It holds
// that one capability (a file capability, set by ./dev setup for the build
// tree and by the package), and is built the way qemu-bridge-helper is: every
// argument is checked, nothing goes through a shell, anything else is refused.
//
//   tap-create TAP OWNER     a tap for this app's VM, owned by the caller
//   tap-attach TAP BRIDGE    the caller's tap onto a turn's bridge
//   tap-delete TAP           the caller's tap, gone
//   conntrack-flush BRIDGE   forgets the tracked flows of the bridge's guest
//   filter-rules TABLE       prints iptables -S, ip6tables -S or ebtables -t nat -L
//   check                    exits 0 when the caller may use the helper and it works
//
// TAP is az-<8 hex>-g, BRIDGE az-<8 hex> (a turn's, with its /30 on it),
// OWNER an engine's "pid:starttime" (both decimal, as /proc writes them). Only
// root and members of group libvirt (who already manage every VM and network
// through libvirt) may call it; the package installs it root:libvirt 0750, so
// nobody else can even run it. docs/security-model.md says what it allows and why.

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <limits>
#include <linux/capability.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <optional>
#include <regex>
#include <string>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int exitRefused = 2;
constexpr int exitFailed = 1;

[[noreturn]] void refuse(const std::string &why)
{
    std::fprintf(stderr, "arizuko-net-helper: %s\n", why.c_str());
    std::exit(exitRefused);
}

bool matches(const std::string &text, const char *pattern)
{
    return std::regex_match(text, std::regex(pattern));
}

std::string tapArgument(const std::string &tap)
{
    if (!matches(tap, "az-[0-9a-f]{8}-g"))
        refuse("'" + tap + "' is not a turn's tap name (az-<8 hex digits>-g)");
    return tap;
}

std::string bridgeArgument(const std::string &bridge)
{
    if (!matches(bridge, "az-[0-9a-f]{8}"))
        refuse("'" + bridge + "' is not a turn's bridge name (az-<8 hex digits>)");
    struct stat info
    {
    };
    if (::stat(("/sys/class/net/" + bridge + "/bridge").c_str(), &info) != 0)
        refuse("there is no bridge " + bridge);
    return bridge;
}

// The caller may use the helper: root, or a member of group libvirt.
void checkCaller()
{
    if (::getuid() == 0)
        return;
    const group *libvirt = ::getgrnam("libvirt");
    if (!libvirt)
        refuse("there is no group libvirt on this host");
    if (::getgid() == libvirt->gr_gid)
        return;
    const int count = ::getgroups(0, nullptr);
    std::vector<gid_t> groups(count > 0 ? size_t(count) : 0);
    if (count > 0 && ::getgroups(count, groups.data()) == count) {
        for (const gid_t group : groups) {
            if (group == libvirt->gr_gid)
                return;
        }
    }
    refuse("only members of group libvirt may use this helper");
}

// The tap exists and its tun owner is the caller.
void checkTapIsCallers(const std::string &tap)
{
    std::ifstream owner("/sys/class/net/" + tap + "/owner");
    long uid = -2;
    if (!(owner >> uid))
        refuse("there is no tap " + tap);
    if (uid != long(::getuid()))
        refuse("the tap " + tap + " is not yours");
}

// Makes CAP_NET_ADMIN ambient, so the one program run next holds it too.
void passCapabilityOn()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0)
        refuse(std::string("cannot read my capabilities: ") + std::strerror(errno));
    if (!(data[0].permitted & (1U << CAP_NET_ADMIN)))
        refuse("this helper lacks CAP_NET_ADMIN (set it: setcap cap_net_admin+ep <helper>)");
    data[0].inheritable |= 1U << CAP_NET_ADMIN;
    data[0].effective |= 1U << CAP_NET_ADMIN;
    if (::syscall(SYS_capset, &header, data) != 0 ||
        ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) != 0)
        refuse(std::string("cannot pass CAP_NET_ADMIN on: ") + std::strerror(errno));
}

// The first of `candidates` that exists: programs by absolute path only.
std::string program(std::initializer_list<const char *> candidates)
{
    for (const char *candidate : candidates) {
        if (::access(candidate, X_OK) == 0)
            return candidate;
    }
    refuse(std::string("cannot find ") + *candidates.begin());
}

// Runs the program with a fixed environment and waits; its exit status.
int run(const std::string &path, const std::vector<std::string> &arguments)
{
    std::vector<char *> argv{const_cast<char *>(path.c_str())};
    for (const std::string &argument : arguments)
        argv.push_back(const_cast<char *>(argument.c_str()));
    argv.push_back(nullptr);
    char path_variable[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
    char locale[] = "LC_ALL=C";
    char *environment[] = {path_variable, locale, nullptr};
    const pid_t child = ::fork();
    if (child < 0)
        refuse(std::string("fork: ") + std::strerror(errno));
    if (child == 0) {
        ::execve(path.c_str(), argv.data(), environment);
        std::fprintf(stderr, "arizuko-net-helper: cannot run %s: %s\n", path.c_str(),
                     std::strerror(errno));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : exitFailed;
}

std::string ip()
{
    return program({"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"});
}

// A decimal as /proc writes it: digits only, no sign, space or leading zero,
// at most `maximum`. Anything else is no number.
std::optional<unsigned long long> decimal(const std::string &text, unsigned long long maximum)
{
    if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0'))
        return std::nullopt;
    unsigned long long value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        const unsigned digit = unsigned(c - '0');
        if (value > (maximum - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

// An engine's mark, "pid:starttime": a pid the kernel can hand out (1 to
// PID_MAX_LIMIT) and a start time in clock ticks, each exactly as /proc
// writes it, the whole argument and nothing more.
std::string ownerArgument(const std::string &owner)
{
    constexpr unsigned long long pidMaxLimit = 4194304; // 2^22, linux/threads.h
    const size_t colon = owner.find(':');
    const auto pid =
        colon == std::string::npos ? std::nullopt : decimal(owner.substr(0, colon), pidMaxLimit);
    const auto start =
        pid ? decimal(owner.substr(colon + 1), std::numeric_limits<unsigned long long>::max())
            : std::nullopt;
    if (!pid || *pid == 0 || !start)
        refuse("'" + owner + "' is not an engine's pid:starttime");
    return owner;
}

// Makes the tap in one step that fails when any device of that name exists
// (IFF_TUN_EXCL: the kernel checks and creates under one lock), so a device
// made meanwhile by someone else is never taken over, marked or deleted. The
// tap stays attached to our descriptor until it is marked: nobody else can
// attach to it, so nobody but root can delete and replace it meanwhile, and
// a failure deletes exactly the tap made here (persistence off, then close).
int tapCreate(const std::string &tap, const std::string &owner)
{
    const int tun = ::open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (tun < 0)
        refuse(std::string("cannot open /dev/net/tun: ") + std::strerror(errno));
    ifreq request{};
    std::strncpy(request.ifr_name, tap.c_str(), IFNAMSIZ - 1);
    // What `ip tuntap add mode tap vnet_hdr` asks for: libvirt opens the tap
    // for a virtio NIC with IFF_VNET_HDR, and the kernel refuses that on a
    // tap made without it.
    request.ifr_flags = static_cast<short>(IFF_TAP | IFF_NO_PI | IFF_VNET_HDR | IFF_TUN_EXCL);
    if (::ioctl(tun, TUNSETIFF, &request) != 0) {
        if (errno == EBUSY || errno == EEXIST)
            refuse("a device " + tap + " exists already");
        refuse("cannot make the tap " + tap + ": " + std::strerror(errno));
    }
    if (tap != request.ifr_name)
        refuse("the kernel named the tap " + std::string(request.ifr_name) + ", not " + tap);
    int status = exitFailed;
    if (::ioctl(tun, TUNSETOWNER, static_cast<unsigned long>(::getuid())) == 0 &&
        ::ioctl(tun, TUNSETPERSIST, 1) == 0)
        status = run(ip(), {"link", "set", "dev", tap, "alias", "arizuko-engine=" + owner, "up"});
    else
        std::fprintf(stderr, "arizuko-net-helper: cannot give %s to the caller: %s\n", tap.c_str(),
                     std::strerror(errno));
    if (status != 0)
        (void)::ioctl(tun, TUNSETPERSIST, 0);
    ::close(tun);
    return status;
}

// The guest's address on a turn's bridge: the other host of its /30.
std::string guestAddressOf(const std::string &bridge)
{
    const int socket = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq request{};
    std::strncpy(request.ifr_name, bridge.c_str(), IFNAMSIZ - 1);
    if (socket < 0 || ::ioctl(socket, SIOCGIFADDR, &request) != 0)
        refuse("the bridge " + bridge + " has no IPv4 address");
    const in_addr_t host =
        ntohl(reinterpret_cast<sockaddr_in *>(&request.ifr_addr)->sin_addr.s_addr);
    if (::ioctl(socket, SIOCGIFNETMASK, &request) != 0)
        refuse("cannot read the netmask of " + bridge);
    const in_addr_t mask =
        ntohl(reinterpret_cast<sockaddr_in *>(&request.ifr_netmask)->sin_addr.s_addr);
    ::close(socket);
    if (mask != 0xfffffffcU || (host & 3U) != 1U)
        refuse("the bridge " + bridge + " is not a turn's (host .1 of a /30)");
    in_addr guest{htonl(host + 1)};
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &guest, text, sizeof text);
    return text;
}

int conntrackFlush(const std::string &bridge)
{
    const std::string guest = guestAddressOf(bridge);
    const std::string conntrack = program({"/usr/sbin/conntrack", "/sbin/conntrack"});
    // conntrack exits 1 when there was nothing to delete.
    for (const char *direction : {"--orig-src", "--orig-dst"}) {
        const int status = run(conntrack, {"-D", direction, guest});
        if (status != 0 && status != 1)
            return status;
    }
    return 0;
}

int filterRules(const std::string &table)
{
    if (table == "iptables")
        return run(program({"/usr/sbin/iptables", "/sbin/iptables"}), {"-S"});
    if (table == "ip6tables")
        return run(program({"/usr/sbin/ip6tables", "/sbin/ip6tables"}), {"-S"});
    if (table == "ebtables")
        return run(program({"/usr/sbin/ebtables", "/sbin/ebtables"}), {"-t", "nat", "-L"});
    refuse("'" + table + "' is not one of iptables, ip6tables, ebtables");
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    const auto expect = [&](size_t count) {
        if (arguments.size() != count + 1)
            refuse("'" + arguments[0] + "' takes " + std::to_string(count) + " argument(s)");
    };
    if (arguments.empty())
        refuse("usage: arizuko-net-helper tap-create TAP OWNER | tap-attach TAP BRIDGE | "
               "tap-delete TAP | conntrack-flush BRIDGE | filter-rules TABLE | check");
    checkCaller();
    passCapabilityOn();
    const std::string &verb = arguments[0];
    if (verb == "check") {
        expect(0);
        return 0;
    }
    if (verb == "tap-create") {
        expect(2);
        return tapCreate(tapArgument(arguments[1]), ownerArgument(arguments[2]));
    }
    if (verb == "tap-attach") {
        expect(2);
        const std::string tap = tapArgument(arguments[1]);
        const std::string bridge = bridgeArgument(arguments[2]);
        checkTapIsCallers(tap);
        return run(ip(), {"link", "set", "dev", tap, "master", bridge});
    }
    if (verb == "tap-delete") {
        expect(1);
        const std::string tap = tapArgument(arguments[1]);
        checkTapIsCallers(tap);
        return run(ip(), {"link", "del", "dev", tap});
    }
    if (verb == "conntrack-flush") {
        expect(1);
        return conntrackFlush(bridgeArgument(arguments[1]));
    }
    if (verb == "filter-rules") {
        expect(1);
        return filterRules(arguments[1]);
    }
    refuse("unknown command '" + verb + "'");
}
