// PID 1 of a guest that boots and never starts arizuko-guest (the boot-limit
// test's initramfs): it says so in the kernel's log, which the serial console
// shows, and then waits forever without a word on any channel.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int main()
{
    ::mkdir("/dev", 0755);
    ::mount("devtmpfs", "/dev", "devtmpfs", 0, nullptr);
    const int log = ::open("/dev/kmsg", O_WRONLY);
    static const char line[] = "silent-init: this guest never starts arizuko-guest\n";
    for (int i = 0; i < 3 && log >= 0; ++i) {
        (void)!::write(log, line, sizeof line - 1);
        ::sleep(1);
    }
    for (;;)
        ::pause();
}
