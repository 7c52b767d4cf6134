#include "boot.h"

#include "module_order.h"
#include "system_error.h"
#include "posix/unique_fd.h"

#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace arizuko::guest::boot {
namespace {

void mountFilesystem(const std::string &source, const std::string &target, const char *type,
                     unsigned long flags, const std::string &options = {})
{
    if (::mount(source.c_str(), target.c_str(), type, flags,
                options.empty() ? nullptr : options.c_str()) != 0)
        throwErrno("mount " + source + " on " + target);
}

void loadModule(const std::string &path)
{
    const posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd)
        throwErrno("open module " + path);
    if (::syscall(SYS_finit_module, fd.get(), "", 0) != 0 && errno != EEXIST)
        throwErrno("load module " + path);
}

} // namespace

void makeDirectory(const std::string &path, mode_t mode)
{
    if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST)
        throwErrno("mkdir " + path);
}

void writeFile(const std::string &path, const std::string &content, mode_t mode)
{
    const posix::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode));
    if (!fd)
        throwErrno("create " + path);
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd.get(), content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throwErrno("write " + path);
        written += static_cast<std::size_t>(n);
    }
}

void mountKernelFilesystems()
{
    makeDirectory("/proc", 0555);
    makeDirectory("/sys", 0555);
    makeDirectory("/dev", 0755);
    mountFilesystem("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC);
    mountFilesystem("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC);
    mountFilesystem("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
    // The initramfs has no /dev/console, so the kernel started us without
    // standard streams; the console exists now.
    const int console = ::open("/dev/console", O_RDWR | O_NOCTTY);
    if (console >= 0) {
        for (int stream = 0; stream <= 2; ++stream)
            ::dup2(console, stream);
        if (console > 2)
            ::close(console);
    }
}

void loadKernelModules(const std::string &modulesDir)
{
    const std::vector<ModuleEntry> modules = parseModulesDep(readFile(modulesDir + "/modules.dep"));
    std::vector<std::string> names;
    for (const ModuleEntry &entry : modules)
        names.push_back(moduleName(entry.path));
    for (const std::string &path : moduleLoadOrder(modules, names))
        loadModule(modulesDir + '/' + path);
}

void switchToRuntimeRoot(const std::string &device, std::chrono::milliseconds waitForDevice)
{
    const auto giveUp = std::chrono::steady_clock::now() + waitForDevice;
    struct stat status
    {
    };
    while (::stat(device.c_str(), &status) != 0) {
        if (std::chrono::steady_clock::now() >= giveUp)
            throw GuestError("the runtime image " + device +
                             " did not appear; is root.img "
                             "attached as the first virtio disk?");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const std::string newRoot = "/sysroot";
    makeDirectory(newRoot, 0755);
    mountFilesystem(device, newRoot, "ext4", MS_RDONLY | MS_NODEV | MS_NOATIME);
    for (const char *kernelFs : {"/proc", "/sys", "/dev"})
        mountFilesystem(kernelFs, newRoot + kernelFs, nullptr, MS_MOVE);
    // The initramfs is rootfs, which cannot be pivoted away: move the new
    // root over it and enter it, as switch_root does.
    if (::chdir(newRoot.c_str()) != 0)
        throwErrno("chdir " + newRoot);
    mountFilesystem(".", "/", nullptr, MS_MOVE);
    if (::chroot(".") != 0)
        throwErrno("chroot into the runtime image");
    if (::chdir("/") != 0)
        throwErrno("chdir /");
    mountFilesystem("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
    mountFilesystem("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755");
    makeDirectory("/dev/shm", 01777);
    mountFilesystem("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
}

void trustTurnCa(const std::string &pem, const std::string &caBundle, const std::string &turnCa)
{
    writeFile(turnCa, pem, 0644);
    const std::string withTurn = "/run/arizuko-ca-bundle.crt";
    std::string bundle = readFile(caBundle);
    if (!bundle.empty() && bundle.back() != '\n')
        bundle += '\n';
    writeFile(withTurn, bundle + pem, 0644);
    mountFilesystem(withTurn, caBundle, nullptr, MS_BIND);
}

void mountHome(const std::string &tag, const std::string &target)
{
    mountFilesystem(tag, target, "9p", MS_NOSUID | MS_NODEV,
                    "trans=virtio,version=9p2000.L,msize=262144");
}

void mountScratchHome(const std::string &target, std::uint32_t uid, std::uint32_t gid)
{
    // Small: what Claude Code writes at its start (~/.claude.json, an
    // empty ~/.claude) is a few KiB.
    mountFilesystem("agent-scratch", target, "tmpfs", MS_NOSUID | MS_NODEV,
                    "size=64m,mode=0700,uid=" + std::to_string(uid) +
                        ",gid=" + std::to_string(gid));
}

void unmount(const std::string &target)
{
    if (::umount2(target.c_str(), MNT_DETACH) != 0)
        throwErrno("unmount " + target);
}

void linkSkills(const std::string &skillsRoot, const std::string &home)
{
    makeDirectory(skillsRoot, 0755);
    makeDirectory(skillsRoot + "/.claude", 0755);
    const std::string link = skillsRoot + "/.claude/skills";
    if (::symlink((home + "/skills").c_str(), link.c_str()) != 0 && errno != EEXIST)
        throwErrno("symlink " + link);
}

void writeAccountFiles(std::uint32_t uid, std::uint32_t gid, const std::string &home,
                       const std::string &shell)
{
    const std::string agentUid = std::to_string(uid);
    const std::string agentGid = std::to_string(gid);
    const std::string agentEntry =
        "agent:x:" + agentUid + ':' + agentGid + ":agent:" + home + ':' + shell + '\n';
    writeFile("/run/passwd", "root:x:0:0:root:/root:/bin/sh\n" + agentEntry, 0644);
    writeFile("/run/group", "root:x:0:\nagent:x:" + agentGid + ":\n", 0644);
}

std::string readFile(const std::string &path)
{
    const posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd)
        throwErrno("open " + path);
    std::string content;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throwErrno("read " + path);
        if (n == 0)
            return content;
        content.append(buffer, static_cast<std::size_t>(n));
    }
}

std::string kernelRelease()
{
    struct utsname name
    {
    };
    ::uname(&name);
    return name.release;
}

std::int64_t uptimeMs()
{
    timespec now{};
    ::clock_gettime(CLOCK_BOOTTIME, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

void consoleLog(const std::string &line)
{
    const std::string text = "arizuko-guest: " + line + '\n';
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text.data(), text.size());
}

} // namespace arizuko::guest::boot
