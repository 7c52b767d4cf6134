// The turn's CA handed to its real arizuko-egress (issue 37): the proxy a
// turn with rules starts reads the certificate and key from fd 3 and turns
// healthy; the key is on neither its command line nor its environment, and
// the engine keeps no copy of the pipe. Rules without the CA are no proxy
// (fail closed), as the engine reports it.

#include "https/turn_authority.h"
#include "turns/egress_proxy.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <unistd.h>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

EgressOptions proxyOptions()
{
    EgressOptions options;
    options.program = QStringLiteral(EGRESS_PROGRAM);
    options.turnName = QStringLiteral("az-1a2b3c4d");
    options.owner = QStringLiteral("test");
    options.listenAddress = QStringLiteral("127.0.0.1:0");
    options.client = QStringLiteral("127.0.0.1");
    options.rules = {QStringLiteral("allow GET inspected.test /ok/**")};
    return options;
}

QByteArray procFile(qint64 pid, const char *name)
{
    QFile file(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(name)));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What a descriptor of this process is ("pipe:[inode]"), as the kernel says.
QString descriptorTarget(const QString &path)
{
    char target[256] = {};
    const ssize_t length = ::readlink(QFile::encodeName(path).constData(), target, sizeof target);
    return length > 0 ? QString::fromLatin1(target, length) : QString();
}

// The pipes this process holds: the engine's copy of the CA pipe must be gone.
QStringList ownPipes()
{
    QStringList pipes;
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString &fd : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        const QString target = descriptorTarget(fds.filePath(fd));
        if (target.startsWith(QLatin1String("pipe:")))
            pipes << target;
    }
    return pipes;
}

} // namespace

class InspectionHandoverTest : public QObject
{
    Q_OBJECT

private slots:
    void theProxyReadsTheCaFromItsDescriptorOnly()
    {
        auto authority = https::makeTurnAuthority({QStringLiteral("az-1a2b3c4d"),
                                                   {QStringLiteral("inspected.test")},
                                                   QDateTime::currentDateTimeUtc().addSecs(3600)});
        QVERIFY2(authority, authority ? "" : qPrintable(authority.error().message));
        auto pipe = authority->proxyBundlePipe();
        QVERIFY(pipe);
        const QString pipeName =
            descriptorTarget(QStringLiteral("/proc/self/fd/%1").arg(pipe->get()));
        QVERIFY2(ownPipes().contains(pipeName), qPrintable(pipeName)); // the search finds it
        EgressOptions options = proxyOptions();
        options.inspectCa = std::make_shared<posix::UniqueFd>(std::move(*pipe));
        EgressProxy proxy(options);
        QSignalSpy healthy(&proxy, &EgressProxy::healthy);
        QSignalSpy failed(&proxy, &EgressProxy::failed);
        proxy.start();
        QVERIFY(healthy.wait(15000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.first().first().value<Error>().message));
        const QByteArray commandLine = procFile(proxy.pid(), "cmdline");
        QVERIFY(commandLine.contains(QByteArray("--inspect-ca-fd\0003\0", 18)));
        QVERIFY(commandLine.contains("allow GET inspected.test /ok/**"));
        for (const char *name : {"cmdline", "environ"})
            QVERIFY2(!procFile(proxy.pid(), name).contains("PRIVATE KEY"), name);
        QVERIFY2(!ownPipes().contains(pipeName), qPrintable(pipeName));
        proxy.stop();
    }

    void rulesWithoutTheCaAreNoProxy()
    {
        EgressProxy proxy(proxyOptions());
        QSignalSpy failed(&proxy, &EgressProxy::failed);
        proxy.start();
        QVERIFY(failed.wait(15000));
        const Error error = failed.first().first().value<Error>();
        QCOMPARE(error.code, QStringLiteral("turns.proxy-unhealthy"));
        QVERIFY2(error.message.contains(QStringLiteral("--inspect-ca-fd")),
                 qPrintable(error.message));
    }
};

QTEST_GUILESS_MAIN(InspectionHandoverTest)
#include "test_inspection_handover.moc"
