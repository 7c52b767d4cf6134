// The machine checks behind `arizukoctl status` and the window's first
// page, against the real libvirtd and the real /dev/kvm of this machine.

#include "host/guest_image.h"
#include "host/kvm_probe.h"
#include "libvirt/machine_status.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko::host;
using arizuko::libvirt::libvirtConnectionHint;
using arizuko::libvirt::probeLibvirt;

namespace {

QJsonObject agentEntry(const char *name, const char *version, const char *entry)
{
    return QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                       {QStringLiteral("version"), QLatin1String(version)},
                       {QStringLiteral("entry"), QLatin1String(entry)}};
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

// What an image says it carries: the "agents" of its manifest.
void checkGuestImageAgents()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const char *name : {"vmlinux", "initramfs.img", "root.img"})
        writeFile(dir.filePath(QString::fromLatin1(name)), "x");
    const QJsonObject files{
        {QStringLiteral("vmlinux"), QJsonObject{{QStringLiteral("size"), 1}}},
        {QStringLiteral("initramfs.img"), QJsonObject{{QStringLiteral("size"), 1}}},
        {QStringLiteral("root.img"), QJsonObject{{QStringLiteral("size"), 1}}}};
    // As installer/build-guest-image --agents codex,pi writes it; an
    // entry that is not an absolute path is no agent.
    writeFile(dir.filePath(QStringLiteral("manifest.json")),
              QJsonDocument(
                  QJsonObject{{QStringLiteral("format"), 1},
                              {QStringLiteral("files"), files},
                              {QStringLiteral("agents"),
                               QJsonArray{agentEntry("codex", "0.171.0", "/usr/local/bin/codex"),
                                          agentEntry("pi", "0.73.1", "/usr/local/bin/pi"),
                                          agentEntry("evil", "1", "relative/path")}}})
                  .toJson());
    GuestImageStatus status = inspectGuestImage(dir.path(), QString());
    QVERIFY(status.present);
    QCOMPARE(status.agents.size(), 2);
    QCOMPARE(status.agents[0], (GuestAgent{QStringLiteral("codex"), QStringLiteral("0.171.0"),
                                           QStringLiteral("/usr/local/bin/codex")}));
    QVERIFY(status.hasAgent(u"pi"));
    QVERIFY(!status.hasAgent(u"claude"));
    QVERIFY(!status.hasAgent(u"evil"));

    // An image from before the list (a stale one, with an older
    // arizuko-guest): no agents are guessed for it.
    writeFile(dir.filePath(QStringLiteral("manifest.json")),
              QJsonDocument(QJsonObject{{QStringLiteral("format"), 1},
                                        {QStringLiteral("files"), files},
                                        {QStringLiteral("claude_code"),
                                         QJsonObject{{QStringLiteral("version"),
                                                      QStringLiteral("2.1.332")}}}})
                  .toJson());
    status = inspectGuestImage(dir.path(), QString());
    QVERIFY(status.agents.isEmpty());
}

} // namespace

class HostStatusTest : public QObject
{
    Q_OBJECT

private slots:
    void reachesTheRunningLibvirtDaemon()
    {
        const LibvirtStatus status = probeLibvirt(QStringLiteral("qemu:///system"));
        QVERIFY2(status.reachable, qPrintable(status.error));
        QVERIFY(status.version.contains(QLatin1Char('.')));
        QVERIFY(status.error.isEmpty());
    }

    void namesTheUriAndAdvisesWhenTheDaemonIsAbsent()
    {
        const QString uri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/libvirt-sock");
        const LibvirtStatus status = probeLibvirt(uri);
        QVERIFY(!status.reachable);
        QVERIFY(!status.error.isEmpty());
        QVERIFY2(status.hint.contains(QLatin1String("is libvirtd running?")),
                 qPrintable(status.hint));
        QVERIFY2(status.hint.contains(uri), qPrintable(status.hint));
    }

    void advisesTheLibvirtGroupOnPermissionErrors()
    {
        const QString hint = libvirtConnectionHint(
            QStringLiteral("qemu:///system"),
            QStringLiteral(
                "Failed to connect socket to '/var/run/libvirt/libvirt-sock': Permission denied"));
        QVERIFY2(hint.contains(QLatin1String("libvirt group")), qPrintable(hint));
    }

