// One turn's MCP server over a real store: what tools/list shows and what
// tools/call does follow the folder's grants as they are at that moment,
// every call is decided (and audited) before any tool runs, and the
// refusals are tool errors the agent reads. Then the same over /mcp on a
// real gateway, behind its peer and token checks.

#include "agent/claude_session.h"
#include "agent/topic_fork.h"
#include "audit/audit_log.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "gateway/model_gateway.h"
#include "http_test_client.h"
#include "policy_fixture.h"
#include "tools/mcp_server.h"
#include "tools/topic_messages.h"
#include "tools/turn_tools.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace arizuko;
using namespace arizuko::tools;

namespace {

QByteArray rpc(const QString &method, const QJsonObject &params = {}, int id = 1)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

QJsonObject parsed(const gateway::ToolReply &reply)
{
    return QJsonDocument::fromJson(reply.body).object();
}

QByteArray callBody(const QString &tool, const QJsonObject &arguments)
{
    return rpc(QStringLiteral("tools/call"),
               {{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}});
}

} // namespace

class TestMcpServer final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PolicyFixture> m_fixture;
    std::unique_ptr<TurnTools> m_tools;
    std::unique_ptr<McpServer> m_server;
    QList<TurnOrder> m_orders;

    void bind(const QString &folder, int depth = 0)
    {
        m_server.reset();
        m_tools = std::make_unique<TurnTools>(
            m_fixture->store(), TurnBinding{QStringLiteral("t1"), folder, QStringLiteral("main"),
                                            depth, 3},
            [this](const TurnOrder &order) -> Result<QString> {
                m_orders << order;
                return QStringLiteral("az-child%1").arg(m_orders.size());
            });
        m_server = std::make_unique<McpServer>(*m_tools);
    }

    qint64 grant(const QString &action, const QString &scope,
                 policy::GrantParams params = {})
    {
        auto added = m_fixture->grants().add(
            row(QStringLiteral("corp/eng"), action, scope, policy::Effect::Allow, params),
            QStringLiteral("user"));
        if (!added)
            qFatal("%s", qPrintable(added.error().message));
        return added->id;
    }

    // One POST's reply, waiting for it when a tool answers later.
    gateway::ToolReply handled(const QByteArray &body)
    {
        std::optional<gateway::ToolReply> answer;
        m_server->handle(body, [&answer](const gateway::ToolReply &reply) { answer = reply; });
        if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 60000))
            qFatal("no reply to %s within a minute", body.constData());
        return *answer;
    }

    QStringList listedNames()
    {
        const QJsonObject reply = parsed(handled(rpc(QStringLiteral("tools/list"))));
        QStringList names;
        for (const QJsonValue &tool : reply.value(QStringLiteral("result"))
                                          .toObject()
                                          .value(QStringLiteral("tools"))
                                          .toArray())
            names << tool.toObject().value(QStringLiteral("name")).toString();
        return names;
    }

    // {text, isError} of one tools/call.
    std::pair<QString, bool> call(const QString &tool, const QJsonObject &arguments)
    {
        const QJsonObject result =
            parsed(handled(callBody(tool, arguments))).value(QStringLiteral("result")).toObject();
        return {result.value(QStringLiteral("content")).toArray().at(0).toObject().value(
                    QStringLiteral("text")).toString(),
                result.value(QStringLiteral("isError")).toBool()};
    }

    QList<audit::Entry> decisions()
    {
        audit::Query query;
        query.kind = QStringLiteral("grant.decision");
        auto entries = audit::AuditLog(m_fixture->store()).query(query);
        if (!entries)
            qFatal("%s", qPrintable(entries.error().message));
        return *entries;
    }

