#pragma once

// Which kernel modules to load, in which order, from depmod's modules.dep:
// every module comes after the modules it depends on (virtio_ring before
// virtio, netfs before fscache before 9p, ...).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::guest {

class ModuleError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct ModuleEntry
{
    std::string path;                      // relative to /lib/modules/<release>
    std::vector<std::string> dependencies; // paths, as depmod lists them
};

// One entry per line of modules.dep ("path: dep dep ..."); malformed lines
// are errors.
std::vector<ModuleEntry> parseModulesDep(std::string_view text);

// "kernel/fs/9p/9p.ko" -> "9p"; "-" and "_" are the same in module names.
std::string moduleName(std::string_view path);

// The paths to load so that every module in `wanted` (by name) is loaded
// after all it needs, each path once. Unknown names and cycles are errors.
std::vector<std::string> moduleLoadOrder(const std::vector<ModuleEntry> &modules,
                                         const std::vector<std::string> &wanted);

} // namespace arizuko::guest
