#pragma once

// The boot steps of PID 1: kernel filesystems, modules, the switch into the
// read-only runtime image, the shared home and the agent's account.

#include <chrono>
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace arizuko::guest::boot {

// /proc, /sys and /dev (devtmpfs) in the initramfs, and the console as
// stdin/stdout/stderr.
void mountKernelFilesystems();

// Loads every module the initramfs carries, in dependency order.
void loadKernelModules(const std::string &modulesDir);

// Mounts `device` (ext4) read-only and makes it the root, with /proc, /sys
// and /dev moved along and fresh tmpfs on /tmp, /run and /dev/shm.
void switchToRuntimeRoot(const std::string &device, std::chrono::milliseconds waitForDevice);

// The folder's home, shared by the host over virtio-9p with tag `tag`.
void mountHome(const std::string &tag, const std::string &target);

// A fresh, empty tmpfs at `target` owned by the agent: the home of an agent
// started before its turn's spec (the VM's own; nothing of any folder).
// The folder's home is mounted over it once the spec comes.
void mountScratchHome(const std::string &target, std::uint32_t uid, std::uint32_t gid);
// Lazily unmounts what is mounted at `target` (the scratch home of an agent
// that was not used).
void unmount(const std::string &target);

// /run/passwd and /run/group (the image's /etc files point there), so the
// agent's uid has a name and a home.
// <skillsRoot>/.claude/skills -> <home>/skills, on the VM's own /run: the
// home keeps the folder's layout and nothing is written into it.
void linkSkills(const std::string &skillsRoot, const std::string &home);

void writeAccountFiles(std::uint32_t uid, std::uint32_t gid, const std::string &home,
                       const std::string &shell);

// The turn's CA (inspected hosts): written alone to `turnCa`, and appended
// to a copy of the system bundle on /run that is bind-mounted over
// `caBundle`, so every program that reads the system store trusts it.
void trustTurnCa(const std::string &pem, const std::string &caBundle, const std::string &turnCa);

std::string readFile(const std::string &path);
// Creates or truncates `path` with `content`.
void writeFile(const std::string &path, const std::string &content, mode_t mode);
// One directory; one that exists already is fine.
void makeDirectory(const std::string &path, mode_t mode);
std::string kernelRelease();
std::int64_t uptimeMs();

// A line on the serial console (the turn's console log).
void consoleLog(const std::string &line);

} // namespace arizuko::guest::boot
