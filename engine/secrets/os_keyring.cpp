#include "secrets/os_keyring.h"

#include "process/run_program.h"

#include <QCoreApplication>
#include <QFile>
#include <QSemaphore>
#include <QThread>
#include <functional>
#include <memory>
#include <qt6keychain/keychain.h>

namespace arizuko::secrets {
namespace {

const QString service = QStringLiteral("arizuko-desktop");
constexpr int answerTimeoutMs = 3000;

struct JobOutcome
{
    bool answered = false;
    QKeychain::Error error = QKeychain::OtherError;
    QString errorText;
    QByteArray data;
};

#if defined(Q_OS_LINUX)
// QtKeychain reaches the keyring over the D-Bus session bus, and Qt's first
// connection to that bus blocks the calling thread until the bus answers,
// with no time limit: a stale or wedged bus would hang the app. So ask the
// bus a trivial question from a child process that can be killed.
QString sessionBusProblem()
{
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") &&
        !QFile::exists(qEnvironmentVariable("XDG_RUNTIME_DIR") + QStringLiteral("/bus")))
        return QStringLiteral("no D-Bus session bus");
    const std::chrono::milliseconds limit(answerTimeoutMs);
    const process::ProgramRun probe = process::runProgram(
        QStringLiteral("dbus-send"),
        {QStringLiteral("--session"), QStringLiteral("--dest=org.freedesktop.DBus"),
         QStringLiteral("--type=method_call"), QStringLiteral("--print-reply"),
         QStringLiteral("/org/freedesktop/DBus"), QStringLiteral("org.freedesktop.DBus.GetId")},
        {limit, limit});
    if (probe.outcome == process::ProgramRun::Outcome::NotStarted)
        return QStringLiteral("dbus-send is not available to check the D-Bus session bus");
    if (probe.outcome == process::ProgramRun::Outcome::TimedOut)
        return QStringLiteral("the D-Bus session bus did not answer within %1 s")
            .arg(answerTimeoutMs / 1000);
    if (!probe.succeeded())
        return QStringLiteral("the D-Bus session bus refused: %1")
            .arg(QString::fromLocal8Bit(probe.err).trimmed());
    return {};
}
#endif

// Why no keyring can answer here without asking one, or empty. Checked once
// per process: the answer does not change while it runs.
QString unavailableReason()
{
    if (!QCoreApplication::instance())
        return QStringLiteral("no Qt application object to run the keyring's thread");
#if defined(Q_OS_LINUX)
    static const QString busProblem = sessionBusProblem();
    return busProblem;
#else
    return {};
#endif
}

// QtKeychain answers through the event loop of the thread its jobs live in,
// and serialises them through an object that lives in the thread of the
// first one. So every job lives in this one thread, started on first use
// and stopped with the application, and a caller waits on a semaphore: it
// runs none of its own events meanwhile (a nested event loop would run the
// caller's timers and re-enter its code while it waits).
QThread *keyringThread()
{
    static QThread *const thread = [] {
        auto *started = new QThread;
        started->setObjectName(QStringLiteral("os-keyring"));
        started->start();
        qAddPostRoutine([] {
            thread->quit();
            // A job the keyring never answers may hold the thread; it is
            // left to the process's end rather than waited for.
            if (thread->wait(answerTimeoutMs))
                delete thread;
        });
        return started;
    }();
    return thread;
}

struct PendingJob
{
    QSemaphore answered;
    JobOutcome outcome;
};

// Runs the job `makeJob` creates (in the keyring thread) and waits at most
// answerTimeoutMs for its answer. A job that does not answer is left to
// delete itself whenever it finishes; its answer then goes nowhere.
JobOutcome run(std::function<QKeychain::Job *()> makeJob)
{
    auto pending = std::make_shared<PendingJob>();
    auto *context = new QObject;
    context->moveToThread(keyringThread());
    QMetaObject::invokeMethod(
        context,
        [context, pending, makeJob = std::move(makeJob)] {
            QKeychain::Job *job = makeJob();
            QObject::connect(job, &QKeychain::Job::finished, context,
                             [context, pending](QKeychain::Job *finished) {
                                 pending->outcome.answered = true;
                                 pending->outcome.error = finished->error();
                                 pending->outcome.errorText = finished->errorString();
                                 if (auto *read =
                                         qobject_cast<QKeychain::ReadPasswordJob *>(finished))
                                     pending->outcome.data = read->binaryData();
                                 context->deleteLater();
                                 pending->answered.release();
                             });
            job->setAutoDelete(true);
            job->start();
        },
        Qt::QueuedConnection);
    if (pending->answered.tryAcquire(1, answerTimeoutMs))
        return pending->outcome;
    JobOutcome silent;
    silent.errorText =
        QStringLiteral("the keyring did not answer within %1 s").arg(answerTimeoutMs / 1000);
    return silent;
}

JobOutcome read(const QString &entry)
{
    return run([entry] {
        auto *job = new QKeychain::ReadPasswordJob(service);
        job->setKey(entry);
        return job;
    });
}

Error keyringError(const QString &what, const JobOutcome &outcome)
{
    return makeError(QStringLiteral("secrets.keyring"),
                     QStringLiteral("%1: %2").arg(what, outcome.errorText));
}

} // namespace

OsKeyring::OsKeyring(const QString &dataDir)
    : m_entry(QStringLiteral("master-keys %1").arg(dataDir))
{}

QString OsKeyring::description() const
{
    return QStringLiteral("OS keyring (service '%1', entry '%2')").arg(service, m_entry);
}

OsKeyring::Probe OsKeyring::probe()
{
    if (const QString reason = unavailableReason(); !reason.isEmpty())
        return {false, reason};
    const JobOutcome outcome = read(m_entry);
    if (!outcome.answered)
        return {false, outcome.errorText};
    if (outcome.error == QKeychain::NoError || outcome.error == QKeychain::EntryNotFound)
        return {true, {}};
    return {false, outcome.errorText};
}

Result<std::optional<KeyRing>> OsKeyring::load()
{
    if (const QString reason = unavailableReason(); !reason.isEmpty())
        return makeError(QStringLiteral("secrets.keyring"),
                         QStringLiteral("the OS keyring is unavailable: %1").arg(reason));
    const JobOutcome outcome = read(m_entry);
    if (outcome.answered && outcome.error == QKeychain::EntryNotFound)
        return std::optional<KeyRing>();
    if (!outcome.answered || outcome.error != QKeychain::NoError)
        return keyringError(QStringLiteral("cannot read the master keys from the OS keyring"),
                            outcome);
    Result<KeyRing> ring = KeyRing::parse(outcome.data);
    if (!ring)
        return ring.error();
    return std::optional<KeyRing>(std::move(ring).value());
}

Result<void> OsKeyring::write(const KeyRing &ring)
{
    const JobOutcome outcome = run([entry = m_entry, data = ring.serialize()] {
        auto *job = new QKeychain::WritePasswordJob(service);
        job->setKey(entry);
        job->setBinaryData(data);
        return job;
    });
    if (!outcome.answered || outcome.error != QKeychain::NoError)
        return keyringError(QStringLiteral("cannot store the master keys in the OS keyring"),
                            outcome);
    return {};
}

} // namespace arizuko::secrets
