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
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

const QString turnId = QStringLiteral("5e1f0a2b-0000-4000-8000-000000000033");
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

        turns::TurnRecord turn;
        turn.id = turnId;
        turn.name = QStringLiteral("az-") + turnId.left(8);
        turn.folder = QStringLiteral("corp");
        turn.topic = QStringLiteral("main");
        turn.agent = QStringLiteral("command");
        turn.prompt = QStringLiteral("write the names");
        turn.queuedAt = store::nowTimestamp();
        turns::TurnRecords records(**store);
        QVERIFY(records.insert(turn));
        QVERIFY(records.setState(turnId, turns::TurnState::Done, store::nowTimestamp()));

        auto history = history::HomeHistory::open(m_data.path(), home->id, {});
        QVERIFY(history);
        const history::TurnLabel label{turnId, turn.topic, turn.prompt};
        QVERIFY(history->recordBefore(label));
        // What the guest wrote in its home during the turn.
        QFile file(home->path + QLatin1Char('/') + hostileName);
        QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(file.errorString()));
        QCOMPARE(file.write(hostileLine), hostileLine.size());
        file.close();
        QVERIFY(history->recordAfter(label));
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
