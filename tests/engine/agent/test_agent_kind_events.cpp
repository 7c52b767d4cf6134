// Codex's and pi's JSON lines become the transcript's typed events, the same
// kinds Claude Code's stream-json becomes. The fixtures are real
// recordings against the scripted model (docs/agents.md says how they were
// made): Codex 0.171.0 and pi 0.73.1 each running one shell command that
// writes a file in a turn VM and resuming that session in the next turn's
// VM; and each meeting a 401 from the model API (recorded on the host).
// pi-0.73.1-rpc-turn.jsonl is pi started ahead of its prompt (`--mode
// rpc`), given get_state and the prompt on stdin, recorded on the host with
// its home's path rewritten to the guest's.

#include "agent/codex_events.h"
#include "agent/pi_events.h"

#include <QFile>
#include <QJsonArray>
#include <QTest>

using namespace arizuko::agent;

namespace {

QStringList fixtureLines(const char *name)
{
    QFile file(QStringLiteral(AGENT_FIXTURES "/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open the fixture %s", name);
    QStringList lines;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.isEmpty())
            lines << QString::fromUtf8(line);
    }
    return lines;
}

template<typename Reader>
QList<AgentEvent> readAll(Reader &reader, const char *fixture)
{
    QList<AgentEvent> events;
    for (const QString &line : fixtureLines(fixture))
        events += reader.read(line);
    return events;
}

// A turn of one shell command: the call, its result and the answer.
const QStringList oneCommandTurn{QStringLiteral("init"),     QStringLiteral("text"),
                                 QStringLiteral("tool_use"), QStringLiteral("tool_result"),
                                 QStringLiteral("text"),     QStringLiteral("result")};

QStringList kindsOf(const QList<AgentEvent> &events)
{
    QStringList kinds;
    for (const AgentEvent &event : events)
        kinds << event.kind;
    return kinds;
}

} // namespace

