#pragma once

// An eventfd a worker thread rings to wake the event loop.

#include "posix/unique_fd.h"

namespace arizuko::egress {

class WakeupFd
{
public:
    WakeupFd();

    int fd() const { return fd_.get(); }
    // Safe from any thread.
    void notify() const;
    // Clears the pending wake-ups.
    void drain() const;

private:
    posix::UniqueFd fd_;
};

} // namespace arizuko::egress
