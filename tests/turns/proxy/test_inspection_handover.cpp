// The turn's CA handed to its real arizuko-egress (issue 37): the proxy a
// turn with rules starts reads the certificate and key from fd 3 and turns
// healthy; the key is on neither its command line nor its environment, and
// the engine keeps no copy of the pipe. Rules without the CA are no proxy
// (fail closed), as the engine reports it. Likewise the turn's bound
// secrets on fd 4: the proxy reads them and closes the descriptor, the
// values and placeholders are on neither its command line nor its
// environment, and a binding it cannot read is no proxy.

#include "https/turn_authority.h"
#include "posix/filled_pipe.h"
#include "turns/bound_secrets.h"
#include "turns/egress_proxy.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
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

// Starts `proxy`: empty once it is healthy, else why not.
QString startHealthy(EgressProxy &proxy)
{
    QSignalSpy healthy(&proxy, &EgressProxy::healthy);
    QSignalSpy failed(&proxy, &EgressProxy::failed);
    proxy.start();
    if (healthy.wait(15000))
        return {};
    return failed.isEmpty() ? QStringLiteral("neither healthy nor failed in 15 s")
                            : failed.first().first().value<Error>().message;
}

// The pipes a process holds.
QStringList pipesOf(const QString &process)
{
    QStringList pipes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(process));
    for (const QString &fd : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        const QString target = descriptorTarget(fds.filePath(fd));
        if (target.startsWith(QLatin1String("pipe:")))
            pipes << target;
    }
    return pipes;
}

// The pipes this process holds: the engine's copy of the CA pipe must be gone.
QStringList ownPipes()
{
    return pipesOf(QStringLiteral("self"));
}

std::shared_ptr<posix::UniqueFd> caPipe()
{
    auto authority =
        https::makeTurnAuthority({QStringLiteral("az-1a2b3c4d"),
                                  {QStringLiteral("inspected.test"), QStringLiteral("bound.test")},
                                  QDateTime::currentDateTimeUtc().addSecs(3600)});
    if (!authority)
        qFatal("no CA: %s", qPrintable(authority.error().message));
    auto pipe = authority->proxyBundlePipe();
    if (!pipe)
        qFatal("no pipe");
    return std::make_shared<posix::UniqueFd>(std::move(*pipe));
}

std::shared_ptr<posix::UniqueFd> secretsPipe(const QByteArray &lines)
{
    std::string error;
    posix::UniqueFd pipe =
        posix::filledPipe(std::string_view(lines.constData(), size_t(lines.size())), error);
    if (!pipe)
        qFatal("no pipe: %s", error.c_str());
    return std::make_shared<posix::UniqueFd>(std::move(pipe));
}

BoundSecret boundToken()
{
    secrets::SecretBinding binding;
    binding.key = QStringLiteral("TOKEN");
    binding.hosts = {QStringLiteral("bound.test")};
    binding.placement = {false, QStringLiteral("Authorization"), QStringLiteral("Bearer {}")};
    return {binding, "handover-value-5d1f0e", makeSecretPlaceholder()};
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
        const QString unhealthy = startHealthy(proxy);
        QVERIFY2(unhealthy.isEmpty(), qPrintable(unhealthy));
        const QByteArray commandLine = procFile(proxy.pid(), "cmdline");
        QVERIFY(commandLine.contains(QByteArray("--inspect-ca-fd\0003\0", 18)));
        QVERIFY(commandLine.contains("allow GET inspected.test /ok/**"));
        for (const char *name : {"cmdline", "environ"})
            QVERIFY2(!procFile(proxy.pid(), name).contains("PRIVATE KEY"), name);
        QVERIFY2(!ownPipes().contains(pipeName), qPrintable(pipeName));
        proxy.stop();
    }

    void theProxyReadsBoundSecretsFromItsDescriptorOnly()
    {
        const BoundSecret token = boundToken();
        QVERIFY(QRegularExpression(QStringLiteral("^arizuko-placeholder-[0-9a-f]{32}$"))
                    .match(token.placeholder)
                    .hasMatch());
        QVERIFY(token.placeholder != makeSecretPlaceholder());
        EgressOptions options = proxyOptions();
        options.inspectCa = caPipe();
        options.boundSecrets = true;
        options.secrets = secretsPipe(egressSecretLines({token}));
        const QString pipeName =
            descriptorTarget(QStringLiteral("/proc/self/fd/%1").arg(options.secrets->get()));
        EgressProxy proxy(options);
        const QString unhealthy = startHealthy(proxy);
        QVERIFY2(unhealthy.isEmpty(), qPrintable(unhealthy));
        const QByteArray commandLine = procFile(proxy.pid(), "cmdline");
        QVERIFY(commandLine.contains(QByteArray("--secrets-fd\0004\0", 15)));
        for (const char *name : {"cmdline", "environ"}) {
            const QByteArray seen = procFile(proxy.pid(), name);
            QVERIFY2(!seen.contains(token.value) && !seen.contains(token.value.toBase64()), name);
            QVERIFY2(!seen.contains(token.placeholder.toLatin1()), name);
        }
        // Read to its end and closed by the proxy (its number may be reused,
        // the pipe is not held); the engine's copy gone.
        QVERIFY2(!pipesOf(QString::number(proxy.pid())).contains(pipeName), qPrintable(pipeName));
        QVERIFY2(!ownPipes().contains(pipeName), qPrintable(pipeName));
        proxy.stop();
    }

    void boundSecretsTheProxyCannotReadAreNoProxy()
    {
        BoundSecret token = boundToken();
        token.binding.placement.value = QStringLiteral("Bearer"); // no {}
        EgressOptions options = proxyOptions();
        options.inspectCa = caPipe();
        options.boundSecrets = true;
        options.secrets = secretsPipe(egressSecretLines({token}));
        EgressProxy proxy(options);
        QSignalSpy failed(&proxy, &EgressProxy::failed);
        proxy.start();
        QVERIFY(failed.wait(15000));
        const Error error = failed.first().first().value<Error>();
        QCOMPARE(error.code, QStringLiteral("turns.proxy-unhealthy"));
        QVERIFY2(error.message.contains(QStringLiteral("--secrets-fd 4: line 1")),
                 qPrintable(error.message));
        QVERIFY2(!error.message.contains(QLatin1String(token.value)), qPrintable(error.message));
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