class TestAgentKindEvents final : public QObject
{
    Q_OBJECT

private slots:
    void codexTurnIsTypedInOrder()
    {
        CodexEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "codex-0.171.0-bash-turn.jsonl");
        // The model-metadata warning Codex gives for a model it does not
        // know stays visible as output.
        QCOMPARE(kindsOf(events), (QStringList{QStringLiteral("init"), QStringLiteral("output"),
                                               QStringLiteral("text"), QStringLiteral("tool_use"),
                                               QStringLiteral("tool_result"),
                                               QStringLiteral("text"), QStringLiteral("result")}));
        const QJsonObject init = events[0].json;
        QCOMPARE(init.value(QStringLiteral("agent")).toString(), QStringLiteral("codex"));
        QCOMPARE(init.value(QStringLiteral("session_id")).toString(), reader.threadId());
        QVERIFY(!reader.threadId().isEmpty());
        QCOMPARE(events[2].json.value(QStringLiteral("text")).toString(),
                 QStringLiteral("I will look at the machine and write a note."));
        const QJsonObject use = events[3].json;
        QCOMPARE(use.value(QStringLiteral("name")).toString(), QStringLiteral("shell"));
        QCOMPARE(use.value(QStringLiteral("input"))
                     .toObject()
                     .value(QStringLiteral("command"))
                     .toString(),
                 QStringLiteral(
                     "/bin/sh -lc 'uname -s; echo written-by-codex > note.txt; cat note.txt'"));
        const QJsonObject result = events[4].json;
        QCOMPARE(result.value(QStringLiteral("tool_use_id")).toString(),
                 use.value(QStringLiteral("id")).toString());
        QCOMPARE(result.value(QStringLiteral("content")).toString(),
                 QStringLiteral("Linux\nwritten-by-codex\n"));
        QCOMPARE(result.value(QStringLiteral("is_error")).toBool(), false);
        const QJsonObject end = events[6].json;
        QCOMPARE(end.value(QStringLiteral("subtype")).toString(), QStringLiteral("success"));
        QCOMPARE(end.value(QStringLiteral("text")).toString(),
                 QStringLiteral("Done: the note is written."));
        QCOMPARE(end.value(QStringLiteral("usage_scope")).toString(), QStringLiteral("thread"));
        QVERIFY(end.value(QStringLiteral("usage"))
                    .toObject()
                    .value(QStringLiteral("input_tokens"))
                    .toInteger() > 0);
    }

    void codexResumedTurnKeepsItsThread()
    {
        // Resumed in a new VM with a fresh CODEX_HOME whose sessions/ is
        // the home's: the same thread, and Codex's usage now counts both
        // turns (the gateway counted this one alone).
        CodexEventReader first;
        const QList<AgentEvent> firstEvents = readAll(first, "codex-0.171.0-bash-turn.jsonl");
        CodexEventReader resumed;
        const QList<AgentEvent> events = readAll(resumed, "codex-0.171.0-resumed-turn.jsonl");
        QCOMPARE(resumed.threadId(), first.threadId());
        const auto inputTokens = [](const AgentEvent &result) {
            return result.json.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("input_tokens"))
                .toInteger();
        };
        QVERIFY(inputTokens(events.last()) > inputTokens(firstEvents.last()));
        QCOMPARE(events.last().kind, QStringLiteral("result"));
        QCOMPARE(events.last().json.value(QStringLiteral("is_error")).toBool(), false);
    }

    void codexFailureIsAFailedResultWithTheReason()
    {
        CodexEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "codex-0.171.0-401.jsonl");
        QCOMPARE(events.last().kind, QStringLiteral("result"));
        const QJsonObject end = events.last().json;
        QCOMPARE(end.value(QStringLiteral("is_error")).toBool(), true);
        QVERIFY2(end.value(QStringLiteral("text"))
                     .toString()
                     .contains(QStringLiteral("401 Unauthorized: invalid x-api-key")),
                 qPrintable(end.value(QStringLiteral("text")).toString()));
        // Its retries ("Reconnecting... 1/5") are visible as output before.
        QVERIFY(events[events.size() - 2]
                    .json.value(QStringLiteral("line"))
                    .toString()
                    .contains(QStringLiteral("401")));
    }

    void codexCallsBeyondTheShellAreShown()
    {
        CodexEventReader reader;
        const QList<AgentEvent> events = reader.read(QStringLiteral(
            R"({"type":"item.completed","item":{"id":"item_5","type":"mcp_tool_call","server":"arizuko",)"
            R"("tool":"list_topics","arguments":{"folder":"corp"},"result":{"content":[{"type":"text","text":"main"}]},)"
            R"("error":null,"status":"completed"}})"));
        QCOMPARE(kindsOf(events),
                 (QStringList{QStringLiteral("tool_use"), QStringLiteral("tool_result")}));
        QCOMPARE(events[0].json.value(QStringLiteral("name")).toString(),
                 QStringLiteral("mcp__arizuko__list_topics"));
        QCOMPARE(events[1].json.value(QStringLiteral("content")).toString(),
                 QStringLiteral("main"));
        const QList<AgentEvent> change = reader.read(QStringLiteral(
            R"({"type":"item.completed","item":{"id":"item_6","type":"file_change","changes":[{"path":"a.txt","kind":"add"}],"status":"completed"}})"));
        QCOMPARE(change[1].json.value(QStringLiteral("content")).toString(),
                 QStringLiteral("add a.txt"));
    }

    void piTurnIsTypedInOrder()
    {
        PiEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "pi-0.73.1-bash-turn.jsonl");
        QCOMPARE(kindsOf(events), oneCommandTurn);
        const QJsonObject init = events[0].json;
        QCOMPARE(init.value(QStringLiteral("agent")).toString(), QStringLiteral("pi"));
        QCOMPARE(init.value(QStringLiteral("cwd")).toString(), QStringLiteral("/home/agent"));
        QCOMPARE(init.value(QStringLiteral("session_id")).toString(), reader.sessionId());
        QVERIFY(!reader.sessionId().isEmpty());
        const QJsonObject use = events[2].json;
        QCOMPARE(use.value(QStringLiteral("name")).toString(), QStringLiteral("bash"));
        QCOMPARE(use.value(QStringLiteral("summary")).toString(),
                 QStringLiteral("bash: uname -s; echo written-by-pi > note.txt; cat note.txt"));
        const QJsonObject result = events[3].json;
        QCOMPARE(result.value(QStringLiteral("tool_use_id")).toString(),
                 use.value(QStringLiteral("id")).toString());
        // The guest's real answer: its kernel's name and the file written.
        QCOMPARE(result.value(QStringLiteral("content")).toString(),
                 QStringLiteral("Linux\nwritten-by-pi\n"));
        QCOMPARE(result.value(QStringLiteral("is_error")).toBool(), false);
        QCOMPARE(events[4].json.value(QStringLiteral("text")).toString(),
                 QStringLiteral("Done: the note is written."));
        const QJsonObject end = events[5].json;
        QCOMPARE(end.value(QStringLiteral("subtype")).toString(), QStringLiteral("success"));
        QCOMPARE(end.value(QStringLiteral("text")).toString(),
                 QStringLiteral("Done: the note is written."));
        QCOMPARE(end.value(QStringLiteral("num_turns")).toInt(), 2);
        const QJsonObject usage = end.value(QStringLiteral("usage")).toObject();
        QVERIFY(usage.value(QStringLiteral("input_tokens")).toInteger() > 0);
        QVERIFY(usage.value(QStringLiteral("output_tokens")).toInteger() > 0);
    }

    // A started pi prints no session header: its answer to get_state names
    // the session; its answer to the prompt command adds nothing.
    void piStartedAheadIsTypedInOrderWithItsSession()
    {
        PiEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "pi-0.73.1-rpc-turn.jsonl");
        QCOMPARE(kindsOf(events), oneCommandTurn);
        QCOMPARE(events[0].json.value(QStringLiteral("session_id")).toString(),
                 QStringLiteral("01a23796-017f-76e3-a846-7ba2c3047f78"));
        QCOMPARE(reader.sessionId(), QStringLiteral("01a23796-017f-76e3-a846-7ba2c3047f78"));
        // Its shell read the turn's id from the file PID 1 writes at the spec.
        QCOMPARE(events[3].json.value(QStringLiteral("content")).toString(),
                 QStringLiteral("turn=t-42\nwritten-by-pi\n"));
        QCOMPARE(events[5].json.value(QStringLiteral("subtype")).toString(),
                 QStringLiteral("success"));
        QCOMPARE(events[5].json.value(QStringLiteral("session_id")).toString(), reader.sessionId());
    }

    void aPromptAStartedPiRefusesFailsTheTurnWithItsReason()
    {
        PiEventReader reader;
        const QList<AgentEvent> events = reader.read(QStringLiteral(
            R"({"type":"response","command":"prompt","success":false,"error":"No model selected"})"));
        QCOMPARE(kindsOf(events), QStringList{QStringLiteral("result")});
        QCOMPARE(events[0].json.value(QStringLiteral("is_error")).toBool(), true);
        QCOMPARE(events[0].json.value(QStringLiteral("text")).toString(),
                 QStringLiteral("pi refused its prompt: No model selected"));
    }

    void piResumedTurnKeepsItsSession()
    {
        // The second turn ran in a new VM with --session <id> and went on
        // in the same session (its file in the home holds both prompts).
        PiEventReader first;
        readAll(first, "pi-0.73.1-bash-turn.jsonl");
        PiEventReader resumed;
        const QList<AgentEvent> events = readAll(resumed, "pi-0.73.1-resumed-turn.jsonl");
        QCOMPARE(resumed.sessionId(), first.sessionId());
        QCOMPARE(events.first().kind, QStringLiteral("init"));
        QCOMPARE(events.last().kind, QStringLiteral("result"));
        QCOMPARE(events.last().json.value(QStringLiteral("session_id")).toString(),
                 first.sessionId());
    }

    void piFailureIsAFailedResultThoughPiExitsZero()
    {
        PiEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "pi-0.73.1-401.jsonl");
        QCOMPARE(kindsOf(events), (QStringList{QStringLiteral("init"), QStringLiteral("result")}));
        const QJsonObject end = events.last().json;
        QCOMPARE(end.value(QStringLiteral("is_error")).toBool(), true);
        QCOMPARE(end.value(QStringLiteral("subtype")).toString(), QStringLiteral("error"));
        QVERIFY2(end.value(QStringLiteral("text"))
                     .toString()
                     .contains(QStringLiteral("invalid x-api-key")),
                 qPrintable(end.value(QStringLiteral("text")).toString()));
    }

    void piDropMidStreamIsAFailedResult()
    {
        // With the launch's settings.json (no agent-level retry) a stream
        // cut mid-reply ends the turn at once.
        PiEventReader reader;
        const QList<AgentEvent> events = readAll(reader, "pi-0.73.1-drop.jsonl");
        QCOMPARE(events.last().kind, QStringLiteral("result"));
        QCOMPARE(events.last().json.value(QStringLiteral("is_error")).toBool(), true);
        QCOMPARE(events.last().json.value(QStringLiteral("text")).toString(),
                 QStringLiteral("terminated"));
    }

    void otherLinesArePlainOutput_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("text") << QStringLiteral("hello from a shell");
        QTest::newRow("array") << QStringLiteral("[1,2,3]");
        QTest::newRow("unknown type") << QStringLiteral(R"({"type":"auto_compaction_start"})");
        QTest::newRow("truncated") << QStringLiteral(R"({"type":"message_end","message":{)");
    }

    void otherLinesArePlainOutput()
    {
        QFETCH(QString, line);
        for (const QList<AgentEvent> &events :
             {PiEventReader().read(line), CodexEventReader().read(line)}) {
            QCOMPARE(events.size(), 1);
            QCOMPARE(events.first().kind, QStringLiteral("output"));
            QCOMPARE(events.first().json.value(QStringLiteral("line")).toString(), line);
        }
    }

    void aPiTurnThatNeverAnsweredFails()
    {
        PiEventReader reader;
        const QList<AgentEvent> events =
            reader.read(QStringLiteral(R"({"type":"agent_end","messages":[]})"));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().json.value(QStringLiteral("is_error")).toBool(), true);
    }
};

QTEST_GUILESS_MAIN(TestAgentKindEvents)
#include "test_agent_kind_events.moc"
