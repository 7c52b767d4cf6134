// arizukoctl turn changes and turn undo print what a guest wrote: its file
// names and their content. A name or a line carrying terminal escapes (OSC
// 52 writing the clipboard, CSI erasing the lines before "Undo turn?", a C1
// CSI, DEL, a newline faking a line of its own) comes out inert, as text
// and as --json, on a real store and a real home history.

#include "cli_runner.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

const QString turnId = QStringLiteral("5e1f0a2b-0000-4000-8000-000000000033");
const QString replacingTurnId = QStringLiteral("6a2e1b3c-0000-4000-8000-000000000033");
// OSC 52 (set the clipboard), erase the line and move up, a C1 CSI, DEL,
// and a newline followed by a line that looks like the engine's.
const QString hostileName = QStringLiteral("x\x1b]52;c;cHduZWQ=\x07"
                                           "\x1b[2K\x1b[1A"
                                           "\u009b31m\x7f\nrestore notes.txt");
const QByteArray hostileLine = "line \x1b]52;c;cHduZWQ=\x07 \x1b[2K\x1b[1A \xc2\x9b"
                               "31m \x7f end\n";

// The bytes a terminal acts on: C0 but newline, DEL, and C1 as UTF-8.
QString terminalControls(const QByteArray &output)
{
    QStringList found;
    const QString text = QString::fromUtf8(output);
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        if ((code < 0x20 && code != u'\n') || (code >= 0x7f && code <= 0x9f))
            found << QStringLiteral("U+%1").arg(int(code), 4, 16, QLatin1Char('0'));
    }
    return found.join(QLatin1Char(' '));
}

} // namespace

class TestCliHistory final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    QString m_home;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        auto store = store::Store::open(m_data.path());
        QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
        folders::Folders folders(**store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        const auto home = folders.home(QStringLiteral("corp"));
        QVERIFY(home);
        QVERIFY(QDir().mkpath(home->path));

        turns::TurnRecords records(**store);
        auto history = history::HomeHistory::open(m_data.path(), home->id, {});
        QVERIFY(history);
        const auto file = [&home](const QString &name, const QByteArray &content) {
            QDir().mkpath(QFileInfo(home->path + QLatin1Char('/') + name).path());
            QFile out(home->path + QLatin1Char('/') + name);
            QVERIFY2(out.open(QIODevice::WriteOnly), qPrintable(out.errorString()));
            QCOMPARE(out.write(content), content.size());
        };
        // "Turns" as the runner records them: a row, and a snapshot before
        // and after what the guest did.
        const auto turn = [&](const QString &id, auto &&guest) {
            turns::TurnRecord record;
            record.id = id;
            record.name = QStringLiteral("az-") + id.left(8);
            record.folder = QStringLiteral("corp");
            record.topic = QStringLiteral("main");
            record.agent = QStringLiteral("command");
            record.prompt = QStringLiteral("write the names");
            record.queuedAt = store::nowTimestamp();
            QVERIFY(records.insert(record));
            const history::TurnLabel label{id, record.topic, record.prompt};
            QVERIFY(history->recordBefore(label));
            guest();
            QVERIFY(history->recordAfter(label));
            QVERIFY(records.setState(id, turns::TurnState::Done, store::nowTimestamp()));
        };
        turn(turnId, [&] { file(hostileName, hostileLine); });
        file(QStringLiteral("d/a.txt"), "a\n");
        turn(replacingTurnId, [&] {
            QVERIFY(QDir(home->path + QStringLiteral("/d")).removeRecursively());
            file(QStringLiteral("d"), "a file where the directory was\n");
        });
        m_home = home->path;
    }

    // The undo of a turn that replaced a directory by a file, end to end.
    void undoPutsTheDirectoryBack()
    {
        const CliRun run =
            Cli(m_data.path())
                .run({QStringLiteral("--json"), QStringLiteral("turn"), QStringLiteral("undo"),
                      QStringLiteral("az-") + replacingTurnId.left(8), QStringLiteral("--yes")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject report = run.json().object();
        QCOMPARE(report.value(QStringLiteral("restored")).toArray(),
                 (QJsonArray{QStringLiteral("d"), QStringLiteral("d/a.txt")}));
        QCOMPARE(report.value(QStringLiteral("conflicts")).toArray(), QJsonArray());
        QFile restored(m_home + QStringLiteral("/d/a.txt"));
        QVERIFY(restored.open(QIODevice::ReadOnly));
        QCOMPARE(restored.readAll(), QByteArray("a\n"));
    }

    void changesAndTheUndoPlanAreInert_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        const QString name = QStringLiteral("az-") + turnId.left(8);
        const QString changes = QStringLiteral("changes");
        QTest::newRow("changes") << QStringList{changes, name} << 0;
        QTest::newRow("changes --diff")
            << QStringList{changes, name, QStringLiteral("--diff")} << 0;
        QTest::newRow("undo preview") << QStringList{QStringLiteral("undo"), name} << 1;
    }

    void changesAndTheUndoPlanAreInert()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        const CliRun run = Cli(m_data.path()).run(QStringList{QStringLiteral("turn")} + arguments);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QCOMPARE(terminalControls(run.out), QString());
        QCOMPARE(terminalControls(run.err), QString());
        // The name is there, shown, on its one line.
        QVERIFY2(run.out.contains("x\\x1b]52;c;cHduZWQ=\\x07\\x1b[2K\\x1b[1A\\u009b31m\\x7f"
                                  "\\x0arestore notes.txt"),
                 run.out.constData());
        if (arguments.contains(QStringLiteral("--diff")))
            QVERIFY2(run.out.contains("+line \\x1b]52;c;cHduZWQ=\\x07 \\x1b[2K\\x1b[1A \\u009b31m "
                                      "\\x7f end\n"),
                     run.out.constData());
    }

    void jsonIsInertAndReadsBackAsTheName()
    {
        const CliRun run =
            Cli(m_data.path())
                .run({QStringLiteral("--json"), QStringLiteral("turn"), QStringLiteral("changes"),
                      QStringLiteral("az-") + turnId.left(8), QStringLiteral("--diff")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(terminalControls(run.out), QString());
        const QJsonArray files = run.json().object().value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), 1);
        const QJsonObject file = files.first().toObject();
        QCOMPARE(file.value(QStringLiteral("path")).toString(), hostileName);
        QVERIFY(file.value(QStringLiteral("diff"))
                    .toString()
                    .contains(QString::fromUtf8(hostileLine.trimmed())));
    }
};

QTEST_GUILESS_MAIN(TestCliHistory)
#include "test_cli_history.moc"
