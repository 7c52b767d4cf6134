#include "interrupt_notifier.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace arizuko::cli {
namespace {

// The write end for the handler, which may only touch what is async-signal-safe.
volatile sig_atomic_t interruptWriteFd = -1;

void onInterrupt(int)
{
    const int savedErrno = errno;
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(interruptWriteFd, &byte, 1);
    errno = savedErrno;
}

void setHandler(void (*handler)(int))
{
    struct sigaction action = {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

} // namespace

InterruptNotifier::InterruptNotifier(QObject *parent)
    : QObject(parent)
{
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0)
        qFatal("arizukoctl: cannot create the interrupt pipe: %s", strerror(errno));
    m_readEnd.reset(ends[0]);
    m_writeEnd.reset(ends[1]);
    m_notifier = new QSocketNotifier(m_readEnd.get(), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &InterruptNotifier::drain);
    interruptWriteFd = m_writeEnd.get();
    setHandler(onInterrupt);
}

InterruptNotifier::~InterruptNotifier()
{
    setHandler(SIG_DFL);
    interruptWriteFd = -1;
}

void InterruptNotifier::drain()
{
    char bytes[64];
    while (::read(m_readEnd.get(), bytes, sizeof bytes) > 0) {
    }
    emit interrupted();
}

} // namespace arizuko::cli
