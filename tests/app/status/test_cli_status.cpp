// `arizukoctl status` end to end: the real binary against the real libvirtd,
// its exit codes, its JSON, and its advice when the daemon is absent.

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run arizukoctl(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(ARIZUKOCTL), arguments);
    Run run;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace

class CliStatusTest : public QObject
{
    Q_OBJECT

private slots:
    void reportsAReachableDaemonAsJson()
    {
        const Run run = arizukoctl({QStringLiteral("status"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject status = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject libvirt = status.value(QStringLiteral("libvirt")).toObject();
        QCOMPARE(libvirt.value(QStringLiteral("reachable")).toBool(), true);
        QCOMPARE(libvirt.value(QStringLiteral("uri")).toString(), QStringLiteral("qemu:///system"));
        const QString accelerator = status.value(QStringLiteral("accelerator")).toObject()
                                        .value(QStringLiteral("name")).toString();
        QVERIFY2(accelerator == QLatin1String("kvm") || accelerator == QLatin1String("tcg"),
                 qPrintable(accelerator));
        QVERIFY(status.value(QStringLiteral("guest_image"))
                    .toObject()
                    .contains(QStringLiteral("present")));
    }

    void failsWithAdviceWhenTheDaemonIsAbsent()
    {
        const QString uri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/libvirt-sock");
        const Run run =
            arizukoctl({QStringLiteral("--libvirt-uri"), uri, QStringLiteral("status")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("NOT reachable"), run.out.constData());
        QVERIFY2(run.out.contains("is libvirtd running?"), run.out.constData());
        QVERIFY(run.out.contains(uri.toUtf8()));
    }

    void usageErrorsExitTwoAndNameTheArgument()
    {
        Run run = arizukoctl({QStringLiteral("no-such-command")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("'no-such-command'"), run.err.constData());

        run = arizukoctl({QStringLiteral("status"), QStringLiteral("--frobnicate")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("frobnicate"), run.err.constData());

        run = arizukoctl({QStringLiteral("--data-dir")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--data-dir"), run.err.constData());
    }

    void helpListsTheCommands()
    {
        const Run run = arizukoctl({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("status"));
        QVERIFY(run.out.contains("Exit status"));
    }
};

QTEST_GUILESS_MAIN(CliStatusTest)
#include "test_cli_status.moc"
