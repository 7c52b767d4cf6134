#include "list_loader.hpp"

#include "config.hpp"
#include "unique_fd.hpp"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <sys/eventfd.h>
#include <thread>
#include <utility>

namespace arizuko::egress {
namespace {

Expected<ListLoader::Lists> readLists(const std::optional<std::string> &allowFile,
                                      const std::optional<std::string> &denyFile)
{
    ListLoader::Lists lists;
    if (allowFile) {
        if (auto added = loadListFile(*allowFile, "--allow-file", lists.allow); !added)
            return Failure{added.error()};
    }
    if (denyFile) {
        if (auto added = loadListFile(*denyFile, "--deny-file", lists.deny); !added)
            return Failure{added.error()};
    }
    return lists;
}

} // namespace

struct ListLoader::Shared
{
    std::mutex mutex;
    std::optional<Expected<Lists>> result;
    UniqueFd ready{eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)};
};

ListLoader::ListLoader(std::optional<std::string> allowFile, std::optional<std::string> denyFile)
    : shared_(std::make_shared<Shared>())
{
    if (!shared_->ready)
        throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
    std::thread([shared = shared_, allowFile = std::move(allowFile),
                 denyFile = std::move(denyFile)] {
        auto lists = readLists(allowFile, denyFile);
        std::lock_guard lock(shared->mutex);
        shared->result.emplace(std::move(lists));
        const uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(shared->ready.get(), &one, sizeof(one));
    }).detach();
}

int ListLoader::readyFd() const
{
    return shared_->ready.get();
}

std::optional<Expected<ListLoader::Lists>> ListLoader::take()
{
    uint64_t count = 0;
    [[maybe_unused]] const auto drained = ::read(shared_->ready.get(), &count, sizeof(count));
    std::lock_guard lock(shared_->mutex);
    return std::exchange(shared_->result, std::nullopt);
}

} // namespace arizuko::egress
