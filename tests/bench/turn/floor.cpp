// The floor of a cold turn here: the domain a pretap turn boots (the same
// XML, through turns::turnDomainSpec), with its tap on a bridge, created
// through libvirt directly: no engine, no proxy, no filter binding. Times
// virDomainCreateXML and the guest's boot to its first message (the point
// the engine enters `running`), prints them as one JSON line and destroys
// everything. Only for the turn benchmark (`run` here); no product path runs
// a guest unfiltered.
//
// Usage: turn-floor [--accelerator tcg|kvm] [--replace FROM TO]...
// --replace edits the domain XML before the create call (a text
// replacement, which must match): a domain change measured against the
// turn's own, e.g. --replace "<cpu mode=\"maximum\"/>" "".
// Needs root (the tap), libvirtd and the guest image (ARIZUKO_GUEST_IMAGE_DIR).

#include "libvirt/connection.h"
#include "libvirt/handles.h"
#include "libvirt/libvirt_error.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_tap.h"
#include "turns/engine_process.h"
#include "turns/runner_settings.h"
#include "turns/turn_domain_spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <cstdio>

using namespace arizuko;

namespace {

[[noreturn]] void die(const QString &why)
{
    std::fprintf(stderr, "turn-floor: %s\n", qPrintable(why));
    std::exit(1);
}

// The guest writes its first line once someone is connected to the channel.
Result<QByteArray> firstLine(const QString &socketPath, int timeoutMs)
{
    const auto failure = [](const QString &why) { return makeError(QStringLiteral("floor"), why); };
    QElapsedTimer waited;
    waited.start();
    QLocalSocket socket;
    while (true) {
        socket.connectToServer(socketPath);
        if (socket.waitForConnected(1000))
            break;
        if (waited.elapsed() > timeoutMs)
            return failure(
                QStringLiteral("cannot connect to %1: %2").arg(socketPath, socket.errorString()));
        QThread::msleep(5);
    }
    QByteArray buffer;
    while (!buffer.contains('\n')) {
        if (waited.elapsed() > timeoutMs)
            return failure(QStringLiteral("no message from the guest within %1 ms").arg(timeoutMs));
        if (socket.waitForReadyRead(100))
            buffer += socket.readAll();
        else if (socket.state() != QLocalSocket::ConnectedState)
            return failure(QStringLiteral("the guest's channel closed before its first message"));
    }
    return buffer.left(buffer.indexOf('\n'));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    const QStringList arguments = application.arguments();
    const qsizetype flag = arguments.indexOf(QStringLiteral("--accelerator"));
    const QString acceleratorName = flag > 0 ? arguments.value(flag + 1) : QStringLiteral("tcg");
    if (acceleratorName != QLatin1String("tcg") && acceleratorName != QLatin1String("kvm"))
        die(QStringLiteral("--accelerator takes tcg or kvm, not %1").arg(acceleratorName));
    const host::Accelerator accelerator =
        acceleratorName == QLatin1String("kvm") ? host::Accelerator::Kvm : host::Accelerator::Tcg;

    auto settings = turns::RunnerSettings::fromEnvironment();
    if (!settings)
        die(settings.error().message);
    settings->filterMode = libvirt::FilterMode::Pretap;
    auto connection = libvirt::Connection::open(settings->libvirtUri);
    if (!connection)
        die(connection.error().message);
    const auto pool = libvirt::SubnetPool::parse(settings->subnetPool);
    if (!pool)
        die(pool.error().message);
    // az-<8>, like a turn's, so the suite's and the benchmark's leak checks see it.
    const QString name = QStringLiteral("az-f%1").arg(
        QRandomGenerator::global()->generate() & 0xfffffff, 7, 16, QLatin1Char('0'));
    const QString owner = turns::EngineProcess::current().mark();

    QTemporaryDir work(QDir(QDir::tempPath()).filePath(name + QStringLiteral("-XXXXXX")));
    if (!work.isValid() || !QDir(work.path()).mkpath(QStringLiteral("home")))
        die(QStringLiteral("cannot create a directory in %1").arg(QDir::tempPath()));
    auto network = libvirt::TurnNetwork::createInPool(*connection, name, *pool,
                                                      libvirt::routedRanges(), owner);
    if (!network)
        die(network.error().message);
    const libvirt::TurnDomainSpec spec =
        turns::turnDomainSpec(*settings, accelerator,
                              {name, owner, work.filePath(QStringLiteral("home")), work.path(),
                               work.filePath(QStringLiteral("console.log"))});
    if (const auto tap = libvirt::createTurnTap(spec.tapName, (*network)->name(), owner); !tap)
        die(tap.error().message);

    QString xml = libvirt::turnDomainXml(spec);
    for (qsizetype at = arguments.indexOf(QStringLiteral("--replace")); at > 0;
         at = arguments.indexOf(QStringLiteral("--replace"), at + 1)) {
        if (!xml.contains(arguments.value(at + 1)))
            die(QStringLiteral("--replace: %1 is not in the domain XML:\n%2")
                    .arg(arguments.value(at + 1), xml));
        xml.replace(arguments.value(at + 1), arguments.value(at + 2));
    }
    const QByteArray xmlBytes = xml.toUtf8();

    QElapsedTimer clock;
    clock.start();
    const libvirt::DomainHandle domain(virDomainCreateXML(
        (*connection)->get(), xmlBytes.constData(), VIR_DOMAIN_START_AUTODESTROY));
    const qint64 createMs = clock.elapsed();
    if (!domain) {
        const Error error = libvirt::lastLibvirtError(QStringLiteral("floor"), name);
        (void)libvirt::deleteTurnTap(spec.tapName);
        (void)(*network)->destroy();
        die(error.message);
    }
    const Result<QByteArray> message = firstLine(spec.turnSocketPath, 180000);
    const qint64 firstMessageMs = clock.elapsed();

    virDomainDestroy(domain.get());
    (void)libvirt::deleteTurnTap(spec.tapName);
    (void)(*network)->destroy();
    if (!message)
        die(message.error().message);
    const QJsonObject status = QJsonDocument::fromJson(*message).object();
    const QJsonObject report{
        {QStringLiteral("name"), name},
        {QStringLiteral("create_ms"), createMs},
        {QStringLiteral("boot_ms"), firstMessageMs - createMs},
        {QStringLiteral("first_message_ms"), firstMessageMs},
        {QStringLiteral("first_message"), status.value(QStringLiteral("state"))},
    };
    std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
    return 0;
}
