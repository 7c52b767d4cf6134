#pragma once

// Reads --allow-file, --deny-file and --rule-file on a thread of its own, so a slow or blocked file
// (a FIFO, a hung network mount) leaves the proxy answering 503 starting instead of hanging.

#include "expected.hpp"
#include "host_matcher.hpp"
#include "request_rules.hpp"

#include <memory>
#include <optional>
#include <string>

namespace arizuko::egress {

class ListLoader
{
public:
    struct Lists
    {
        HostList allow;
        HostList deny;
        RequestRules rules;
    };

    ListLoader(std::optional<std::string> allowFile, std::optional<std::string> denyFile,
               std::optional<std::string> ruleFile);

    // Becomes readable once the lists are read (or failed to be).
    int readyFd() const;
    // The lists or why they could not be read; nothing while the reader is still at work.
    std::optional<Expected<Lists>> take();

private:
    struct Shared;
    // The reader is detached and shares this state: a file that never ends must not block exit.
    std::shared_ptr<Shared> shared_;
};

} // namespace arizuko::egress