    void kvmProbeAnswersWithinItsTimeoutAndExplains()
    {
        // Whether KVM works differs between machines (here /dev/kvm opens
        // but may not run guests); what must hold everywhere is that the
        // probe never hangs and always says why.
        QElapsedTimer clock;
        clock.start();
        const KvmProbeResult result = probeKvm(std::chrono::milliseconds(1500));
        QVERIFY2(clock.elapsed() < 5000, "the KVM probe outlived its timeout");
        QVERIFY(!result.detail.isEmpty());
        if (!QFile::exists(QStringLiteral("/dev/kvm")))
            QVERIFY(!result.works);
        qInfo("KVM probe: works=%d, %s", result.works, qPrintable(result.detail));
    }

    void guestImageListsWhatIsMissing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GuestImageStatus status = inspectGuestImage(dir.path(), QString());
        QVERIFY(!status.present);
        QCOMPARE(status.missing.size(), 4);

        writeFile(dir.filePath(QStringLiteral("vmlinux")), "kernel");
        writeFile(dir.filePath(QStringLiteral("initramfs.img")), "init");
        writeFile(dir.filePath(QStringLiteral("manifest.json")), "{}");
        status = inspectGuestImage(dir.path(), QString());
        QVERIFY(!status.present);
        QCOMPARE(status.missing, QStringList{QStringLiteral("root.img")});
        QCOMPARE(guestImageFault(status), QStringLiteral("missing root.img"));
    }

    void guestImageMustMatchItsManifestAndThisEnginesGuest()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath(QStringLiteral("vmlinux")), "kernel");
        writeFile(dir.filePath(QStringLiteral("initramfs.img")), "init");
        writeFile(dir.filePath(QStringLiteral("root.img")), "root");
        const QString guest = dir.filePath(QStringLiteral("arizuko-guest"));
        writeFile(guest, "guest program");
        const QString guestSha = QString::fromLatin1(
            QCryptographicHash::hash("guest program", QCryptographicHash::Sha256).toHex());
        const auto manifest = [&](int format, qint64 rootSize, const QString &sha) {
            const QJsonObject files{
                {QStringLiteral("vmlinux"), QJsonObject{{QStringLiteral("size"), 6}}},
                {QStringLiteral("initramfs.img"), QJsonObject{{QStringLiteral("size"), 4}}},
                {QStringLiteral("root.img"), QJsonObject{{QStringLiteral("size"), rootSize}}}};
            writeFile(dir.filePath(QStringLiteral("manifest.json")),
                      QJsonDocument(QJsonObject{{QStringLiteral("format"), format},
                                                {QStringLiteral("files"), files},
                                                {QStringLiteral("guest"),
                                                 QJsonObject{{QStringLiteral("sha256"), sha}}}})
                          .toJson());
            return inspectGuestImage(dir.path(), guest);
        };

        GuestImageStatus status = manifest(1, 4, guestSha);
        QVERIFY2(status.present, qPrintable(status.problem));
        QVERIFY(guestImageFault(status).isEmpty());

        status = manifest(2, 4, guestSha);
        QVERIFY(!status.present);
        QVERIFY2(status.problem.contains(QLatin1String("format 2")), qPrintable(status.problem));

        status = manifest(1, 5, guestSha);
        QVERIFY(!status.present);
        QVERIFY2(status.problem.contains(QLatin1String("root.img is 4 bytes")),
                 qPrintable(status.problem));

        status = manifest(1, 4, QStringLiteral("0123"));
        QVERIFY(!status.present);
        QVERIFY2(status.problem.contains(QLatin1String("another arizuko-guest")),
                 qPrintable(status.problem));

        // Without a guest program beside the engine, the manifest alone decides.
        manifest(1, 4, QStringLiteral("0123"));
        QVERIFY(inspectGuestImage(dir.path(), QString()).present);
    }

    void guestImageListsItsAgents() { checkGuestImageAgents(); }

    void guestImageDirectoryHonoursTheOverride()
    {
        qputenv("ARIZUKO_GUEST_IMAGE_DIR", "/tmp/somewhere-else");
        QCOMPARE(guestImageDirectory(), QStringLiteral("/tmp/somewhere-else"));
        qunsetenv("ARIZUKO_GUEST_IMAGE_DIR");
        QVERIFY(guestImageDirectory().endsWith(QLatin1String("/arizuko-desktop/guest")));
    }
};

QTEST_GUILESS_MAIN(HostStatusTest)
#include "test_host_status.moc"
