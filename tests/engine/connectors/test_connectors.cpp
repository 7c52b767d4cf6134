// Connectors over a real store, live grants and a loopback HTTPS server
// whose CA only this test trusts: what tools/list shows, that a granted
// call reaches exactly the declared method and path with the key where the
// definition puts it (a header, bearer, basic or the query), that everything
// else is refused before any request, and that the key never comes back.
// Then the TOML checks.

#include "audit/audit_log.h"
#include "connectors/connector_broker.h"
#include "connectors/connector_catalogue.h"
#include "connectors/connector_parser.h"
#include "json_lines_file.h"
#include "policy_fixture.h"
#include "secrets/secret_store.h"
#include "tools/mcp_server.h"
#include "tools/turn_tools.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace arizuko;
using namespace arizuko::tools;

namespace {

const QByteArray headerKey = "hk-5f1e9c2b7a";
const QByteArray bearerKey = "ghp_test_0c9d8e7f6a5b";
const QByteArray basicUser = "connector-user";
const QByteArray basicPassword = "pw-77aa66bb55cc";
// '+', '/' and '=' are percent-encoded in a query, so the key travels in
// another form than it is stored in.
const QByteArray queryKey = "qk+7f/3a=9b~c";
const QByteArray queryKeyEncoded = "qk%2B7f%2F3a%3D9b~c";

QByteArray userDefinition()
{
    QFile file(QStringLiteral(ARIZUKO_TEST_DEFINITIONS));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", ARIZUKO_TEST_DEFINITIONS);
    return file.readAll();
}

} // namespace

class TestConnectors final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PolicyFixture> m_fixture;
    QTemporaryDir m_serverDir;
    QProcess m_server;
    std::unique_ptr<TurnTools> m_tools;
    std::unique_ptr<McpServer> m_mcp;

    void bind()
    {
        m_mcp.reset();
        m_tools = std::make_unique<TurnTools>(
            m_fixture->store(),
            TurnBinding{QStringLiteral("az-test0001"), QStringLiteral("corp/eng"),
                        QStringLiteral("main"), 0, 3},
            [](const TurnOrder &) -> Result<QString> { return QStringLiteral("az-x"); });
        m_mcp = std::make_unique<McpServer>(*m_tools);
    }

    qint64 grant(const QString &action)
    {
        auto added = m_fixture->grants().add(
            row(QStringLiteral("corp/eng"), action, QStringLiteral("corp/eng")),
            QStringLiteral("user"));
        if (!added)
            qFatal("%s", qPrintable(added.error().message));
        return added->id;
    }

    void setSecret(const QString &folder, const QString &key, const QByteArray &value)
    {
        auto secrets = secrets::SecretStore::open(m_fixture->store(), QStringLiteral("user"));
        QVERIFY2(secrets, qPrintable(secrets ? QString() : secrets.error().message));
        const auto set = (*secrets)->set(secrets::SecretScope{folder}, key, value);
        QVERIFY2(set, qPrintable(set ? QString() : set.error().message));
    }

    QByteArray handled(const QByteArray &body)
    {
        std::optional<gateway::ToolReply> answer;
        m_mcp->handle(body, [&answer](const gateway::ToolReply &reply) { answer = reply; });
        if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 30000))
            qFatal("no reply to %s", body.constData());
        return answer->body;
    }

    QStringList listed()
    {
        const QJsonObject reply =
            QJsonDocument::fromJson(handled(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"))
                .object();
        QStringList names;
        for (const QJsonValue &tool : reply.value(QStringLiteral("result"))
                                          .toObject()
                                          .value(QStringLiteral("tools"))
                                          .toArray())
            names << tool.toObject().value(QStringLiteral("name")).toString();
        return names;
    }

    std::pair<QString, bool> call(const QString &tool, const QJsonObject &arguments = {})
    {
        const QJsonObject request{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), 2},
            {QStringLiteral("method"), QStringLiteral("tools/call")},
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), tool},
                                                   {QStringLiteral("arguments"), arguments}}}};
        const QJsonObject result = QJsonDocument::fromJson(handled(QJsonDocument(request).toJson()))
                                       .object()
                                       .value(QStringLiteral("result"))
                                       .toObject();
        return {result.value(QStringLiteral("content"))
                    .toArray()
                    .at(0)
                    .toObject()
                    .value(QStringLiteral("text"))
                    .toString(),
                result.value(QStringLiteral("isError")).toBool()};
    }

    // Every request the server received, oldest first.
    QList<QJsonObject> requests()
    {
        return test::jsonLines(m_serverDir.filePath(QStringLiteral("requests.jsonl")));
    }

    QList<audit::Entry> connectorAudit()
    {
        audit::Query query;
        query.kind = QStringLiteral("connector.call");
        query.limit = 1000;
        const auto entries = audit::AuditLog(m_fixture->store()).query(query);
        if (!entries)
            qFatal("%s", qPrintable(entries.error().message));
        return *entries;
    }

    // Nothing the store holds, in any table, carries a key in the clear.
    void verifyNoKeyInDatabase()
    {
        QFile database(m_fixture->store().databasePath());
        QVERIFY(database.open(QIODevice::ReadOnly));
        QByteArray bytes = database.readAll();
        QFile wal(m_fixture->store().databasePath() + QStringLiteral("-wal"));
        if (wal.open(QIODevice::ReadOnly))
            bytes += wal.readAll();
        for (const QByteArray &key :
             {headerKey, bearerKey, basicPassword, queryKey, queryKeyEncoded})
            QVERIFY2(!bytes.contains(key), key.constData());
    }

