#include "list_loader.hpp"

#include "config.hpp"
#include "wakeup_fd.hpp"

#include <mutex>
#include <thread>
#include <utility>

namespace arizuko::egress {
namespace {

Expected<ListLoader::Lists> readLists(const std::optional<std::string> &allowFile,
                                      const std::optional<std::string> &denyFile,
                                      const std::optional<std::string> &ruleFile)
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
    if (ruleFile) {
        if (auto added = loadRuleFile(*ruleFile, lists.rules); !added)
            return Failure{added.error()};
    }
    return lists;
}

} // namespace

struct ListLoader::Shared
{
    std::mutex mutex;
    std::optional<Expected<Lists>> result;
    WakeupFd ready;
};

ListLoader::ListLoader(std::optional<std::string> allowFile, std::optional<std::string> denyFile,
                       std::optional<std::string> ruleFile)
    : shared_(std::make_shared<Shared>())
{
    std::thread([shared = shared_, allowFile = std::move(allowFile), denyFile = std::move(denyFile),
                 ruleFile = std::move(ruleFile)] {
        auto lists = readLists(allowFile, denyFile, ruleFile);
        std::lock_guard lock(shared->mutex);
        shared->result.emplace(std::move(lists));
        shared->ready.notify();
    }).detach();
}

int ListLoader::readyFd() const
{
    return shared_->ready.fd();
}

std::optional<Expected<ListLoader::Lists>> ListLoader::take()
{
    shared_->ready.drain();
    std::lock_guard lock(shared_->mutex);
    return std::exchange(shared_->result, std::nullopt);
}

} // namespace arizuko::egress