private slots:
    void init()
    {
        m_fixture = std::make_unique<PolicyFixture>();
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "other"})
            m_fixture->addFolder(QString::fromLatin1(folder));
        QVERIFY(folders::Topics(m_fixture->store(), QStringLiteral("user"))
                    .add(QStringLiteral("corp/eng"), QStringLiteral("main")));
        m_orders.clear();
        bind(QStringLiteral("corp/eng"));
    }

    void cleanup()
    {
        m_server.reset();
        m_tools.reset();
        m_fixture.reset();
    }

    void initializeNegotiatesTheProtocolVersion()
    {
        auto asked = [this](const QString &version) {
            return parsed(handled(rpc(QStringLiteral("initialize"),
                                      {{QStringLiteral("protocolVersion"), version},
                                       {QStringLiteral("capabilities"), QJsonObject{}}})))
                .value(QStringLiteral("result"))
                .toObject();
        };
        QCOMPARE(
            asked(QStringLiteral("2025-06-18")).value(QStringLiteral("protocolVersion")).toString(),
            QStringLiteral("2025-06-18"));
        const QJsonObject unknown = asked(QStringLiteral("2099-01-01"));
        QCOMPARE(unknown.value(QStringLiteral("protocolVersion")).toString(),
                 supportedProtocolVersions().first());
        QVERIFY(unknown.value(QStringLiteral("capabilities"))
                    .toObject()
                    .contains(QStringLiteral("tools")));
        QCOMPARE(unknown.value(QStringLiteral("serverInfo"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("arizuko"));
    }

    void notificationsAndMalformedBodies()
    {
        const auto notification =
            handled(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        QCOMPARE(notification.status, 202);
        QVERIFY(notification.body.isEmpty());
        const auto notJson = handled("{nope");
        QCOMPARE(notJson.status, 400);
        QCOMPARE(parsed(notJson)
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("code"))
                     .toInt(),
                 -32700);
        QCOMPARE(handled("[]").status, 400);
        QCOMPARE(handled(R"({"jsonrpc":"1.0","id":1,"method":"ping"})").status, 400);
        // Claude Code's first probe: it falls back to initialize on this.
        const QJsonObject discover = parsed(handled(rpc(QStringLiteral("server/discover"))));
        QCOMPARE(discover.value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("code"))
                     .toInt(),
                 -32601);
        QCOMPARE(discover.value(QStringLiteral("id")).toInt(), 1);
    }

    void aToolWithoutAGrantIsNeitherListedNorCallable()
    {
        // The seeds give every folder arizuko's messaging verbs (mcp:send, …),
        // none of which is one of these tools.
        QVERIFY2(listedNames().isEmpty(), qPrintable(listedNames().join(u',')));
        const auto [text, isError] =
            call(QStringLiteral("send_message"), {{QStringLiteral("text"), QStringLiteral("hi")}});
        QVERIFY(isError);
        QVERIFY2(text.startsWith(QStringLiteral("refused by the grants of corp/eng")),
                 qPrintable(text));
        QVERIFY(
            topicMessages(m_fixture->store(), QStringLiteral("corp/eng"), QStringLiteral("main"))
                ->isEmpty());
        const auto logged = decisions();
        QCOMPARE(logged.size(), 1);
        QCOMPARE(logged.first().subject, QStringLiteral("corp/eng"));
        QCOMPARE(logged.first().detail.value(QStringLiteral("action")).toString(),
                 QStringLiteral("mcp:send_message"));
        QCOMPARE(logged.first().detail.value(QStringLiteral("allowed")).toBool(), false);
    }

    void aGrantedToolIsListedAndItsCallDecidedByThatGrant()
    {
        const qint64 id = grant(QStringLiteral("mcp:send_message"), QStringLiteral("corp/eng"));
        QCOMPARE(listedNames(), QStringList{QStringLiteral("send_message")});
        QSignalSpy posted(m_tools.get(), &TurnTools::messagePosted);
        QSignalSpy decided(m_tools.get(), &TurnTools::callDecided);
        const auto [text, isError] = call(QStringLiteral("send_message"),
                                          {{QStringLiteral("text"), QStringLiteral("hello user")}});
        QVERIFY2(!isError, qPrintable(text));
        const auto messages =
            topicMessages(m_fixture->store(), QStringLiteral("corp/eng"), QStringLiteral("main"));
        QCOMPARE(messages->size(), 1);
        QCOMPARE(messages->first().content, QStringLiteral("hello user"));
        QCOMPARE(posted.size(), 1);
        QCOMPARE(decided.size(), 1);
        QCOMPARE(decided.first().first().toJsonObject().value(QStringLiteral("grant")).toInteger(),
                 id);
        const auto logged = decisions();
        QCOMPARE(logged.size(), 1);
        QCOMPARE(logged.first().detail.value(QStringLiteral("grant")).toInteger(), id);
        QCOMPARE(logged.first().detail.value(QStringLiteral("allowed")).toBool(), true);
    }

    void aRevokeByAnotherConnectionStopsTheNextCall()
    {
        const qint64 id = grant(QStringLiteral("mcp:send_message"), QStringLiteral("corp/**"));
        QVERIFY(
            !call(QStringLiteral("send_message"), {{QStringLiteral("text"), QStringLiteral("one")}})
                 .second);
        // Another writer (here: another store instance with its own
        // connection, as arizukoctl in another process would be).
        {
            auto other = store::Store::open(m_fixture->dataDir());
            QVERIFY(other);
            PolicyFixture::exec((*other)->database(),
                                QStringLiteral("DELETE FROM acl WHERE id = %1").arg(id));
        }
        const auto [text, isError] =
            call(QStringLiteral("send_message"), {{QStringLiteral("text"), QStringLiteral("two")}});
        QVERIFY2(isError, qPrintable(text));
        QVERIFY(listedNames().isEmpty());
        // And granting again works on the very next call.
        grant(QStringLiteral("mcp:send_message"), QStringLiteral("corp/eng"));
        QVERIFY(!call(QStringLiteral("send_message"),
                      {{QStringLiteral("text"), QStringLiteral("three")}})
                     .second);
        QCOMPARE(decisions().size(), 3);
    }

    void aDenyWinsAndParamsNarrowTheCall()
    {
        grant(QStringLiteral("mcp:network_allow"), QStringLiteral("corp/eng"),
              {{QStringLiteral("host"), QStringLiteral("*.example.com")}});
        QVERIFY(listedNames().contains(QStringLiteral("network_allow")));
        QVERIFY(!call(QStringLiteral("network_allow"),
                      {{QStringLiteral("host"), QStringLiteral("api.example.com")}})
                     .second);
        QVERIFY(call(QStringLiteral("network_allow"),
                     {{QStringLiteral("host"), QStringLiteral("evil.org")}})
                    .second);
        auto resolved = m_fixture->policy().network().resolve(QStringLiteral("corp/eng"));
        QCOMPARE(resolved->allow, QStringList{QStringLiteral("api.example.com")});
        QVERIFY(m_fixture->grants().add(row(QStringLiteral("corp/eng"), QStringLiteral("mcp:*"),
                                            QStringLiteral("**"), policy::Effect::Deny),
                                        QStringLiteral("user")));
        QVERIFY(call(QStringLiteral("network_allow"),
                     {{QStringLiteral("host"), QStringLiteral("b.example.com")}})
                    .second);
        QVERIFY(listedNames().isEmpty());
    }

    // A deny on a host holds whatever spelling the call uses: the tool acts
    // on the normalised host, and the grant is matched on that same host.
    void aHostDenyHoldsWhateverSpellingTheCallUses_data()
    {
        QTest::addColumn<QString>("deny");
        QTest::addColumn<QString>("host");
        const QString pastebin = QStringLiteral("*.pastebin.com");
        QTest::newRow("upper case") << pastebin << QStringLiteral("X.PASTEBIN.COM");
        QTest::newRow("trailing dot") << pastebin << QStringLiteral("x.pastebin.com.");
        QTest::newRow("the apex") << pastebin << QStringLiteral("PASTEBIN.COM");
        QTest::newRow("a space") << pastebin << QStringLiteral("x.pastebin.com ");
        QTest::newRow("a leading *.") << QStringLiteral("pastebin.com")
                                      << QStringLiteral("*.pastebin.com");
    }

    void aHostDenyHoldsWhateverSpellingTheCallUses()
    {
        QFETCH(QString, deny);
        QFETCH(QString, host);
        grant(QStringLiteral("mcp:network_allow"), QStringLiteral("corp/eng"));
        QVERIFY(m_fixture->grants().add(
            row(QStringLiteral("corp/eng"), QStringLiteral("mcp:network_allow"),
                QStringLiteral("corp/eng"), policy::Effect::Deny,
                {{QStringLiteral("host"), deny}}),
            QStringLiteral("user")));
        const auto [text, isError] =
            call(QStringLiteral("network_allow"), {{QStringLiteral("host"), host}});
        QVERIFY2(isError, qPrintable(text));
        QVERIFY2(text.startsWith(QStringLiteral("refused by the grants of corp/eng")),
                 qPrintable(text));
        const auto resolved = m_fixture->policy().network().resolve(QStringLiteral("corp/eng"));
        QVERIFY2(resolved->allow.isEmpty(), qPrintable(resolved->allow.join(u',')));
        // The same call for another host goes through, normalised.
        const auto [other, refused] =
            call(QStringLiteral("network_allow"),
                 {{QStringLiteral("host"), QStringLiteral(" API.GitHub.com.")}});
        QVERIFY2(!refused, qPrintable(other));
        QCOMPARE(m_fixture->policy().network().resolve(QStringLiteral("corp/eng"))->allow,
                 QStringList{QStringLiteral("api.github.com")});
    }

    // Breadth: one turn starts at most its cap of turns, whatever the depth.
    void aTurnStartsAtMostItsCapOfTurns()
    {
        grant(QStringLiteral("mcp:delegate_group"), QStringLiteral("corp/eng/*"));
        const QJsonObject arguments{{QStringLiteral("folder"), QStringLiteral("corp/eng/sre")},
                                    {QStringLiteral("prompt"), QStringLiteral("fan out")}};
        for (int index = 0; index < 5; ++index)
            QVERIFY(!call(QStringLiteral("delegate_group"), arguments).second);
        const auto [text, isError] = call(QStringLiteral("delegate_group"), arguments);
        QVERIFY2(isError, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("turns-per-turn")), qPrintable(text));
        QCOMPARE(m_orders.size(), 5);
    }

    // And a folder's agents start at most their cap an hour, over all turns.
    void aFolderStartsAtMostItsCapOfTurnsAnHour()
    {
        grant(QStringLiteral("mcp:delegate_group"), QStringLiteral("corp/eng/*"));
        const QJsonObject arguments{{QStringLiteral("folder"), QStringLiteral("corp/eng/sre")},
                                    {QStringLiteral("prompt"), QStringLiteral("fan out")}};
        for (int index = 0; index < 20; ++index) {
            if (index % 5 == 0)
                bind(QStringLiteral("corp/eng"));
            QVERIFY(!call(QStringLiteral("delegate_group"), arguments).second);
        }
        bind(QStringLiteral("corp/eng"));
        const auto [text, isError] = call(QStringLiteral("delegate_group"), arguments);
        QVERIFY2(isError, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("turns-per-folder-hour")), qPrintable(text));
        QCOMPARE(m_orders.size(), 20);
    }

    // corp/eng's conversation in topic main: `lines` JSON lines of `width`
    // characters, where Claude Code keeps it in the folder's home.
    QString writeConversation(int lines, int width)
    {
        const auto topics = folders::Topics(m_fixture->store(), QStringLiteral("user"))
                                .list(QStringLiteral("corp/eng"));
        const QString session = topics->first().sessionId;
        const QString home = folders::Folders(m_fixture->store(), QStringLiteral("user"))
                                 .homePath(QStringLiteral("corp/eng"))
                                 .value();
        const QString path = home + u'/' + agent::claudeSessionFile(session);
        if (!QDir().mkpath(QFileInfo(path).path()))
            qFatal("cannot make %s", qPrintable(path));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        const QByteArray line =
            QJsonDocument(QJsonObject{{QStringLiteral("sessionId"), session},
                                      {QStringLiteral("text"), QString(width, u'x')}})
                .toJson(QJsonDocument::Compact) +
            '\n';
        for (int index = 0; index < lines; ++index)
            file.write(line);
        return home;
    }

    // fork_topic copies the conversation on a worker: the call returns to
    // the engine's event loop at once, which keeps turning (other turns'
    // tool calls, gateways, the window) until the copy answers the call.
    void forkTopicCopiesOffTheEngineThread()
    {
        grant(QStringLiteral("mcp:fork_topic"), QStringLiteral("corp/eng"));
        const QString home = writeConversation(40 * 1024, 1024); // 40 MiB
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(1);
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start();
        std::optional<gateway::ToolReply> answer;
        QElapsedTimer clock;
        clock.start();
        m_server->handle(callBody(QStringLiteral("fork_topic"),
                                  {{QStringLiteral("name"), QStringLiteral("side")}}),
                         [&answer](const gateway::ToolReply &reply) { answer = reply; });
        const qint64 returnedMs = clock.elapsed();
        QVERIFY2(!answer,
                 qPrintable(QStringLiteral("fork_topic answered inside the call, after %1 ms "
                                           "on the engine thread")
                                .arg(returnedMs)));
        QVERIFY(QTest::qWaitFor([&answer] { return answer.has_value(); }, 60000));
        const qint64 answeredMs = clock.elapsed();
        qInfo(
            "fork_topic of a 40 MiB conversation: the call returned after %lld ms, answered after "
            "%lld ms, %d timer ticks in between",
            returnedMs, answeredMs, ticks);
        QVERIFY2(ticks > 0,
                 "the engine's event loop did not turn while the conversation was copied");
        const QJsonObject result = parsed(*answer).value(QStringLiteral("result")).toObject();
        const QString text = result.value(QStringLiteral("content"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QStringLiteral("text"))
                                 .toString();
        QVERIFY2(!result.value(QStringLiteral("isError")).toBool(), qPrintable(text));
        QCOMPARE(text, QStringLiteral("forked topic main as side"));
        const auto topics = folders::Topics(m_fixture->store(), QStringLiteral("user"))
                                .list(QStringLiteral("corp/eng"));
        QString forkSession;
        for (const folders::Topic &topic : *topics) {
            if (topic.name == QStringLiteral("side"))
                forkSession = topic.sessionId;
        }
        QFile copy(home + u'/' + agent::claudeSessionFile(forkSession));
        QVERIFY2(copy.open(QIODevice::ReadOnly), qPrintable(copy.fileName()));
        QVERIFY(copy.size() > 40 * 1024 * 1024);
        QVERIFY(copy.readLine().contains(forkSession.toUtf8()));
    }

    // A conversation over the limit is not copied: the call says so, and
    // the fork starts afresh.
    void forkTopicRefusesToCopyOverItsLimit()
    {
        grant(QStringLiteral("mcp:fork_topic"), QStringLiteral("corp/eng"));
        writeConversation(int(agent::maxForkedSessionBytes / 1024) + 1, 1024);
        const auto [text, isError] =
            call(QStringLiteral("fork_topic"), {{QStringLiteral("name"), QStringLiteral("big")}});
        QVERIFY2(isError, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("larger than the 64 MiB a fork copies")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("its first turn starts afresh")), qPrintable(text));
    }

    void delegateGroupQueuesAChildTurnWithinTheDepthLimit()
    {
        grant(QStringLiteral("mcp:delegate_group"), QStringLiteral("corp/eng/*"));
        QCOMPARE(listedNames(), QStringList{QStringLiteral("delegate_group")});
        const auto [text, isError] =
            call(QStringLiteral("delegate_group"),
                 {{QStringLiteral("folder"), QStringLiteral("corp/eng/sre")},
                  {QStringLiteral("prompt"), QStringLiteral("check the pager")}});
        QVERIFY2(!isError, qPrintable(text));
        QCOMPARE(m_orders.size(), 1);
        QCOMPARE(m_orders.first().folder, QStringLiteral("corp/eng/sre"));
        QCOMPARE(m_orders.first().depth, 1);
        QVERIFY(m_orders.first().replyFolder.isEmpty());
        // Not below the turn's folder: refused before any grant is asked.
        QVERIFY(call(QStringLiteral("delegate_group"),
                     {{QStringLiteral("folder"), QStringLiteral("other")},
                      {QStringLiteral("prompt"), QStringLiteral("x")}})
                    .second);
        bind(QStringLiteral("corp/eng"), 3);
        const auto [deep, refused] =
            call(QStringLiteral("delegate_group"),
                 {{QStringLiteral("folder"), QStringLiteral("corp/eng/sre")},
                  {QStringLiteral("prompt"), QStringLiteral("again")}});
        QVERIFY(refused);
        QVERIFY2(deep.contains(QStringLiteral("the limit is 3")), qPrintable(deep));
        QCOMPARE(m_orders.size(), 1);
    }

    void escalateGroupAsksTheParentAndNamesWhereTheAnswerGoes()
    {
        QVERIFY(!listedNames().contains(QStringLiteral("escalate_group")));
        grant(QStringLiteral("mcp:escalate_group"), QStringLiteral("corp"));
        QVERIFY(listedNames().contains(QStringLiteral("escalate_group")));
        QVERIFY(!call(QStringLiteral("escalate_group"),
                      {{QStringLiteral("prompt"), QStringLiteral("help?")}})
                     .second);
        QCOMPARE(m_orders.size(), 1);
        QCOMPARE(m_orders.first().folder, QStringLiteral("corp"));
        QCOMPARE(m_orders.first().replyFolder, QStringLiteral("corp/eng"));
        QCOMPARE(m_orders.first().replyTopic, QStringLiteral("main"));
    }

    void observeGroupIsGrantedPerObservedFolder()
    {
        grant(QStringLiteral("mcp:observe_group"), QStringLiteral("other"));
        QCOMPARE(listedNames(), QStringList{QStringLiteral("observe_group")});
        QVERIFY(!call(QStringLiteral("observe_group"),
                      {{QStringLiteral("folder"), QStringLiteral("other")}})
                     .second);
        const auto [text, isError] = call(QStringLiteral("observe_group"),
                                          {{QStringLiteral("folder"), QStringLiteral("corp")}});
        QVERIFY(isError);
        QVERIFY2(text.startsWith(QStringLiteral("refused by the grants")), qPrintable(text));
        QVERIFY(call(QStringLiteral("observe_group"),
                     {{QStringLiteral("folder"), QStringLiteral("nowhere")}})
                    .second);
    }

    void anUnknownToolOrBadArgumentsAreToolErrors()
    {
        QVERIFY(call(QStringLiteral("rm_rf"), {}).second);
        grant(QStringLiteral("mcp:send_message"), QStringLiteral("corp/eng"));
        const auto [text, isError] = call(QStringLiteral("send_message"), {});
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("'text'")), qPrintable(text));
        const QJsonObject bad =
            parsed(handled(rpc(QStringLiteral("tools/call"), {{QStringLiteral("name"), 7}})));
        QCOMPARE(
            bad.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
            -32602);
    }

    void servedAtMcpOnTheGatewayBehindItsToken()
    {
        grant(QStringLiteral("mcp:send_message"), QStringLiteral("corp/eng"));
        gateway::GatewayOptions options;
        options.listenAddress = QHostAddress(QStringLiteral("127.0.0.2"));
        options.client = QHostAddress(QStringLiteral("127.0.0.3"));
        options.token = gateway::newTurnToken();
        options.tools = [this](const QByteArray &body, const gateway::ToolReplyTo &reply) {
            m_server->handle(body, reply);
        };
        gateway::ModelGateway gateway(options);
        QVERIFY(gateway.listen());
        gateway::testing::ClientRequest request;
        request.target = "/mcp";
        request.headers = {{"Authorization", "Bearer " + options.token},
                           {"Content-Type", "application/json"},
                           {"Accept", "application/json, text/event-stream"}};
        request.body = callBody(QStringLiteral("send_message"),
                                {{QStringLiteral("text"), QStringLiteral("over http")}});
        const auto reply =
            gateway::testing::sendRequest(options.listenAddress, gateway.port(), request);
        QCOMPARE(reply.status, 200);
        QVERIFY2(reply.body.contains("posted to topic main"), reply.body.constData());
        QCOMPARE(gateway::headerValue(reply.headers, "content-type").value_or(QByteArray()),
                 QByteArray("application/json"));

        auto wrongToken = request;
        wrongToken.headers[0].second = "Bearer " + gateway::newTurnToken();
        QCOMPARE(
            gateway::testing::sendRequest(options.listenAddress, gateway.port(), wrongToken).status,
            401);
        QCOMPARE(gateway::testing::sendRequest(options.listenAddress, gateway.port(), request,
                                               QHostAddress(QStringLiteral("127.0.0.4")))
                     .status,
                 0);
        auto stream = request;
        stream.method = "GET";
        stream.body.clear();
        QCOMPARE(
            gateway::testing::sendRequest(options.listenAddress, gateway.port(), stream).status,
            405);
        QCOMPARE(
            topicMessages(m_fixture->store(), QStringLiteral("corp/eng"), QStringLiteral("main"))
                ->size(),
            1);
    }
};

QTEST_GUILESS_MAIN(TestMcpServer)
#include "test_mcp_server.moc"
