// Claude Code's stream-json lines become the transcript's typed events. The
// fixture is a real recording: Claude Code 2.1.332 running Bash once
// against a scripted model.

#include "agent/agent_events.h"

#include <QFile>
#include <QJsonArray>
#include <QTest>

using namespace arizuko::agent;

class TestAgentEvents final : public QObject
{
    Q_OBJECT

private:
    static QList<AgentEvent> recordedTurn()
    {
        QFile file(QStringLiteral(AGENT_FIXTURES "/claude-2.1.332-bash-turn.jsonl"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot open the fixture");
        QList<AgentEvent> events;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                events += agentEventsFromLine(QString::fromUtf8(line));
        }
        return events;
    }

private slots:
    void recordedTurnIsTypedInOrder()
    {
        const QList<AgentEvent> events = recordedTurn();
        QStringList kinds;
        for (const AgentEvent &event : events)
            kinds << event.kind;
        QCOMPARE(kinds, (QStringList{QStringLiteral("init"), QStringLiteral("tool_use"),
                                     QStringLiteral("tool_result"), QStringLiteral("text"),
                                     QStringLiteral("result")}));

        const QJsonObject init = events[0].json;
        QCOMPARE(init.value(QStringLiteral("session_id")).toString(),
                 QStringLiteral("faf2108e-aa09-4631-8de1-cec53d649fdf"));
        QCOMPARE(init.value(QStringLiteral("claude_code_version")).toString(),
                 QStringLiteral("2.1.332"));
        QVERIFY(init.value(QStringLiteral("tools")).toArray().contains(QStringLiteral("Bash")));

        const QJsonObject use = events[1].json;
        QCOMPARE(use.value(QStringLiteral("name")).toString(), QStringLiteral("Bash"));
        QCOMPARE(use.value(QStringLiteral("summary")).toString(),
                 QStringLiteral("Bash: echo hi > hello.txt; uname -a"));
        const QJsonObject result = events[2].json;
        QCOMPARE(result.value(QStringLiteral("tool_use_id")).toString(),
                 use.value(QStringLiteral("id")).toString());
        QVERIFY(result.value(QStringLiteral("content"))
                    .toString()
                    .startsWith(QStringLiteral("Linux ")));
        QCOMPARE(result.value(QStringLiteral("is_error")).toBool(), false);
        QCOMPARE(events[3].json.value(QStringLiteral("text")).toString(),
                 QStringLiteral("Done: 4"));

        const QJsonObject end = events[4].json;
        QCOMPARE(end.value(QStringLiteral("subtype")).toString(), QStringLiteral("success"));
        QCOMPARE(end.value(QStringLiteral("num_turns")).toInteger(), 2);
        const QJsonObject usage = end.value(QStringLiteral("usage")).toObject();
        QCOMPARE(usage.value(QStringLiteral("input_tokens")).toInteger(), 24);
        QCOMPARE(usage.value(QStringLiteral("output_tokens")).toInteger(), 14);
        QVERIFY(end.contains(QStringLiteral("agent_cost_usd")));
    }

    // Whatever the agent prints that is not Claude Code's JSON is kept as
    // plain output: nothing dropped, nothing trusted.
    void otherLinesArePlainOutput_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("text") << QStringLiteral("hello from a shell");
        QTest::newRow("array") << QStringLiteral("[1,2,3]");
        QTest::newRow("unknown type") << QStringLiteral(R"({"type":"rate_limit_event"})");
        QTest::newRow("system but not init")
            << QStringLiteral(R"({"type":"system","subtype":"compact_boundary"})");
        QTest::newRow("truncated") << QStringLiteral(R"({"type":"assistant","message":{)");
        QTest::newRow("html") << QStringLiteral("<script>alert(1)</script>");
    }
    void otherLinesArePlainOutput()
    {
        QFETCH(QString, line);
        const QList<AgentEvent> events = agentEventsFromLine(line);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, QStringLiteral("output"));
        QCOMPARE(events[0].json.value(QStringLiteral("line")).toString(), line);
    }

    // Claude Code 2.1's progress lines for a running tool are typed, so they
    // neither show as the agent's output nor interleave a tool's result.
    void toolProgressIsTypedNotOutput()
    {
        const QList<AgentEvent> events = agentEventsFromLine(QStringLiteral(
            R"({"type":"tool_progress","tool_use_id":"toolu_1","tool_name":"Bash",)"
            R"("parent_tool_use_id":null,"elapsed_time_seconds":3.5,"session_id":"s"})"));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, QStringLiteral("tool_progress"));
        QCOMPARE(events[0].json.value(QStringLiteral("tool_use_id")).toString(),
                 QStringLiteral("toolu_1"));
        QCOMPARE(events[0].json.value(QStringLiteral("tool_name")).toString(),
                 QStringLiteral("Bash"));
        QCOMPARE(events[0].json.value(QStringLiteral("elapsed_seconds")).toDouble(), 3.5);
    }

    // Claude Code 2.1's task lines for a shell command that runs a while
    // are typed too: raw, they interleaved the command's tool_use and result.
    void taskLinesAreTypedNotOutput()
    {
        const QList<AgentEvent> started = agentEventsFromLine(QStringLiteral(
            R"({"type":"system","subtype":"task_started","task_id":"b1","tool_use_id":"toolu_1",)"
            R"("description":"sh inspect.sh","is_backgrounded":false,"task_type":"local_bash"})"));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started[0].kind, QStringLiteral("task"));
        QCOMPARE(started[0].json.value(QStringLiteral("subtype")).toString(),
                 QStringLiteral("task_started"));
        QCOMPARE(started[0].json.value(QStringLiteral("tool_use_id")).toString(),
                 QStringLiteral("toolu_1"));
        QCOMPARE(started[0].json.value(QStringLiteral("description")).toString(),
                 QStringLiteral("sh inspect.sh"));
        const QList<AgentEvent> ended = agentEventsFromLine(QStringLiteral(
            R"({"type":"system","subtype":"task_notification","task_id":"b1",)"
            R"("tool_use_id":"toolu_1","status":"completed","summary":"sh inspect.sh"})"));
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended[0].kind, QStringLiteral("task"));
        QCOMPARE(ended[0].json.value(QStringLiteral("status")).toString(),
                 QStringLiteral("completed"));
        QCOMPARE(ended[0].json.value(QStringLiteral("task_id")).toString(), QStringLiteral("b1"));
    }

    void oneAssistantMessageMayHoldSeveralBlocks()
    {
        const QList<AgentEvent> events = agentEventsFromLine(QStringLiteral(
            R"({"type":"assistant","message":{"id":"m1","content":[)"
            R"({"type":"thinking","thinking":"hmm"},{"type":"text","text":"Let me look."},)"
            R"({"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/home/agent/a.md"}}]}})"));
        QCOMPARE(events.size(), 3);
        QCOMPARE(events[0].kind, QStringLiteral("thinking"));
        QCOMPARE(events[1].kind, QStringLiteral("text"));
        QCOMPARE(events[2].kind, QStringLiteral("tool_use"));
        QCOMPARE(events[2].json.value(QStringLiteral("summary")).toString(),
                 QStringLiteral("Read: /home/agent/a.md"));
        for (const AgentEvent &event : events)
            QCOMPARE(event.json.value(QStringLiteral("message_id")).toString(),
                     QStringLiteral("m1"));
    }

    void toolResultBlocksBecomeText()
    {
        const QList<AgentEvent> events = agentEventsFromLine(QStringLiteral(
            R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1",)"
            R"("is_error":true,"content":[{"type":"text","text":"no such file"},{"type":"image"}]}]}})"));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].json.value(QStringLiteral("content")).toString(),
                 QStringLiteral("no such file\n[image]"));
        QVERIFY(events[0].json.value(QStringLiteral("is_error")).toBool());
    }

    void summariesAreOneShortLine()
    {
        const QString summary =
            toolCallSummary(QStringLiteral("Bash"),
                            QJsonObject{{QStringLiteral("command"),
                                         QStringLiteral("for i in 1 2 3\ndo echo $i\ndone ") +
                                             QString(200, QLatin1Char('x'))}},
                            40);
        QCOMPARE(summary.size(), 40);
        QVERIFY(!summary.contains(QLatin1Char('\n')));
        QVERIFY(summary.startsWith(QStringLiteral("Bash: for i in 1 2 3 do echo $i done")));
        QCOMPARE(toolCallSummary(QStringLiteral("TodoWrite"), {}), QStringLiteral("TodoWrite"));
    }
};

QTEST_GUILESS_MAIN(TestAgentEvents)
#include "test_agent_events.moc"
