// Who reaps QEMU, decided from libvirtd's ancestry: table of process trees
// (no real tree can be rearranged in a test), and this host's own answer.

#include "host/qemu_reaper.h"

#include <QHash>
#include <QTest>

using namespace arizuko::host;

namespace {

using Tree = QHash<qint64, ProcessInfo>;

QemuReaper assess(const Tree &tree, std::optional<qint64> libvirtd = 100)
{
    return assessQemuReaper(
        [&tree](qint64 pid) -> std::optional<ProcessInfo> {
            if (!tree.contains(pid))
                return std::nullopt;
            return tree.value(pid);
        },
        libvirtd);
}

ProcessInfo process(qint64 pid, qint64 parent, const QString &name,
                    const QStringList &arguments = {})
{
    return {pid, parent, name, arguments.isEmpty() ? QStringList{name} : arguments};
}

const ProcessInfo lateInit = process(1, 0, QStringLiteral("process_api"));
const ProcessInfo systemd = process(1, 0, QStringLiteral("systemd"));

} // namespace

class TestQemuReaper : public QObject
{
    Q_OBJECT

private slots:
    void tiniAsSubreaperReapsPromptly()
    {
        const QemuReaper reaper =
            assess({{1, lateInit},
                    {50, process(50, 1, QStringLiteral("tini"),
                                 {QStringLiteral("tini"), QStringLiteral("-s"),
                                  QStringLiteral("--"), QStringLiteral("libvirtd")})},
                    {100, process(100, 50, QStringLiteral("libvirtd"))}});
        QVERIFY(reaper.libvirtdFound);
        QVERIFY(reaper.prompt);
        QVERIFY2(reaper.reaper.contains(QLatin1String("tini -s")), qPrintable(reaper.reaper));
        QVERIFY(reaper.advice.isEmpty());
    }

    void aDaemonizedLibvirtdUnderALateInitIsSlow()
    {
        const QemuReaper reaper =
            assess({{1, lateInit}, {100, process(100, 1, QStringLiteral("libvirtd"))}});
        QVERIFY(reaper.libvirtdFound);
        QVERIFY(!reaper.prompt);
        QCOMPARE(reaper.reaper, QStringLiteral("PID 1 (process_api)"));
        QVERIFY2(reaper.advice.contains(QLatin1String("tini -s")), qPrintable(reaper.advice));
    }

    void tiniWithoutSubreaperOrWithDashSForItsProgramDoesNotCount()
    {
        for (const QStringList &arguments :
             {QStringList{QStringLiteral("tini"), QStringLiteral("--"), QStringLiteral("libvirtd")},
              QStringList{QStringLiteral("tini"), QStringLiteral("--"), QStringLiteral("sh"),
                          QStringLiteral("-s")}}) {
            const QemuReaper reaper =
                assess({{1, lateInit},
                        {50, process(50, 1, QStringLiteral("tini"), arguments)},
                        {100, process(100, 50, QStringLiteral("libvirtd"))}});
            QVERIFY2(!reaper.prompt, qPrintable(arguments.join(QLatin1Char(' '))));
        }
    }

    void systemdReapsPromptly()
    {
        QVERIFY(assess({{1, systemd}, {100, process(100, 1, QStringLiteral("libvirtd"))}}).prompt);
    }

    void noLibvirtdHereSaysNothing()
    {
        const QemuReaper reaper = assess({{1, lateInit}}, std::nullopt);
        QVERIFY(!reaper.libvirtdFound);
        QVERIFY(reaper.advice.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestQemuReaper)
#include "test_qemu_reaper.moc"
