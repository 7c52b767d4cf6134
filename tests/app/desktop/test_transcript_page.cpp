// The transcript page in the real WebEngine (under Xvfb): a recorded Claude
// Code event stream goes in through the same code the window uses, and the
// DOM is checked with runJavaScript — order, folded tool calls, markdown,
// and that nothing in the agent's output runs: a canary it would set stays
// unset.

#include "agent/agent_events.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "transcript_bridge.h"
#include "transcript_page.h"
#include "transcript_view.h"
#include "turn_changes_reader.h"
#include "turn_records/turn_records.h"
#include "turns/runner_settings.h"
#include "web_test_support.h"

#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEngineView>

using namespace arizuko;
using desktop::TranscriptView;

namespace {

QList<turns::TurnEventRecord> recordedStream(const QString &turn)
{
    QFile file(QStringLiteral(FIXTURES "/claude-stream.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the recorded stream");
    QList<turns::TurnEventRecord> events;
    qint64 seq = 1;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        for (const agent::AgentEvent &event : agent::agentEventsFromLine(QString::fromUtf8(line)))
            events.append({turn, seq++, event.kind, event.json, store::nowTimestamp()});
    }
    return events;
}

turns::TurnRecord turnRecord(int number, turns::TurnState state)
{
    turns::TurnRecord record;
    record.id =
        QStringLiteral("%1-0000-0000-0000-000000000000").arg(number, 8, 10, QLatin1Char('0'));
    record.name = QStringLiteral("az-") + record.id.left(8);
    record.folder = QStringLiteral("corp");
    record.topic = QStringLiteral("main");
    record.agent = QStringLiteral("claude");
    record.prompt = QStringLiteral("prompt number %1 <b>not bold</b>").arg(number);
    record.state = state;
    record.queuedAt = store::nowTimestamp();
    record.endedAt = turns::isTerminal(state) ? store::nowTimestamp() : QString();
    return record;
}

const QString canaryUnset = QStringLiteral("typeof window.canary === 'undefined'");

// The links the recorded stream's hostile message renders as: the markdown
// javascript: link (its URL dropped) and the web link; the raw <a> is raw
// HTML, which is never rendered.
constexpr int renderedLinks = 2;

// Nothing from the agent ran or can run: the canary is unset, no element
// that runs or loads anything is on the page, no handler attribute. Counts
// come back as text: a script that threw or timed out answers nothing,
// which toInt() would read as the 0 these checks want.
void verifyNothingRan(QWebEnginePage *page)
{
    QVERIFY(runJavaScript(page, canaryUnset).toBool());
    QCOMPARE(runJavaScript(page, QStringLiteral("String(document.querySelectorAll('#turns script, "
                                                "#turns img, #turns iframe, #turns svg, #turns "
                                                "object, #turns b').length)"))
                 .toString(),
             QStringLiteral("0"));
    QCOMPARE(runJavaScript(page,
                           QStringLiteral("String(Array.from(document.querySelectorAll('#turns *'))"
                                          ".filter(e => Array.from(e.attributes).some(a => "
                                          "a.name.startsWith('on'))).length)"))
                 .toString(),
             QStringLiteral("0"));
}

// The view shown, with topic corp/main, once its page is connected.
bool showsTopicMain(TranscriptView &view)
{
    view.resize(1000, 900);
    view.show();
    QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
    view.showTopic(QStringLiteral("corp"), QStringLiteral("main"));
    return ready.wait(30000);
}

// Shows corp/main with one running turn in it, stored first as the engine
// stores it.
bool showsARunningTurn(TranscriptView &view, store::Store &store, turns::TurnRecord &turn)
{
    if (!showsTopicMain(view))
        return false;
    turn = turnRecord(1, turns::TurnState::Running);
    if (!turns::TurnRecords(store).insert(turn).ok())
        return false;
    view.addTurn(turn);
    return true;
}

turns::TurnEventRecord textEvent(const QString &turn, qint64 seq, const QString &markdown)
{
    return {turn, seq, QStringLiteral("text"), QJsonObject{{QStringLiteral("text"), markdown}},
            store::nowTimestamp()};
}

turns::TurnEventRecord toolEvent(const QString &turn, qint64 seq, const QString &name,
                                 const QString &id, const QJsonObject &input)
{
    return {turn, seq, QStringLiteral("tool_use"),
            QJsonObject{
                {QStringLiteral("id"), id},
                {QStringLiteral("name"), name},
                {QStringLiteral("summary"),
                 name + QStringLiteral(": ") + input.value(QStringLiteral("file_path")).toString()},
                {QStringLiteral("input"), input}},
            store::nowTimestamp()};
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(data), data.size());
}

