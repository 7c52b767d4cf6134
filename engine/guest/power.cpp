#include "power.h"

#include <csignal>
#include <cstring>
#include <sys/reboot.h>
#include <unistd.h>

namespace arizuko::guest::power {
namespace {

void onWatchdog(int)
{
    static const char message[] = "arizuko-guest: watchdog expired, powering off\n";
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
    ::sync();
    ::reboot(RB_POWER_OFF);
    ::_exit(1); // unreachable unless reboot failed; the kernel then panics, which also stops
}

} // namespace

void powerOff()
{
    ::sync();
    ::reboot(RB_POWER_OFF);
    for (;;)
        ::pause();
}

void armWatchdog(unsigned seconds)
{
    struct sigaction action
    {
    };
    action.sa_handler = onWatchdog;
    ::sigemptyset(&action.sa_mask);
    ::sigaction(SIGALRM, &action, nullptr);
    ::alarm(seconds);
}

} // namespace arizuko::guest::power
