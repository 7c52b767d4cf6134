#include "page_cache.h"

#include "boot.h"
#include "posix/unique_fd.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace arizuko::guest::page_cache {
namespace {

// readahead(2) reads at most the device's readahead window or optimal I/O
// size per call, whatever it is asked (force_page_cache_ra): 8 MiB calls
// cached a sixth of the binary. 128 KiB is the kernel's default window; the
// calls only queue I/O, which the block layer merges.
constexpr off_t chunkBytes = off_t{128} << 10;

std::atomic<bool> agentStarted{false};

// setpriority(PRIO_PROCESS, 0) on Linux is the calling thread's nice
// value, so the thread lowers its own, once, when it sees the agent.
void yieldIfAgentStarted(bool &yielded)
{
    if (yielded || !agentStarted.load(std::memory_order_relaxed))
        return;
    yielded = true;
    ::setpriority(PRIO_PROCESS, 0, 19);
    boot::consoleLog("page cache: the agent started; reading on at the lowest priority");
}

void warm(const std::string &path)
{
    const std::int64_t started = boot::uptimeMs();
    const posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat status
    {
    };
    if (!fd || ::fstat(fd.get(), &status) != 0) {
        boot::consoleLog("page cache: cannot open " + path + ": " + std::strerror(errno));
        return;
    }
    bool yielded = false;
    for (off_t offset = 0; offset < status.st_size; offset += chunkBytes) {
        yieldIfAgentStarted(yielded);
        if (::readahead(fd.get(), offset, static_cast<size_t>(chunkBytes)) != 0) {
            boot::consoleLog("page cache: cannot read " + path + ": " + std::strerror(errno));
            return;
        }
    }
    // readahead only queues the reads; the last page, queued last, is in
    // once this returns, so the time logged is the whole read's.
    char lastByte = 0;
    if (status.st_size > 0)
        (void)::pread(fd.get(), &lastByte, 1, status.st_size - 1);
    boot::consoleLog("page cache: " + path + " (" + std::to_string(status.st_size >> 20) +
                     " MiB) read ahead in " + std::to_string(boot::uptimeMs() - started) + " ms");
}

} // namespace

void yieldToAgent()
{
    agentStarted.store(true, std::memory_order_relaxed);
}

void warmInBackground(std::vector<std::string> paths)
{
    if (paths.empty())
        return;
    std::thread([paths = std::move(paths)] {
        for (const std::string &path : paths)
            warm(path);
    }).detach();
}

} // namespace arizuko::guest::page_cache