void screenshot(QWidget *widget, const QString &name)
{
    QDir().mkpath(QStringLiteral(SCREENSHOT_DIR));
    const QString path = QDir(QStringLiteral(SCREENSHOT_DIR)).filePath(name);
    QVERIFY2(widget->grab().save(path), qPrintable(path));
    qInfo("screenshot %s", qPrintable(path));
}

// Opens the tool call's fold and answers its input's code when drawn.
QString openTool(QWebEnginePage *page, const QString &id)
{
    runJavaScript(page, QStringLiteral("document.querySelector('details.tool[data-tool=\"%1\"]')"
                                       ".open = true; true")
                            .arg(id));
    const QString input =
        QStringLiteral("document.querySelector('details.tool[data-tool=\"%1\"] pre.input')")
            .arg(id);
    if (!waitForScript(page, input + QStringLiteral(".querySelector('code.hljs') !== null")))
        return {};
    return input;
}

// Stands in for the desktop browser: records what the page asked it to open.
class OpenedUrls : public QObject
{
    Q_OBJECT
public slots:
    void open(const QUrl &url) { urls.append(url); }

public:
    QList<QUrl> urls;
};

} // namespace

class TranscriptPageTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
    }
    void cleanup()
    {
        m_workspace.reset();
        m_store.reset();
    }

    void rendersALiveStreamInOrderFoldedAndInert()
    {
        TranscriptView view(*m_workspace);
        view.resize(900, 700);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        QStringList console;
        connect(view.page(), &desktop::TranscriptPage::consoleMessage, this,
                [&console](const QString &message) { console << message; });
        view.showTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(ready.wait(30000));

        // Live, as the window gets it: the turn, then its events in batches.
        const turns::TurnRecord turn = turnRecord(1, turns::TurnState::Running);
        QVERIFY(turns::TurnRecords(*m_store).insert(turn).ok());
        view.addTurn(turn);
        const QList<turns::TurnEventRecord> events = recordedStream(turn.id);
        // The engine stores events before it reports them.
        QVERIFY(turns::TurnRecords(*m_store).appendEvents(events).ok());
        view.addEvents(events.mid(0, 3));
        view.addEvents(events.mid(3));
        turns::TurnRecord ended = turn;
        ended.state = turns::TurnState::Done;
        ended.endedAt = store::nowTimestamp();
        ended.usage = QJsonObject{{QStringLiteral("input_tokens"), 100},
                                  {QStringLiteral("output_tokens"), 20}};
        ended.costUsd = 0.001;
        view.endTurn(ended);
        QWebEnginePage *page = view.page();
        QVERIFY2(waitForScript(page, QStringLiteral("document.querySelector('.footer') !== null")),
                 qPrintable(console.join(QLatin1Char('\n'))));

        // Order: the prompt first, then every item by sequence, the footer last.
        const QStringList types = runJavaScript(page, QStringLiteral(
            "Array.from(document.querySelectorAll('section.turn > *')).map(e => e.dataset.type)"))
                                      .toStringList();
        QCOMPARE(types, (QStringList{QStringLiteral("prompt"), QStringLiteral("text"),
                                     QStringLiteral("tool"), QStringLiteral("text"),
                                     QStringLiteral("tool"), QStringLiteral("text"),
                                     QStringLiteral("footer")}));
        const QVariantList seqs =
            runJavaScript(page, QStringLiteral("Array.from(document.querySelectorAll('section.turn "
                                               "> *')).map(e => Number(e.dataset.seq))"))
                .toList();
        for (qsizetype i = 1; i < seqs.size(); ++i)
            QVERIFY(seqs[i].toLongLong() > seqs[i - 1].toLongLong());
        QCOMPARE(
            runJavaScript(page, QStringLiteral("document.querySelector('.prompt').textContent"))
                .toString(),
            QStringLiteral("prompt number 1 <b>not bold</b>"));

        // Folding: each tool call is one closed line, its output inside.
        QCOMPARE(
            runJavaScript(page, QStringLiteral("document.querySelectorAll('details.tool').length"))
                .toInt(),
            2);
        QCOMPARE(runJavaScript(
                     page, QStringLiteral("document.querySelectorAll('details.tool[open]').length"))
                     .toInt(),
                 0);
        QCOMPARE(runJavaScript(
                     page,
                     QStringLiteral("document.querySelector('details.tool > summary').textContent"))
                     .toString(),
                 QStringLiteral("Bash: uname -sr; id"));
        QVERIFY(
            runJavaScript(page, QStringLiteral("document.querySelector('details.tool > "
                                               "pre.output').textContent.includes('uid=0(root)')"))
                .toBool());
        QVERIFY(runJavaScript(page, QStringLiteral(
            "document.querySelectorAll('details.tool')[1].classList.contains('error')")).toBool());
        // Expanding shows the input and output.
        QVERIFY(runJavaScript(
                    page, QStringLiteral(
                              "const d = document.querySelector('details.tool'); d.open = true; "
                              "d.querySelector('pre.input').offsetHeight > 0 && "
                              "d.querySelector('pre.output').offsetHeight > 0"))
                    .toBool());

        // Markdown from cmark-gfm: bold, a table, a code block.
        QCOMPARE(runJavaScript(page,
                               QStringLiteral("document.querySelector('.text strong').textContent"))
                     .toString(),
                 QStringLiteral("bold"));
        QCOMPARE(runJavaScript(page,
                               QStringLiteral("document.querySelectorAll('.text table td').length"))
                     .toInt(),
                 2);
        QVERIFY(runJavaScript(
                    page,
                    QStringLiteral(
                        "document.querySelector('.text pre code').textContent.includes('ls -la')"))
                    .toBool());
        QCOMPARE(
            runJavaScript(page, QStringLiteral("document.querySelector('.footer').textContent"))
                .toString(),
            QStringLiteral("done in 0.0 s \u00b7 100 tokens in, 20 out \u00b7 $0.0010"));

        verifyNothingRan(page);
        QCOMPARE(
            runJavaScript(page,
                          QStringLiteral(
                              "String(Array.from(document.querySelectorAll('#turns a')).filter(a "
                              "=> /^\\s*javascript:/i.test(a.getAttribute('href') || '')).length)"))
                .toString(),
            QStringLiteral("0"));
        // The text survives as text.
        QVERIFY(runJavaScript(page, QStringLiteral("document.getElementById('turns').textContent."
                                                   "includes(\"window.canary = 'tool-output'\")"))
                    .toBool());
        // Clicking every link does not run anything either. The clicks go in
        // page order; the web link after the hostile ones reaches the desktop
        // browser last, so once it has, every earlier click was handled.
        QCOMPARE(runJavaScript(
                     page, QStringLiteral("String(document.querySelectorAll('#turns a').length)"))
                     .toString(),
                 QStringLiteral("%1").arg(renderedLinks));
        OpenedUrls browser;
        QDesktopServices::setUrlHandler(QStringLiteral("https"), &browser, "open");
        QVERIFY(
            runJavaScript(
                page, QStringLiteral(
                          "document.querySelectorAll('#turns a').forEach(a => a.click()); true"))
                .toBool());
        QTRY_COMPARE_WITH_TIMEOUT(
            browser.urls,
            QList<QUrl>{QUrl(QStringLiteral("https://example.com/after-the-hostile-links"))},
            10000);
        QDesktopServices::unsetUrlHandler(QStringLiteral("https"));
        QVERIFY(runJavaScript(page, canaryUnset).toBool());
        // The canary is real: the page's own context would set it.
        QVERIFY(
            runJavaScript(page, QStringLiteral("window.canary = 'test'; window.canary === 'test'"))
                .toBool());
        // The policy is in force: an inline script added at run time is refused.
        runJavaScript(page, QStringLiteral(
            "window.canary = undefined; const s = document.createElement('script'); "
            "s.textContent = \"window.canary = 'inline'\"; document.body.appendChild(s); true"));
        QVERIFY(runJavaScript(page, canaryUnset).toBool());

        // Copy as markdown carries the prompt, the text and the tool call.
        QString markdown;
        view.markdown([&markdown](const QString &text) { markdown = text; });
        QTRY_VERIFY_WITH_TIMEOUT(!markdown.isEmpty(), 10000);
        QVERIFY(markdown.startsWith(QLatin1String("**You:** prompt number 1")));
        QVERIFY(markdown.contains(QLatin1String("- `Bash: uname -sr; id`")));
    }

    void opensWithTheLatestTurnsAndLoadsEarlierOnes()
    {
        turns::TurnRecords records(*m_store);
        for (int number = 1; number <= 7; ++number) {
            const turns::TurnRecord turn = turnRecord(number, turns::TurnState::Done);
            QVERIFY(records.insert(turn).ok());
            QVERIFY(records.appendEvents(recordedStream(turn.id)).ok());
        }
        TranscriptView view(*m_workspace);
        view.resize(900, 700);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        view.showTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(ready.wait(30000));
        QWebEnginePage *page = view.page();
        QVERIFY(waitForScript(
            page, QStringLiteral("document.querySelectorAll('section.turn').length === 5")));
        QVERIFY(runJavaScript(page, QStringLiteral("!document.getElementById('earlier').hidden"))
                    .toBool());
        runJavaScript(page, QStringLiteral("document.getElementById('earlier').click(); true"));
        QVERIFY(waitForScript(
            page, QStringLiteral("document.querySelectorAll('section.turn').length === 7")));
        QCOMPARE(
            runJavaScript(page, QStringLiteral("Array.from(document.querySelectorAll('.prompt'))."
                                               "map(p => p.textContent.split(' ')[2]).join(',')"))
                .toString(),
            QStringLiteral("1,2,3,4,5,6,7"));
        QVERIFY(runJavaScript(page, QStringLiteral("document.getElementById('earlier').hidden"))
                    .toBool());
        QVERIFY(runJavaScript(page, canaryUnset).toBool());
    }

    void opensALongTurnAtItsTailAndLoadsTheRestInOrder()
    {
        // One turn of 1,000 text events: the page first holds only the last
        // page of them, without the prompt; earlier pages go above, in order.
        const turns::TurnRecord turn = turnRecord(1, turns::TurnState::Done);
        turns::TurnRecords records(*m_store);
        QVERIFY(records.insert(turn).ok());
        constexpr int count = 1000;
        QList<turns::TurnEventRecord> events;
        for (int seq = 1; seq <= count; ++seq)
            events.append(
                {turn.id, seq, QStringLiteral("text"),
                 QJsonObject{{QStringLiteral("text"), QStringLiteral("line %1").arg(seq)}},
                 store::nowTimestamp()});
        QVERIFY(records.appendEvents(events).ok());
        TranscriptView view(*m_workspace);
        view.resize(900, 700);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        view.showTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(ready.wait(30000));
        QWebEnginePage *page = view.page();
        const QString texts =
            QStringLiteral("document.querySelectorAll('section.turn > .text').length");
        QVERIFY(waitForScript(
            page, texts + QStringLiteral(" === %1").arg(TranscriptView::eventsPerPage)));
        QCOMPARE(runJavaScript(page, QStringLiteral("document.querySelectorAll('.prompt').length"))
                     .toInt(),
                 0);
        QCOMPARE(runJavaScript(
                     page, QStringLiteral(
                               "document.querySelector('section.turn > .text').textContent.trim()"))
                     .toString(),
                 QStringLiteral("line %1").arg(count - TranscriptView::eventsPerPage + 1));
        QVERIFY(runJavaScript(page, QStringLiteral("!document.getElementById('earlier').hidden"))
                    .toBool());
        // Scrolling up at the top asks for the page before, as the button does.
        runJavaScript(page, QStringLiteral("window.scrollTo(0, 0); window.dispatchEvent(new "
                                           "WheelEvent('wheel', {deltaY: -100})); true"));
        QVERIFY(waitForScript(
            page, texts + QStringLiteral(" === %1").arg(2 * TranscriptView::eventsPerPage)));
        while (runJavaScript(page, QStringLiteral("!document.getElementById('earlier').hidden"))
                   .toBool()) {
            const int before = runJavaScript(page, texts).toInt();
            runJavaScript(page, QStringLiteral("document.getElementById('earlier').click(); true"));
            QVERIFY(waitForScript(page, texts + QStringLiteral(" > %1").arg(before)));
        }
        QCOMPARE(runJavaScript(page, texts).toInt(), count);
        const QStringList types =
            runJavaScript(page, QStringLiteral("Array.from(document.querySelectorAll('section.turn "
                                               "> *')).map(e => e.dataset.type)"))
                .toStringList();
        QCOMPARE(types.first(), QStringLiteral("prompt"));
        QCOMPARE(types.last(), QStringLiteral("footer"));
        QCOMPARE(types.size(), count + 2);
        const QVariantList seqs =
            runJavaScript(page, QStringLiteral("Array.from(document.querySelectorAll('section.turn "
                                               "> .text')).map(e => Number(e.dataset.seq))"))
                .toList();
        for (qsizetype i = 0; i < seqs.size(); ++i)
            QCOMPARE(seqs[i].toLongLong(), i + 1);
        QCOMPARE(
            runJavaScript(page, QStringLiteral("document.querySelectorAll('section.turn').length"))
                .toInt(),
            1);
    }

    void highlightsCodeBlocksWritesEditsAndTheTurnsChanges()
    {
        // A turn's home and its real history: before, the turn's writes, after.
        const auto home =
            folders::Folders(*m_store, QStringLiteral("user:test")).home(QStringLiteral("corp"));
        QVERIFY(home.ok());
        const QDir homeDir(home->path);
        writeFile(homeDir.filePath(QStringLiteral("edit.py")), "def f():\n    return 'two'\n");
        writeFile(homeDir.filePath(QStringLiteral("gone.txt")), "bye\n");
        const turns::TurnRecord turn = turnRecord(1, turns::TurnState::Running);
        turns::TurnRecords records(*m_store);
        auto history = history::HomeHistory::open(m_store->dataDir(), home->id, {});
        QVERIFY(history.ok());
        const history::TurnLabel label{turn.id, turn.topic, turn.prompt};
        QVERIFY(history->recordBefore(label).ok());
        writeFile(homeDir.filePath(QStringLiteral("edit.py")), "def f():\n    return 2\n");
        QVERIFY(QFile::remove(homeDir.filePath(QStringLiteral("gone.txt"))));
        writeFile(homeDir.filePath(QStringLiteral("new.html")), "<b>new</b>\n");
        QVERIFY(history->recordAfter(label).ok());

        TranscriptView view(*m_workspace);
        QVERIFY(showsTopicMain(view));
        QVERIFY(records.insert(turn).ok());
        view.addTurn(turn);
        const QList<turns::TurnEventRecord> events{
            textEvent(turn.id, 1,
                      QStringLiteral("Here:\n\n```python\nimport os\n\ndef f():\n    return "
                                     "'two'  # old\n```\n")),
            toolEvent(turn.id, 2, QStringLiteral("Write"), QStringLiteral("toolu_write"),
                      {{QStringLiteral("file_path"), QStringLiteral("/home/agent/hello.rs")},
                       {QStringLiteral("content"),
                        QStringLiteral("fn main() {\n    println!(\"hi\");\n}\n")}}),
            toolEvent(turn.id, 3, QStringLiteral("Edit"), QStringLiteral("toolu_edit"),
                      {{QStringLiteral("file_path"), QStringLiteral("/home/agent/edit.py")},
                       {QStringLiteral("old_string"), QStringLiteral("def f():\n    return 'two'")},
                       {QStringLiteral("new_string"), QStringLiteral("def f():\n    return 2")}})};
        QVERIFY(records.appendEvents(events).ok());
        view.addEvents(events);
        turns::TurnRecord ended = turn;
        ended.state = turns::TurnState::Done;
        ended.endedAt = store::nowTimestamp();
        // Ended in the store too: opened again, it is read from there.
        QVERIFY(records.setState(ended.id, ended.state, ended.endedAt).ok());
        view.endTurn(ended);
        QWebEnginePage *page = view.page();

        // The code block by its fence's language, once seen.
        QVERIFY(waitForScript(
            page, QStringLiteral("document.querySelector('.text pre code.hljs.language-python "
                                 ".hljs-keyword') !== null")));
        QCOMPARE(runJavaScript(
                     page, QStringLiteral("document.querySelector('.text pre code').textContent"))
                     .toString(),
                 QStringLiteral("import os\n\ndef f():\n    return 'two'  # old\n"));
        QVERIFY(runJavaScript(page, QStringLiteral("document.querySelector('.text pre code "
                                                   ".hljs-comment').textContent === '# old'"))
                    .toBool());

        // The file Write makes, by its extension; drawn only once opened.
        QCOMPARE(runJavaScript(
                     page, QStringLiteral(
                               "document.querySelector('details.tool[data-tool=\"toolu_write\"] "
                               "pre.input').childNodes.length"))
                     .toInt(),
                 0);
        const QString write = openTool(page, QStringLiteral("toolu_write"));
        QVERIFY(!write.isEmpty());
        QCOMPARE(runJavaScript(page, write + QStringLiteral(".textContent")).toString(),
                 QStringLiteral("fn main() {\n    println!(\"hi\");\n}\n"));
        QVERIFY(runJavaScript(page,
                              write + QStringLiteral(".querySelectorAll('.hljs-keyword, "
                                                     ".hljs-built_in, .hljs-string').length >= 2"))
                    .toBool());

        // Edit's old and new text as a diff, the code highlighted by the file's name.
        const QString edit = openTool(page, QStringLiteral("toolu_edit"));
        QVERIFY(!edit.isEmpty());
        QCOMPARE(runJavaScript(page, edit + QStringLiteral(".textContent")).toString(),
                 QStringLiteral(" def f():\n-    return 'two'\n+    return 2"));
        QCOMPARE(runJavaScript(
                     page, edit + QStringLiteral(".querySelector('.hljs-deletion').textContent"))
                     .toString(),
                 QStringLiteral("-    return 'two'"));
        QCOMPARE(runJavaScript(
                     page, edit + QStringLiteral(".querySelector('.hljs-addition').textContent"))
                     .toString(),
                 QStringLiteral("+    return 2"));
        QVERIFY(
            runJavaScript(
                page,
                edit +
                    QStringLiteral(
                        ".querySelector('.hljs-addition .hljs-keyword').textContent === 'return'"))
                .toBool());

        // The turn's Changes block, from its history: exactly its files,
        // before the closing line, each diff the history's own.
        const QString files = QStringLiteral(
            "Array.from(document.querySelectorAll('.changes details.change')).map(d => "
            "d.dataset.kind + ' ' + d.dataset.path).sort().join(',')");
        QVERIFY2(waitForScript(
                     page, files + QStringLiteral(
                                       " === 'added new.html,deleted gone.txt,modified edit.py'")),
                 qPrintable(runJavaScript(page, files).toString()));
        QCOMPARE(runJavaScript(
                     page, QStringLiteral(
                               "Array.from(document.querySelectorAll('section.turn > *')).map(e => "
                               "e.dataset.type).slice(-2).join(' ')"))
                     .toString(),
                 QStringLiteral("changes footer"));
        QVERIFY(runJavaScript(
                    page,
                    QStringLiteral(
                        "document.querySelector('.changes-title').textContent.includes('1 added')"))
                    .toBool());
        const auto settings = turns::RunnerSettings::load(*m_store);
        QVERIFY(settings.ok());
        const auto changes =
            history::turnChanges(*m_store, ended, history::snapshotOptions(*settings), true);
        QVERIFY(changes.ok());
        QCOMPARE(changes->files.size(), 3);
        for (const history::FileChange &change : changes->files) {
            const QString diff =
                QStringLiteral(
                    "Array.from(document.querySelectorAll('.changes details.change')).find(d => "
                    "d.dataset.path === '%1')")
                    .arg(change.path);
            runJavaScript(page, diff + QStringLiteral(".open = true; true"));
            QVERIFY(waitForScript(
                page, diff + QStringLiteral(".querySelector('pre.diff code.hljs') !== null")));
            QString recorded = change.diff;
            if (recorded.endsWith(QLatin1Char('\n')))
                recorded.chop(1);
            QCOMPARE(
                runJavaScript(page, diff + QStringLiteral(".querySelector('pre.diff').textContent"))
                    .toString(),
                recorded);
        }
        QVERIFY(
            runJavaScript(
                page,
                QStringLiteral(
                    "const d = document.querySelector('.changes "
                    "details.change[data-path=\"edit.py\"]'); "
                    "d.querySelector('.hljs-deletion .hljs-string').textContent === \"'two'\" && "
                    "d.querySelector('.hljs-addition .hljs-number').textContent === '2' && "
                    "d.querySelector('.hljs-meta').textContent.startsWith('@@')"))
                .toBool());
        QVERIFY(
            runJavaScript(
                page, QStringLiteral(
                          "document.querySelector('.changes details.change[data-path=\"new.html\"] "
                          ".hljs-addition .hljs-tag') !== null"))
                .toBool());
        QTest::qWait(300);
        screenshot(&view, QStringLiteral("transcript-highlighting.png"));

        // Opened again from the store, the ended turn has its block again.
        view.showTopic(QStringLiteral("corp"), QStringLiteral("other"));
        view.showTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(waitForScript(
            page,
            files + QStringLiteral(" === 'added new.html,deleted gone.txt,modified edit.py'")));
        QCOMPARE(runJavaScript(
                     page, QStringLiteral("String(document.querySelectorAll('.changes').length)"))
                     .toString(),
                 QStringLiteral("1"));
    }

    // pi names its tools and their arguments its own way: its write and edit
    // are shown as code too, an edit of several replacements as one diff.
    void showsPisWritesAndEditsAsCode()
    {
        TranscriptView view(*m_workspace);
        turns::TurnRecord turn;
        QVERIFY(showsARunningTurn(view, *m_store, turn));
        turns::TurnRecords records(*m_store);
        const QList<turns::TurnEventRecord> events{
            toolEvent(turn.id, 1, QStringLiteral("write"), QStringLiteral("pi_write"),
                      {{QStringLiteral("path"), QStringLiteral("hello.py")},
                       {QStringLiteral("content"), QStringLiteral("def hello():\n    pass\n")}}),
            toolEvent(turn.id, 2, QStringLiteral("edit"), QStringLiteral("pi_edit"),
                      {{QStringLiteral("path"), QStringLiteral("hello.py")},
                       {QStringLiteral("edits"),
                        QJsonArray{QJsonObject{{QStringLiteral("oldText"), QStringLiteral("hello")},
                                               {QStringLiteral("newText"), QStringLiteral("hi")}},
                                   QJsonObject{
                                       {QStringLiteral("oldText"), QStringLiteral("pass")},
                                       {QStringLiteral("newText"), QStringLiteral("return 1")}}}}}),
            toolEvent(turn.id, 3, QStringLiteral("edit"), QStringLiteral("pi_edit_legacy"),
                      {{QStringLiteral("path"), QStringLiteral("hello.py")},
                       {QStringLiteral("oldText"), QStringLiteral("hi")},
                       {QStringLiteral("newText"), QStringLiteral("hey")}})};
        QVERIFY(records.appendEvents(events).ok());
        view.addEvents(events);
        QWebEnginePage *page = view.page();
        QVERIFY(waitForScript(
            page, QStringLiteral("document.querySelectorAll('details.tool').length === 3")));
        const QString write = openTool(page, QStringLiteral("pi_write"));
        QVERIFY(!write.isEmpty());
        QCOMPARE(runJavaScript(page, write + QStringLiteral(".textContent")).toString(),
                 QStringLiteral("def hello():\n    pass\n"));
        QVERIFY(runJavaScript(page, write + QStringLiteral(".querySelector('.hljs-keyword') "
                                                           "!== null"))
                    .toBool());
        const QString edit = openTool(page, QStringLiteral("pi_edit"));
        QVERIFY(!edit.isEmpty());
        const QString diff = runJavaScript(page, edit + QStringLiteral(".textContent")).toString();
        QVERIFY2(diff.startsWith(QStringLiteral("-hello\n+hi\n")), qPrintable(diff));
        QVERIFY2(diff.endsWith(QStringLiteral("\n-pass\n+return 1")), qPrintable(diff));
        const QString legacy = openTool(page, QStringLiteral("pi_edit_legacy"));
        QVERIFY(!legacy.isEmpty());
        QCOMPARE(runJavaScript(page, legacy + QStringLiteral(".textContent")).toString(),
                 QStringLiteral("-hi\n+hey"));
    }

    void aHostileCodeBlockRendersInert()
    {
        TranscriptView view(*m_workspace);
        turns::TurnRecord turn;
        QVERIFY(showsARunningTurn(view, *m_store, turn));
        turns::TurnRecords records(*m_store);
        const QString hostile = QStringLiteral(
            "</code></pre></script><script>window.canary = 'code'</script>"
            "<img src=x onerror=\"window.canary = 'img'\"><iframe src=\"https://example.com/\">"
            "</iframe><span class=\"hljs-keyword\" onclick=\"window.canary = 'span'\">x</span>");
        const QString longLine = QString(300000, QLatin1Char('a')) + hostile;
        const QList<turns::TurnEventRecord> events{
            textEvent(turn.id, 1, QStringLiteral("```html\n%1\n```\n").arg(hostile)),
            textEvent(turn.id, 2,
                      QStringLiteral("```<script>window.canary='fence'</script>\n"
                                     "%1\n```\n")
                          .arg(hostile)),
            toolEvent(turn.id, 3, QStringLiteral("Write"), QStringLiteral("toolu_write"),
                      {{QStringLiteral("file_path"), QStringLiteral("/home/agent/x.html")},
                       {QStringLiteral("content"), hostile}}),
            toolEvent(turn.id, 4, QStringLiteral("Edit"), QStringLiteral("toolu_edit"),
                      {{QStringLiteral("file_path"), QStringLiteral("/home/agent/x.svg")},
                       {QStringLiteral("old_string"), hostile},
                       {QStringLiteral("new_string"), QStringLiteral("<svg onload=\"window.canary"
                                                                     " = 'svg'\"/>")}}),
            textEvent(turn.id, 5, QStringLiteral("```javascript\n%1\n```\n").arg(longLine)),
            textEvent(turn.id, 6, QStringLiteral("```\n%1\n```\n").arg(longLine))};
        QVERIFY(records.appendEvents(events).ok());
        view.addEvents(events);
        QWebEnginePage *page = view.page();
        QVERIFY(waitForScript(
            page,
            QStringLiteral("document.querySelectorAll('section.turn > .text').length === 4")));
        // The blocks are highlighted where they are seen: each is brought into view.
        for (int block = 0; block < 4; ++block) {
            runJavaScript(page, QStringLiteral("document.querySelectorAll('.text pre code')[%1]"
                                               ".scrollIntoView(); true")
                                    .arg(block));
            QVERIFY2(
                waitForScript(
                    page, QStringLiteral("document.querySelectorAll('.text pre code')[%1].classList"
                                         ".contains('hljs')")
                              .arg(block)),
                qPrintable(QString::number(block)));
        }
        QVERIFY(!openTool(page, QStringLiteral("toolu_write")).isEmpty());
        QVERIFY(!openTool(page, QStringLiteral("toolu_edit")).isEmpty());
        // Highlighted as HTML, all of it text.
        QVERIFY(
            runJavaScript(
                page, QStringLiteral(
                          "document.querySelector('.text code.language-html .hljs-tag') !== null"))
                .toBool());
        QVERIFY(
            runJavaScript(
                page, QStringLiteral(
                          "document.querySelector('.text code.language-html').textContent === %1")
                          .arg(QStringLiteral("'") +
                               QString(hostile).replace(QLatin1Char('\''), QStringLiteral("\\'")) +
                               QStringLiteral("\\n'")))
                .toBool());
        // The long lines are there whole, plain past the limit.
        QCOMPARE(
            runJavaScript(
                page,
                QStringLiteral(
                    "String(document.querySelectorAll('.text pre code')[2].textContent.length)"))
                .toString(),
            QString::number(longLine.size() + 1));
        QCOMPARE(
            runJavaScript(
                page, QStringLiteral(
                          "String(document.querySelectorAll('.text pre code')[2].children.length)"))
                .toString(),
            QStringLiteral("0"));

        // Nothing ran, nothing was added: only the page's own elements.
        verifyNothingRan(page);
        QCOMPARE(
            runJavaScript(
                page, QStringLiteral(
                          "Array.from(new Set(Array.from(document.querySelectorAll('#turns pre *'))"
                          ".map(e => e.tagName))).sort().join(',')"))
                .toString(),
            QStringLiteral("CODE,SPAN"));

        // The page still works: a later event shows.
        const turns::TurnEventRecord after = textEvent(turn.id, 7, QStringLiteral("still here"));
        QVERIFY(records.appendEvents({after}).ok());
        view.addEvents({after});
        QVERIFY(waitForScript(
            page,
            QStringLiteral(
                "document.querySelector('section.turn > .text:last-child').textContent.trim() === "
                "'still here'")));
        runJavaScript(page, QStringLiteral("window.scrollTo(0, 0); true"));
        QTest::qWait(300);
        screenshot(&view, QStringLiteral("transcript-hostile-code.png"));
        QVERIFY(runJavaScript(page, canaryUnset).toBool());
    }

private:
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    TranscriptPageTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_transcript_page.moc"