private slots:
    void initTestCase()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        QVERIFY(m_serverDir.isValid());
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral("python3"),
                       {QStringLiteral(ARIZUKO_TEST_SERVER), m_serverDir.path()});
        QVERIFY(m_server.waitForReadyRead(30000));
        const int port = m_server.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        qputenv("ARIZUKO_CONNECTOR_TEST_ORIGIN",
                QStringLiteral("https://127.0.0.1:%1").arg(port).toUtf8());
        qputenv("ARIZUKO_CONNECTOR_TEST_CA",
                m_serverDir.filePath(QStringLiteral("ca.pem")).toUtf8());
    }

    void cleanupTestCase()
    {
        m_server.kill();
        m_server.waitForFinished();
    }

    void init()
    {
        // Each test counts the requests it caused.
        QFile::remove(m_serverDir.filePath(QStringLiteral("requests.jsonl")));
        m_fixture = std::make_unique<PolicyFixture>();
        m_fixture->addFolder(QStringLiteral("corp"));
        m_fixture->addFolder(QStringLiteral("corp/eng"));
        QVERIFY(QDir(m_fixture->dataDir()).mkpath(QStringLiteral("connectors")));
        QFile definition(m_fixture->dataDir() + QStringLiteral("/connectors/test.toml"));
        QVERIFY(definition.open(QIODevice::WriteOnly));
        definition.write(userDefinition());
        definition.close();
        setSecret(QStringLiteral("corp/eng"), QStringLiteral("TESTSVC_KEY"), headerKey);
        setSecret(QStringLiteral("corp"), QStringLiteral("GITHUB_TOKEN"), bearerKey);
        setSecret(QStringLiteral("corp/eng"), QStringLiteral("BASIC_USER"), basicUser);
        setSecret(QStringLiteral("corp"), QStringLiteral("BASIC_PASSWORD"), basicPassword);
        setSecret(QStringLiteral("corp/eng"), QStringLiteral("TESTQUERY_KEY"), queryKey);
        bind();
    }

    void cleanup()
    {
        m_mcp.reset();
        m_tools.reset();
        m_fixture.reset();
    }

    void builtInsAndUserDefinitionsLoad()
    {
        const auto &catalogue = m_tools->connectors();
        QVERIFY2(catalogue.errors().isEmpty(), qPrintable(catalogue.errors().join(u'\n')));
        for (const char *tool :
             {"github_get_issue", "github_list_issues", "github_create_issue",
              "github_list_issue_comments", "github_create_issue_comment",
              "github_create_pull_request", "github_get_file", "gitlab_get_issue",
              "testsvc_get_item", "testbasic_echo", "testquery_echo"})
            QVERIFY2(catalogue.find(QString::fromLatin1(tool)).operation, tool);
    }

    void listedOnlyWhenGranted()
    {
        QVERIFY(!listed().contains(QStringLiteral("testsvc_get_item")));
        grant(QStringLiteral("ext:testsvc:items:*"));
        const QStringList names = listed();
        QVERIFY(names.contains(QStringLiteral("testsvc_get_item")));
        QVERIFY(names.contains(QStringLiteral("testsvc_create_item")));
        QVERIFY(!names.contains(QStringLiteral("testsvc_echo")));
        QVERIFY(!names.contains(QStringLiteral("github_get_issue")));
        // admin and mcp:* are about the host's own tools, not a user's keys.
        grant(QStringLiteral("admin"));
        grant(QStringLiteral("mcp:*"));
        QVERIFY(!listed().contains(QStringLiteral("github_get_issue")));
    }

    void grantedCallReachesDeclaredMethodAndPath()
    {
        grant(QStringLiteral("ext:testsvc:items:read"));
        QSignalSpy called(m_tools.get(), &TurnTools::connectorCalled);
        const auto [text, isError] = call(QStringLiteral("testsvc_get_item"),
                                          {{QStringLiteral("id"), QStringLiteral("42")},
                                           {QStringLiteral("q"), QStringLiteral("a b&c=d")}});
        QVERIFY2(!isError, qPrintable(text));
        // What the transcript shows of it: method, path without the query,
        // status; the key's name, never its value.
        QCOMPARE(called.size(), 1);
        const QJsonObject shown = called.first().first().toJsonObject();
        QCOMPARE(shown.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
        QCOMPARE(shown.value(QStringLiteral("path")).toString(), QStringLiteral("/api/items/42"));
        QCOMPARE(shown.value(QStringLiteral("http_status")).toInt(), 200);
        QCOMPARE(shown.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY(!QJsonDocument(shown).toJson().contains(headerKey));
        QVERIFY2(text.startsWith(QStringLiteral("GET /api/items/42 → HTTP 200")), qPrintable(text));
        const QList<QJsonObject> seen = requests();
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.last().value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
        QCOMPARE(seen.last().value(QStringLiteral("target")).toString(),
                 QStringLiteral("/api/items/42?q=a%20b%26c%3Dd"));
        const QJsonObject headers = seen.last().value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("x-api-key")).toString().toUtf8(), headerKey);
        QVERIFY(!headers.contains(QStringLiteral("authorization")));
        QVERIFY(!headers.contains(QStringLiteral("cookie")));

        const QList<audit::Entry> rows = connectorAudit();
        QCOMPARE(rows.size(), 1);
        const QJsonObject &detail = rows.last().detail;
        QCOMPARE(rows.last().subject, QStringLiteral("corp/eng"));
        QCOMPARE(detail.value(QStringLiteral("turn")).toString(), QStringLiteral("az-test0001"));
        QCOMPARE(detail.value(QStringLiteral("tool")).toString(),
                 QStringLiteral("testsvc_get_item"));
        QCOMPARE(detail.value(QStringLiteral("scope")).toString(),
                 QStringLiteral("ext:testsvc:items:read"));
        QCOMPARE(detail.value(QStringLiteral("keys")).toArray(),
                 QJsonArray{QStringLiteral("TESTSVC_KEY")});
        QCOMPARE(detail.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(detail.value(QStringLiteral("http_status")).toInt(), 200);
        QVERIFY(detail.contains(QStringLiteral("latency_ms")));
        verifyNoKeyInDatabase();
    }

    void bodyParamsTravelAsTypedJson()
    {
        grant(QStringLiteral("ext:testsvc:**"));
        const auto [text, isError] = call(QStringLiteral("testsvc_create_item"),
                                          {{QStringLiteral("title"), QStringLiteral("Bug")},
                                           {QStringLiteral("count"), QStringLiteral("3")}});
        QVERIFY2(!isError, qPrintable(text));
        const QJsonObject last = requests().last();
        QCOMPARE(last.value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
        QCOMPARE(last.value(QStringLiteral("target")).toString(), QStringLiteral("/api/items"));
        QCOMPARE(QJsonDocument::fromJson(last.value(QStringLiteral("body")).toString().toUtf8())
                     .object(),
                 (QJsonObject{{QStringLiteral("title"), QStringLiteral("Bug")},
                              {QStringLiteral("count"), 3}}));
        const auto [undeclared, refused] =
            call(QStringLiteral("testsvc_create_item"),
                 {{QStringLiteral("title"), QStringLiteral("x")},
                  {QStringLiteral("url"), QStringLiteral("https://evil.example")}});
        QVERIFY(refused);
        QVERIFY2(undeclared.contains(QStringLiteral("takes no argument 'url'")),
                 qPrintable(undeclared));
    }

    void bearerFromTheNearestFolderUp()
    {
        grant(QStringLiteral("ext:github:issues:read"));
        QVERIFY(call(QStringLiteral("github_get_issue"),
                     {{QStringLiteral("owner"), QStringLiteral("octo")},
                      {QStringLiteral("repo"), QStringLiteral("hello")},
                      {QStringLiteral("number"), 7}})
                    .second == false);
        QJsonObject last = requests().last();
        QCOMPARE(last.value(QStringLiteral("target")).toString(),
                 QStringLiteral("/repos/octo/hello/issues/7"));
        QJsonObject headers = last.value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("authorization")).toString().toUtf8(),
                 "Bearer " + bearerKey);
        QCOMPARE(headers.value(QStringLiteral("accept")).toString(),
                 QStringLiteral("application/vnd.github+json"));
        // A key of the folder itself wins over its parent's.
        setSecret(QStringLiteral("corp/eng"), QStringLiteral("GITHUB_TOKEN"), "nearer-key-1");
        QVERIFY(!call(QStringLiteral("github_get_issue"),
                      {{QStringLiteral("owner"), QStringLiteral("octo")},
                       {QStringLiteral("repo"), QStringLiteral("hello")},
                       {QStringLiteral("number"), 7}})
                     .second);
        headers = requests().last().value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("authorization")).toString(),
                 QStringLiteral("Bearer nearer-key-1"));
    }

    // The secret is read on a worker: the call returns to the event loop
    // before any answer, even one that needs no request (no secret set),
    // so the thread serving every turn's tools never waits on the key store.
    void theSecretIsNotReadOnTheCallersThread()
    {
        grant(QStringLiteral("ext:gitlab:**"));
        const QJsonObject request{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), 3},
            {QStringLiteral("method"), QStringLiteral("tools/call")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("gitlab_get_issue")},
                         {QStringLiteral("arguments"),
                          QJsonObject{{QStringLiteral("project"), QStringLiteral("g/p")},
                                      {QStringLiteral("iid"), 1}}}}}};
        std::optional<gateway::ToolReply> answer;
        m_mcp->handle(QJsonDocument(request).toJson(),
                      [&answer](const gateway::ToolReply &reply) { answer = reply; });
        QVERIFY2(!answer, "answered before the event loop turned: the secret was read inline");
        QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 30000);
        QVERIFY2(answer->body.contains("no secret GITLAB_TOKEN"), answer->body.constData());
    }

    void missingSecretIsAClearErrorWithoutARequest()
    {
        grant(QStringLiteral("ext:gitlab:**"));
        const qsizetype before = requests().size();
        const auto [text, isError] =
            call(QStringLiteral("gitlab_get_issue"),
                 {{QStringLiteral("project"), QStringLiteral("g/p")}, {QStringLiteral("iid"), 1}});
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("no secret GITLAB_TOKEN is set for corp/eng")),
                 qPrintable(text));
        QCOMPARE(requests().size(), before);
    }

    void ungrantedCallIsRefusedWithoutARequest()
    {
        grant(QStringLiteral("ext:testsvc:items:read"));
        const auto [text, isError] = call(QStringLiteral("testsvc_create_item"),
                                          {{QStringLiteral("title"), QStringLiteral("x")}});
        QVERIFY(isError);
        QVERIFY2(text.startsWith(QStringLiteral("refused by the grants of corp/eng")),
                 qPrintable(text));
        QCOMPARE(requests().size(), 0);
        const QList<audit::Entry> rows = connectorAudit();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.last().detail.value(QStringLiteral("status")).toString(),
                 QStringLiteral("refused"));
    }

    void revokedGrantRefusesTheNextCall()
    {
        const qint64 id = grant(QStringLiteral("ext:testsvc:items:read"));
        const QJsonObject arguments{{QStringLiteral("id"), QStringLiteral("1")}};
        QVERIFY(!call(QStringLiteral("testsvc_get_item"), arguments).second);
        QCOMPARE(requests().size(), 1);
        QVERIFY(m_fixture->grants().remove(id, QStringLiteral("user")));
        const auto [text, isError] = call(QStringLiteral("testsvc_get_item"), arguments);
        QVERIFY(isError);
        QVERIFY2(text.startsWith(QStringLiteral("refused")), qPrintable(text));
        QCOMPARE(requests().size(), 1);
        QVERIFY(!listed().contains(QStringLiteral("testsvc_get_item")));
    }

    // A deny narrowed by params is matched on the value the request carries:
    // an integer whether sent as a number or as text, and GitHub's owner and
    // repo (case-insensitive there) case-folded on both sides.
    void aParamDenyIsNotPassedByTypeOrCase_data()
    {
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("target"); // empty: refused without a request
        const auto issue = [](const QJsonValue &owner, const QJsonValue &repo,
                              const QJsonValue &number) {
            return QJsonObject{{QStringLiteral("owner"), owner},
                               {QStringLiteral("repo"), repo},
                               {QStringLiteral("number"), number}};
        };
        const QString octo = QStringLiteral("octo");
        const QString hello = QStringLiteral("hello");
        QTest::newRow("number 7") << issue(octo, hello, 7) << QString();
        QTest::newRow("text 07") << issue(octo, hello, QStringLiteral("07")) << QString();
        QTest::newRow("owner upper case")
            << issue(QStringLiteral("BLOCKED"), hello, 1) << QString();
        QTest::newRow("owner mixed case")
            << issue(QStringLiteral("Blocked"), hello, 1) << QString();
        QTest::newRow("repo against a mixed-case glob")
            << issue(octo, QStringLiteral("SECRET-plans"), 1) << QString();
        QTest::newRow("another number")
            << issue(octo, hello, 8) << QStringLiteral("/repos/octo/hello/issues/8");
        QTest::newRow("another owner") << issue(QStringLiteral("Octo"), hello, 1)
                                       << QStringLiteral("/repos/Octo/hello/issues/1");
    }

    void aParamDenyIsNotPassedByTypeOrCase()
    {
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, target);
        grant(QStringLiteral("ext:github:issues:read"));
        const QString scope = QStringLiteral("corp/eng");
        const QString action = QStringLiteral("ext:github:issues:read");
        for (const policy::GrantParams &params :
             {policy::GrantParams{{QStringLiteral("number"), QStringLiteral("7")}},
              policy::GrantParams{{QStringLiteral("owner"), QStringLiteral("blocked")}},
              policy::GrantParams{{QStringLiteral("repo"), QStringLiteral("Secret-*")}}})
            QVERIFY(m_fixture->grants().add(row(scope, action, scope, policy::Effect::Deny, params),
                                            QStringLiteral("user")));
        const auto [text, isError] = call(QStringLiteral("github_get_issue"), arguments);
        if (target.isEmpty()) {
            QVERIFY2(isError, qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("denied by grant")), qPrintable(text));
            QCOMPARE(requests().size(), 0);
            return;
        }
        QVERIFY2(!isError, qPrintable(text));
        QCOMPARE(requests().size(), 1);
        QCOMPARE(requests().last().value(QStringLiteral("target")).toString(), target);
    }

    void pathParamsStayInsideTheDeclaredPath_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("refused");
        QTest::newRow("slash") << QStringLiteral("a/b") << false;
        QTest::newRow("climb") << QStringLiteral("../../admin") << false;
        QTest::newRow("dotdot") << QStringLiteral("..") << true;
        QTest::newRow("dot") << QStringLiteral(".") << true;
        QTest::newRow("encoded dotdot") << QStringLiteral("%2e%2e") << false;
        QTest::newRow("encoded slash") << QStringLiteral("%2F..%2Fadmin") << false;
        QTest::newRow("query") << QStringLiteral("1?admin=1") << false;
        QTest::newRow("fragment") << QStringLiteral("1#frag") << false;
        QTest::newRow("crlf") << QStringLiteral("1\r\nHost: evil.example\r\n\r\n") << false;
        QTest::newRow("unicode") << QStringLiteral("é/ü") + QChar(0x202e) + QStringLiteral("..")
                                 << false;
        QTest::newRow("backslash") << QStringLiteral("..\\..\\x") << false;
        QTest::newRow("authority") << QStringLiteral("@evil.example:443") << false;
    }

    void pathParamsStayInsideTheDeclaredPath()
    {
        QFETCH(QString, value);
        QFETCH(bool, refused);
        grant(QStringLiteral("ext:testsvc:items:read"));
        const auto [text, isError] =
            call(QStringLiteral("testsvc_get_item"), {{QStringLiteral("id"), value}});
        if (refused) {
            QVERIFY(isError);
            QVERIFY2(text.contains(QStringLiteral("may not be empty, '.', '..'")),
                     qPrintable(text));
            QCOMPARE(requests().size(), 0);
            return;
        }
        QVERIFY2(!isError, qPrintable(text));
        QCOMPARE(requests().size(), 1);
        const QString target = requests().last().value(QStringLiteral("target")).toString();
        QVERIFY2(target.startsWith(QStringLiteral("/api/items/")), qPrintable(target));
        const QString segment = target.mid(QStringLiteral("/api/items/").size());
        // The agent reads the same path it was sent to.
        QVERIFY2(text.startsWith(QStringLiteral("GET ") + target + QStringLiteral(" → HTTP 200")),
                 qPrintable(text));
        QVERIFY2(!segment.contains(u'/') && !segment.contains(u'?') && !segment.contains(u'#'),
                 qPrintable(target));
        // The server decodes exactly the value the agent sent, as one segment.
        QCOMPARE(QUrl::fromPercentEncoding(segment.toLatin1()), value.trimmed());
    }

    // A param that spans segments (a file's path): its '/' parts are
    // segments, each encoded as one, and none may climb or merge.
    void pathsThatSpanSegmentsStayInsideTheDeclaredPath_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("target"); // empty: refused without a request
        QTest::newRow("nested") << QStringLiteral("docs/sub/README.md")
                                << QStringLiteral("/api/files/docs/sub/README.md/raw");
        QTest::newRow("one part") << QStringLiteral("a") << QStringLiteral("/api/files/a/raw");
        QTest::newRow("encoded dotdot") << QStringLiteral("%2e%2e/%2E%2E")
                                        << QStringLiteral("/api/files/%252e%252e/%252E%252E/raw");
        QTest::newRow("encoded slash")
            << QStringLiteral("a%2F..%2Fb") << QStringLiteral("/api/files/a%252F..%252Fb/raw");
        QTest::newRow("query and fragment")
            << QStringLiteral("a?x=1/b#f") << QStringLiteral("/api/files/a%3Fx%3D1/b%23f/raw");
        QTest::newRow("crlf") << QStringLiteral("a\r\nHost: evil/b")
                              << QStringLiteral("/api/files/a%0D%0AHost%3A%20evil/b/raw");
        QTest::newRow("backslash")
            << QStringLiteral("..\\..\\x") << QStringLiteral("/api/files/..%5C..%5Cx/raw");
        QTest::newRow("climb") << QStringLiteral("a/../../admin") << QString();
        QTest::newRow("leading dotdot") << QStringLiteral("../x") << QString();
        QTest::newRow("dot") << QStringLiteral("a/./b") << QString();
        QTest::newRow("absolute") << QStringLiteral("/etc/passwd") << QString();
        QTest::newRow("double slash") << QStringLiteral("a//b") << QString();
        QTest::newRow("trailing slash") << QStringLiteral("a/") << QString();
    }

    void pathsThatSpanSegmentsStayInsideTheDeclaredPath()
    {
        QFETCH(QString, value);
        QFETCH(QString, target);
        grant(QStringLiteral("ext:testsvc:items:read"));
        const auto [text, isError] =
            call(QStringLiteral("testsvc_get_file"), {{QStringLiteral("path"), value}});
        if (target.isEmpty()) {
            QVERIFY(isError);
            QVERIFY2(text.contains(QStringLiteral("whose parts may not be empty, '.' or '..'")),
                     qPrintable(text));
            QCOMPARE(requests().size(), 0);
            return;
        }
        QVERIFY2(!isError, qPrintable(text));
        QCOMPARE(requests().size(), 1);
        QCOMPARE(requests().last().value(QStringLiteral("target")).toString(), target);
        QVERIFY2(text.startsWith(QStringLiteral("GET ") + target + QStringLiteral(" → HTTP 200")),
                 qPrintable(text));
    }

    void redirectToAnotherHostIsRefused()
    {
        grant(QStringLiteral("ext:testsvc:misc:*"));
        const auto [text, isError] = call(QStringLiteral("testsvc_away"));
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("redirected (HTTP 302) to another host, "
                                              "127.0.0.2")),
                 qPrintable(text));
        QCOMPARE(requests().size(), 1);
        QCOMPARE(connectorAudit().last().detail.value(QStringLiteral("error")).toString(),
                 QStringLiteral("connectors.redirect-refused"));
    }

    void echoedKeysComeBackScrubbed()
    {
        grant(QStringLiteral("ext:testsvc:misc:echo"));
        grant(QStringLiteral("ext:testbasic:echo"));
        const auto [text, isError] = call(QStringLiteral("testsvc_echo"));
        QVERIFY2(!isError, qPrintable(text));
        QVERIFY2(!text.toUtf8().contains(headerKey), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[secret TESTSVC_KEY]")), qPrintable(text));
        QCOMPARE(requests()
                     .last()
                     .value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("x-api-key"))
                     .toString()
                     .toUtf8(),
                 headerKey);
        const auto [basic, basicError] = call(QStringLiteral("testbasic_echo"));
        QVERIFY2(!basicError, qPrintable(basic));
        const QByteArray credential = (basicUser + ':' + basicPassword).toBase64();
        QVERIFY2(!basic.toUtf8().contains(credential), qPrintable(basic));
        QVERIFY2(basic.contains(QStringLiteral("[secret BASIC_USER+BASIC_PASSWORD]")),
                 qPrintable(basic));
        QCOMPARE(requests()
                     .last()
                     .value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("authorization"))
                     .toString()
                     .toUtf8(),
                 "Basic " + credential);
        verifyNoKeyInDatabase();
    }

    // apikey-query: the key travels in the declared query parameter, after
    // the agent's own, and in no header; an answer echoing it (as sent,
    // percent-encoded, and decoded) comes back scrubbed; the path the
    // transcript and the audit row show leaves the query, and so the key, out.
    void apiKeyQueryKeyTravelsInItsParameterOnly()
    {
        grant(QStringLiteral("ext:testquery:echo"));
        QSignalSpy called(m_tools.get(), &TurnTools::connectorCalled);
        const auto [text, isError] =
            call(QStringLiteral("testquery_echo"), {{QStringLiteral("q"), QStringLiteral("a b")}});
        QVERIFY2(!isError, qPrintable(text));
        QCOMPARE(requests().size(), 1);
        const QJsonObject sent = requests().last();
        QCOMPARE(sent.value(QStringLiteral("target")).toString().toUtf8(),
                 "/v1/echo-key?q=a%20b&api_key=" + queryKeyEncoded);
        const QJsonObject headers = sent.value(QStringLiteral("headers")).toObject();
        QVERIFY(!headers.contains(QStringLiteral("authorization")));
        QVERIFY(!headers.contains(QStringLiteral("x-api-key")));

        QVERIFY2(text.startsWith(QStringLiteral("GET /v1/echo-key → HTTP 200")), qPrintable(text));
        QVERIFY2(!text.toUtf8().contains(queryKey), qPrintable(text));
        QVERIFY2(!text.toUtf8().contains(queryKeyEncoded), qPrintable(text));
        // Both echoes are there, each in place of the key.
        QVERIFY2(text.contains(QStringLiteral("api_key=[secret TESTQUERY_KEY]")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\"api_key\": \"[secret TESTQUERY_KEY]\"")),
                 qPrintable(text));

        QCOMPARE(called.size(), 1);
        const QJsonObject shown = called.first().first().toJsonObject();
        QCOMPARE(shown.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/echo-key"));
        const QList<audit::Entry> rows = connectorAudit();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.last().detail.value(QStringLiteral("path")).toString(),
                 QStringLiteral("/v1/echo-key"));
        QCOMPARE(rows.last().detail.value(QStringLiteral("keys")).toArray(),
                 QJsonArray{QStringLiteral("TESTQUERY_KEY")});
        for (const QByteArray &recorded :
             {QJsonDocument(shown).toJson(), QJsonDocument(rows.last().detail).toJson()}) {
            QVERIFY2(!recorded.contains(queryKey) && !recorded.contains(queryKeyEncoded) &&
                         !recorded.contains("api_key"),
                     recorded.constData());
        }
        verifyNoKeyInDatabase();
    }

    void slowResponseIsCut()
    {
        grant(QStringLiteral("ext:testsvc:misc:slow"));
        m_tools->connectorBroker().setLimits({std::chrono::milliseconds(1500), 1024 * 1024});
        const auto [text, isError] = call(QStringLiteral("testsvc_slow"));
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("no complete response within 1.5 s; cut")),
                 qPrintable(text));
        QCOMPARE(connectorAudit().last().detail.value(QStringLiteral("error")).toString(),
                 QStringLiteral("connectors.timeout"));
    }

    void hugeResponseIsCut()
    {
        grant(QStringLiteral("ext:testsvc:misc:huge"));
        const auto [text, isError] = call(QStringLiteral("testsvc_huge"));
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("longer than the 1048576 bytes a connector call may "
                                              "return; cut")),
                 qPrintable(text));
        QVERIFY(text.size() < 1000);
    }

    void testOriginIsLoopbackHttpsOnly_data()
    {
        QTest::addColumn<QByteArray>("origin");
        QTest::newRow("http") << QByteArray("http://127.0.0.1:1");
        QTest::newRow("remote") << QByteArray("https://example.com:443");
        QTest::newRow("name") << QByteArray("https://localhost.example.com:443");
        QTest::newRow("path") << QByteArray("https://127.0.0.1:1/x");
    }

    void testOriginIsLoopbackHttpsOnly()
    {
        QFETCH(QByteArray, origin);
        const QByteArray kept = qgetenv("ARIZUKO_CONNECTOR_TEST_ORIGIN");
        qputenv("ARIZUKO_CONNECTOR_TEST_ORIGIN", origin);
        grant(QStringLiteral("ext:testsvc:items:read"));
        const auto [text, isError] =
            call(QStringLiteral("testsvc_get_item"), {{QStringLiteral("id"), QStringLiteral("1")}});
        qputenv("ARIZUKO_CONNECTOR_TEST_ORIGIN", kept);
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("must be https://127.0.0.1:<port>")),
                 qPrintable(text));
    }

    // What readShellEnvironment() hands over, once the read is done.
    QJsonObject shellEnvironment()
    {
        std::optional<QJsonObject> read;
        m_tools->readShellEnvironment(
            [&read](const QJsonObject &environment) { read = environment; });
        if (!QTest::qWaitFor([&read] { return read.has_value(); }, 30000))
            return {{QStringLiteral("not read within 30 s"), true}};
        return *read;
    }

    // The spec waits for the secrets, but the engine thread, which serves
    // every turn's tools, does not: the values are read on a worker (seen
    // by the read's hook), not merely later on the caller's.
    void shellEnvSecretsAreNotReadOnTheCallersThread()
    {
        static std::atomic<QThread *> readOn{nullptr};
        readOn = nullptr;
        tools::setShellSecretsReadHook([] { readOn = QThread::currentThread(); });
        const auto unhook = qScopeGuard([] { tools::setShellSecretsReadHook(nullptr); });
        std::optional<QJsonObject> read;
        const auto reader = [&read](const QJsonObject &environment) { read = environment; };
        m_tools->readShellEnvironment(reader);
        QVERIFY2(read.has_value(), "no grant names a key: nothing to read, answered at once");
        grant(QStringLiteral("shell:env:GITHUB_TOKEN"));
        read.reset();
        m_tools->readShellEnvironment(reader);
        QVERIFY2(!read, "answered before the event loop turned: the secret was read inline");
        QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 30000);
        QCOMPARE(*read,
                 (QJsonObject{{QStringLiteral("GITHUB_TOKEN"), QString::fromUtf8(bearerKey)}}));
        QVERIFY2(readOn.load(), "the secrets' read was not seen");
        QVERIFY2(readOn.load() != QThread::currentThread(),
                 "the secrets were read on the caller's thread");
    }

    void shellEnvGrantsPutOnlyTheirSecretsInTheEnvironment()
    {
        QCOMPARE(shellEnvironment(), QJsonObject());
        // `*` names no key, so it puts nothing into the guest.
        grant(QStringLiteral("*"));
        QCOMPARE(shellEnvironment(), QJsonObject());
        grant(QStringLiteral("shell:env:GITHUB_TOKEN"));
        grant(QStringLiteral("shell:env:NOT_SET_ANYWHERE"));
        QCOMPARE(shellEnvironment(),
                 (QJsonObject{{QStringLiteral("GITHUB_TOKEN"), QString::fromUtf8(bearerKey)}}));
        audit::Query query;
        query.kind = QStringLiteral("shell-env");
        const auto rows = audit::AuditLog(m_fixture->store()).query(query);
        QVERIFY(rows && !rows->isEmpty());
        QCOMPARE(rows->last().detail.value(QStringLiteral("keys")).toArray(),
                 QJsonArray{QStringLiteral("GITHUB_TOKEN")});
        QCOMPARE(rows->last().detail.value(QStringLiteral("missing")).toArray(),
                 QJsonArray{QStringLiteral("NOT_SET_ANYWHERE")});
        // A deny wins over the allow.
        QVERIFY(m_fixture->grants().add(row(QStringLiteral("corp/eng"),
                                            QStringLiteral("shell:env:GITHUB_TOKEN"),
                                            QStringLiteral("**"), policy::Effect::Deny),
                                        QStringLiteral("user")));
        QCOMPARE(shellEnvironment(), QJsonObject());
        verifyNoKeyInDatabase();
    }

    // A started agent is used only without shell:env keys: the turn asks
    // before its spec, and that question must not count as the grant's
    // use (one shell-env.granted row per turn, when the spec takes them).
    void whetherShellEnvIsGrantedIsToldWithoutAuditing()
    {
        const auto shellEnvRows = [this] {
            audit::Query query;
            query.kind = QStringLiteral("shell-env");
            const auto rows = audit::AuditLog(m_fixture->store()).query(query);
            return rows ? rows->size() : -1;
        };
        QVERIFY(!m_tools->grantsShellEnvironment());
        grant(QStringLiteral("*"));
        QVERIFY(!m_tools->grantsShellEnvironment());
        grant(QStringLiteral("shell:env:GITHUB_TOKEN"));
        QVERIFY(m_tools->grantsShellEnvironment());
        QCOMPARE(shellEnvRows(), 0);
        QVERIFY(m_fixture->grants().add(row(QStringLiteral("corp/eng"),
                                            QStringLiteral("shell:env:GITHUB_TOKEN"),
                                            QStringLiteral("**"), policy::Effect::Deny),
                                        QStringLiteral("user")));
        QVERIFY(!m_tools->grantsShellEnvironment());
        QCOMPARE(shellEnvRows(), 0);
    }

    void definitionErrorsNameFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QByteArray head = "[[ext]]\nservice = \"s\"\nbase_url = \"https://s.example\"\n"
                                "auth = \"bearer\"\nsecrets = [\"K\"]\n";
        const QByteArray tool = "[[ext.tool]]\nname = \"s_t\"\nscope = \"ext:s:read\"\n"
                                "method = \"GET\"\ndescription = \"d\"\n";
        QTest::newRow("malformed")
            << QByteArray("[[ext]]\nservice = \"s\n") << QStringLiteral("x.toml:2:");
        QTest::newRow("http") << QByteArray(head).replace("https://", "http://")
                              << QStringLiteral(
                                     "x.toml:3: base_url 'http://s.example' must be https");
        QTest::newRow("userinfo") << QByteArray(head).replace("https://", "https://u:p@")
                                  << QStringLiteral("x.toml:3: base_url");
        QTest::newRow("unknown field")
            << head + "allow_http = true\n" + tool + "path = \"/a\"\n"
            << QStringLiteral("x.toml:6: [[ext]] has no field 'allow_http'");
        QTest::newRow("dotdot path") << head + tool + "path = \"/a/../b\"\n"
                                     << QStringLiteral("x.toml:11: path '/a/../b': segment '..'");
        QTest::newRow("undeclared param")
            << head + tool + "path = \"/a/{x}\"\n"
            << QStringLiteral("x.toml:11: path '/a/{x}': {x} is not a declared");
        QTest::newRow("half segment")
            << head + tool + "path = \"/a{x}\"\nparams = [{name=\"x\", in=\"path\"}]\n"
            << QStringLiteral("x.toml:11: path '/a{x}'");
        QTest::newRow("other service scope")
            << QByteArray(head + tool + "path = \"/a\"\n").replace("ext:s:read", "ext:github:read")
            << QStringLiteral("x.toml:8: scope 'ext:github:read' must be ext:s:");
        QTest::newRow("wildcard scope")
            << QByteArray(head + tool + "path = \"/a\"\n").replace("ext:s:read", "ext:s:*")
            << QStringLiteral("x.toml:8: scope 'ext:s:*'");
        QTest::newRow("host header")
            << head + "headers = { Host = \"evil.example\" }\n" + tool + "path = \"/a\"\n"
            << QStringLiteral("x.toml:6: header 'Host' is not one a connector may set");
        QTest::newRow("crlf header")
            << head + "headers = { X-A = \"a\\r\\nX-B: b\" }\n" + tool + "path = \"/a\"\n"
            << QStringLiteral("x.toml:6: header X-A's value must be printable");
        QTest::newRow("method")
            << QByteArray(head + tool + "path = \"/a\"\n").replace("GET", "TRACE")
            << QStringLiteral("x.toml:9: method 'TRACE'");
        QTest::newRow("no tools") << head
                                  << QStringLiteral("x.toml:1: service s needs [[ext.tool]]");
        QTest::newRow("oversized")
            << QByteArray(70000, '#') << QStringLiteral("x.toml:1: 70000 bytes");
        QTest::newRow("nul") << head + '\0' << QStringLiteral("x.toml:1: holds a NUL byte");
        QTest::newRow("query param named as the key")
            << QByteArray(head + tool +
                          "path = \"/a\"\nparams = [{name=\"Api_Key\", in=\"query\"}]\n")
                   .replace("auth = \"bearer\"", "auth = \"apikey-query\"\nauth_name = \"api_key\"")
            << QStringLiteral("x.toml:13: param Api_Key has the name of the key's query parameter");
        QTest::newRow("case_insensitive on an integer")
            << head + tool +
                   "path = \"/a/{n}\"\nparams = [{name=\"n\", in=\"path\", type=\"integer\", "
                   "case_insensitive=true}]\n"
            << QStringLiteral("x.toml:12: param n: only a string param has a case");
        QTest::newRow("segments on a query param")
            << head + tool + "path = \"/a\"\nparams = [{name=\"q\", in=\"query\", segments=true}]\n"
            << QStringLiteral("x.toml:12: param q: only a string path param may span segments");
        QTest::newRow("basic one key")
            << QByteArray(head + tool + "path = \"/a\"\n").replace("bearer", "basic")
            << QStringLiteral("x.toml:5: auth basic reads two secrets");
        // toml++ stops at its nesting limit, before any stack is at risk.
        QTest::newRow("deep nesting")
            << "x = " + QByteArray(30000, '[')
            << QStringLiteral(
                   "x.toml:1: Error while parsing value: exceeded maximum nested value depth");
        QTest::newRow("not UTF-8")
            << head + "description = \"\xff\xfe\"\n"
            << QStringLiteral("x.toml:6: Encountered invalid utf-8 sequence");
        QByteArray manyTools = head;
        for (int i = 0; i < 65; ++i)
            manyTools +=
                QByteArray(tool).replace("s_t", "s_t" + QByteArray::number(i)) + "path = \"/a\"\n";
        QTest::newRow("too many tools")
            << manyTools << QStringLiteral("x.toml:6: more than 64 tools in one service");
        QTest::newRow("control in description")
            << QByteArray(head + tool + "path = \"/a\"\n").replace("\"d\"", "\"d\\u202e\"")
            << QStringLiteral("x.toml:10: 'description' holds a control");
    }

    void definitionErrorsNameFileAndLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const auto parsed = connectors::parseConnectors(text, QStringLiteral("x.toml"));
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().message.startsWith(expected), qPrintable(parsed.error().message));
    }

    void aBadFileIsLeftOutAndTheRestLoad()
    {
        QFile bad(m_fixture->dataDir() + QStringLiteral("/connectors/bad.toml"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[[ext]]\nservice = \"github\"\n");
        bad.close();
        QFile shadow(m_fixture->dataDir() + QStringLiteral("/connectors/shadow.toml"));
        QVERIFY(shadow.open(QIODevice::WriteOnly));
        // A user's file cannot take over a built-in service.
        shadow.write(userDefinition().replace("testsvc", "github").replace("testbasic", "other"));
        shadow.close();
        const auto catalogue = connectors::ConnectorCatalogue::load(m_fixture->dataDir());
        QCOMPARE(catalogue.errors().size(), 2);
        QVERIFY2(catalogue.errors().at(0).contains(QStringLiteral("bad.toml:1:")),
                 qPrintable(catalogue.errors().at(0)));
        QVERIFY2(
            catalogue.errors().at(1).contains(QStringLiteral("service github is already defined")),
            qPrintable(catalogue.errors().at(1)));
        QVERIFY(catalogue.find(QStringLiteral("testsvc_get_item")).operation);
        QCOMPARE(catalogue.find(QStringLiteral("github_get_issue")).connector->baseUrl,
                 QUrl(QStringLiteral("https://api.github.com")));
    }
};

QTEST_GUILESS_MAIN(TestConnectors)
#include "test_connectors.moc"
