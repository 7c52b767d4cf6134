// The machine checks behind `arizukoctl status` and the window's first
// page, against the real libvirtd and the real /dev/kvm of this machine.

#include "host/guest_image.h"
#include "host/libvirt_probe.h"
#include "host/kvm_probe.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko::host;

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
        QVERIFY2(status.hint.contains(QLatin1String("is libvirtd running?")), qPrintable(status.hint));
        QVERIFY2(status.hint.contains(uri), qPrintable(status.hint));
    }

    void advisesTheLibvirtGroupOnPermissionErrors()
    {
        const QString hint = libvirtConnectionHint(
            QStringLiteral("qemu:///system"),
            QStringLiteral("Failed to connect socket to '/var/run/libvirt/libvirt-sock': Permission denied"));
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
        GuestImageStatus status = inspectGuestImage(dir.path());
        QVERIFY(!status.present);
        QCOMPARE(status.missing.size(), 4);

        for (const char *name : {"manifest.json", "vmlinuz", "initramfs.img"}) {
            QFile file(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        status = inspectGuestImage(dir.path());
        QVERIFY(!status.present);
        QCOMPARE(status.missing, QStringList{QStringLiteral("root.img")});

        QFile root(dir.filePath(QStringLiteral("root.img")));
        QVERIFY(root.open(QIODevice::WriteOnly));
        root.close();
        QVERIFY(inspectGuestImage(dir.path()).present);
    }

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
