#include "host/kvm_probe.h"

#include <QElapsedTimer>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace arizuko::host {
namespace {

// Exit codes of the probe child, one per step that can fail.
enum ProbeExit : int {
    Halted = 0,
    NoDevice = 10,
    BadApi,
    NoVm,
    NoMemory,
    NoVcpu,
    NoRegisters,
    RunFailed,
    UnexpectedExit,
};

// Runs in the forked child, so it uses only async-signal-safe calls. The
// guest is a single `hlt` at 0x1000 in real mode.
[[noreturn]] void runProbeGuest()
{
    const int kvm = ::open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0)
        _exit(NoDevice);
    if (::ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
        _exit(BadApi);
    const int vm = ::ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm < 0)
        _exit(NoVm);
    // Intel CPUs without unrestricted-guest support need a TSS for real mode.
    ::ioctl(vm, KVM_SET_TSS_ADDR, 0xfffbd000UL);

    constexpr __u64 guestAddress = 0x1000;
    void *memory = ::mmap(nullptr, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
                          0);
    if (memory == MAP_FAILED)
        _exit(NoMemory);
    static_cast<unsigned char *>(memory)[0] = 0xf4; // hlt
    kvm_userspace_memory_region region{};
    region.guest_phys_addr = guestAddress;
    region.memory_size = 0x1000;
    region.userspace_addr = reinterpret_cast<__u64>(memory);
    if (::ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
        _exit(NoMemory);

    const int vcpu = ::ioctl(vm, KVM_CREATE_VCPU, 0);
    const int runSize = ::ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
    if (vcpu < 0 || runSize <= 0)
        _exit(NoVcpu);
    auto *run = static_cast<kvm_run *>(
        ::mmap(nullptr, static_cast<size_t>(runSize), PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0));
    if (run == MAP_FAILED)
        _exit(NoVcpu);

    kvm_sregs sregs{};
    if (::ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
        _exit(NoRegisters);
    sregs.cs.base = 0;
    sregs.cs.selector = 0;
    if (::ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0)
        _exit(NoRegisters);
    kvm_regs regs{};
    regs.rip = guestAddress;
    regs.rflags = 0x2;
    if (::ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
        _exit(NoRegisters);

    if (::ioctl(vcpu, KVM_RUN, 0) < 0)
        _exit(RunFailed);
    _exit(run->exit_reason == KVM_EXIT_HLT ? Halted : UnexpectedExit);
}

QString describeExit(int code)
{
    switch (code) {
    case Halted:
        return QStringLiteral(
            "a test vCPU ran and halted under KVM (a full guest boot is not checked yet)");
    case NoDevice:
        return QStringLiteral("/dev/kvm cannot be opened (%1)")
            .arg(::access("/dev/kvm", F_OK) == 0
                     ? QStringLiteral("permission denied: join the kvm group")
                     : QStringLiteral("no such device"));
    case BadApi:
        return QStringLiteral("/dev/kvm speaks an unexpected API version");
    case NoVm:
        return QStringLiteral("KVM refused to create a VM");
    case NoMemory:
        return QStringLiteral("KVM refused guest memory");
    case NoVcpu:
        return QStringLiteral("KVM refused to create a vCPU");
    case NoRegisters:
        return QStringLiteral("KVM refused to set vCPU registers");
    case RunFailed:
        return QStringLiteral("KVM failed to run a vCPU");
    default:
        return QStringLiteral("a KVM test guest did not halt as expected");
    }
}

} // namespace

KvmProbeResult probeKvm(std::chrono::milliseconds timeout)
{
    // A child process, not a thread: a vCPU stuck inside KVM_RUN can only be
    // stopped reliably by killing its process.
    const pid_t child = ::fork();
    if (child < 0)
        return {false, QStringLiteral("cannot start the KVM probe: %1")
                           .arg(QString::fromLocal8Bit(std::strerror(errno)))};
    if (child == 0)
        runProbeGuest();

    QElapsedTimer clock;
    clock.start();
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(child, &status, WNOHANG);
        if (done == child)
            break;
        if (done < 0 && errno != EINTR)
            return {false, QStringLiteral("lost the KVM probe process")};
        if (clock.elapsed() > timeout.count()) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            return {false, QStringLiteral("a KVM test guest hung for %1 ms (nested or broken KVM)")
                               .arg(timeout.count())};
        }
        QThread::msleep(5);
    }
    if (!WIFEXITED(status))
        return {false, QStringLiteral("the KVM probe crashed")};
    const int code = WEXITSTATUS(status);
    return {code == Halted, describeExit(code)};
}

} // namespace arizuko::host
