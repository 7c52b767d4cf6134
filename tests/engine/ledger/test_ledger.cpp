// The egress ledger on a real store: a turn's events become rows naming the
// rule that decided (own or inherited), close lines complete them in the
// journal's transaction, pages and filters stay on the indices over a
// million rows, each folder's retention prunes, and the JSON Lines and OCSF
// exports carry what docs/egress.md and docs/egress-ledger.schema.json say.

#include "core/actors.h"
#include "json_schema_check.h"
#include "ledger/ledger.h"
#include "ledger/ledger_format.h"
#include "ledger/ledger_recorder.h"
#include "policy_fixture.h"
#include "turn_records/turn_records.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSet>

using namespace arizuko;
using ledger::LedgerEntry;

namespace {

const QString turnId = QStringLiteral("7c1d2e3f-0000-4000-8000-000000000036");
const QString folder = QStringLiteral("team/proj");

QJsonObject proxyLine(const QString &event, const QString &method, const QString &host, int port,
                      const QString &decision, const QString &reason)
{
    return {{QStringLiteral("time"), QStringLiteral("2026-12-07T10:00:00.000Z")},
            {QStringLiteral("event"), event},
            {QStringLiteral("client"), QStringLiteral("10.213.0.2")},
            {QStringLiteral("method"), method},
            {QStringLiteral("host"), host},
            {QStringLiteral("port"), port},
            {QStringLiteral("decision"), decision},
            {QStringLiteral("reason"), reason}};
}

QJsonObject decisionLine(const QString &method, const QString &host, int port,
                         const QString &decision, const QString &reason, int status)
{
    QJsonObject line = proxyLine(QStringLiteral("decision"), method, host, port, decision, reason);
    line.insert(QStringLiteral("status"), status);
    return line;
}

QJsonObject closeLine(const QString &method, const QString &host, int port, const QString &decision,
                      const QString &reason, qint64 up, qint64 down, qint64 ms)
{
    QJsonObject line = proxyLine(QStringLiteral("close"), method, host, port, decision, reason);
    line.insert(QStringLiteral("bytes_up"), up);
    line.insert(QStringLiteral("bytes_down"), down);
    line.insert(QStringLiteral("duration_ms"), ms);
    return line;
}

QJsonObject loadSchema()
{
    QFile file(QStringLiteral(LEDGER_SCHEMA));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", LEDGER_SCHEMA);
    return QJsonDocument::fromJson(file.readAll()).object();
}

const LedgerEntry *byHost(const QList<LedgerEntry> &entries, const QString &host)
{
    for (const LedgerEntry &entry : entries)
        if (entry.host == host)
            return &entry;
    return nullptr;
}

QString queryPlan(store::Store &store, const QString &sql)
{
    QSqlQuery query(store.database());
    if (!query.exec(QStringLiteral("EXPLAIN QUERY PLAN ") + sql))
        qFatal("%s", qPrintable(query.lastError().text()));
    QStringList steps;
    while (query.next())
        steps << query.value(3).toString();
    return steps.join(QStringLiteral("; "));
}

} // namespace

class TestLedger final : public QObject
{
    Q_OBJECT

    // The rows of the recorded turn (recordsTheRuleThatDecided), for the
    // format tests.
    QList<LedgerEntry> m_recorded;

    // The policy of team/proj: '' allows example.com, team denies
    // bad.example.com, team/proj allows own.org.
    static policy::NetworkPolicy makePolicy(PolicyFixture &fixture)
    {
        fixture.addFolder(QStringLiteral("team"));
        fixture.addFolder(folder);
        auto &rules = fixture.policy().network();
        for (const auto &[ruleFolder, host, kind] :
             {std::tuple{QString(), QStringLiteral("example.com"), policy::RuleKind::Allow},
              std::tuple{QStringLiteral("team"), QStringLiteral("bad.example.com"),
                         policy::RuleKind::Deny},
              std::tuple{folder, QStringLiteral("own.org"), policy::RuleKind::Allow}})
            if (!rules.add(ruleFolder, host, kind, actors::cli))
                qFatal("cannot add a rule");
        auto resolved = rules.resolve(folder);
        if (!resolved)
            qFatal("cannot resolve: %s", qPrintable(resolved.error().message));
        return *resolved;
    }

private slots:
    void recordsTheRuleThatDecided()
    {
        PolicyFixture fixture;
        ledger::LedgerRecorder recorder(turnId, folder, QStringLiteral("main"));
        recorder.setPolicy(makePolicy(fixture));
        QJsonObject asked =
            decisionLine(QStringLiteral("CONNECT"), QStringLiteral("unlisted.net"), 443,
                         QStringLiteral("allow"), QStringLiteral("allowed"), 200);
        asked.insert(QStringLiteral("asked"), true);
        asked.insert(QStringLiteral("answer"), QStringLiteral("turn"));
        QJsonObject plain =
            decisionLine(QStringLiteral("GET"), QStringLiteral("other.org"), 80,
                         QStringLiteral("deny"), QStringLiteral("host-not-allowed"), 403);
        plain.insert(QStringLiteral("path"), QStringLiteral("/x/y?token=s3cret#frag"));
        const QList<std::pair<QString, QJsonObject>> events{
            {QStringLiteral("network"),
             decisionLine(QStringLiteral("CONNECT"), QStringLiteral("api.example.com"), 443,
                          QStringLiteral("allow"), QStringLiteral("allowed"), 200)},
            {QStringLiteral("network"),
             decisionLine(QStringLiteral("CONNECT"), QStringLiteral("bad.example.com"), 443,
                          QStringLiteral("deny"), QStringLiteral("host-denied"), 403)},
            {QStringLiteral("network"), plain},
            {QStringLiteral("network"),
             QJsonObject{{QStringLiteral("event"), QStringLiteral("ready")}}},
            {QStringLiteral("network"),
             decisionLine(QStringLiteral("CONNECT"), QStringLiteral("own.org"), 443,
                          QStringLiteral("deny"), QStringLiteral("private-address"), 403)},
            {QStringLiteral("network"), asked},
            {QStringLiteral("network"),
             closeLine(QStringLiteral("CONNECT"), QStringLiteral("api.example.com"), 443,
                       QStringLiteral("allow"), QStringLiteral("allowed"), 517, 4096, 812)},
            {QStringLiteral("network"),
             closeLine(QStringLiteral("CONNECT"), QStringLiteral("bad.example.com"), 443,
                       QStringLiteral("deny"), QStringLiteral("host-denied"), 0, 0, 1)},
            // A close whose decision this turn never saw: a row of its own.
            {QStringLiteral("network"),
             closeLine(QStringLiteral("CONNECT"), QStringLiteral("early.example.com"), 443,
                       QStringLiteral("allow"), QStringLiteral("allowed"), 1, 2, 3)},
            {QStringLiteral("model"),
             QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                         {QStringLiteral("path"), QStringLiteral("/v1/messages?beta=true")},
                         {QStringLiteral("status"), 200},
                         {QStringLiteral("ms"), 1234}}},
            {QStringLiteral("gateway"),
             QJsonObject{{QStringLiteral("reason"), QStringLiteral("unrecorded")}}},
            {QStringLiteral("connector"),
             QJsonObject{{QStringLiteral("tool"), QStringLiteral("github_issue")},
                         {QStringLiteral("scope"), QStringLiteral("read")},
                         {QStringLiteral("host"), QStringLiteral("api.github.com")},
                         {QStringLiteral("port"), 443},
                         {QStringLiteral("status"), QStringLiteral("refused")},
                         {QStringLiteral("error"), QStringLiteral("not-granted")},
                         {QStringLiteral("http_status"), 0},
                         {QStringLiteral("latency_ms"), 0},
                         {QStringLiteral("method"), QStringLiteral("GET")}}},
            {QStringLiteral("phase"),
             QJsonObject{{QStringLiteral("state"), QStringLiteral("running")}}}};
        QList<ledger::LedgerWrite> writes;
        qint64 seq = 1;
        for (const auto &[kind, json] : events)
            if (auto write =
                    recorder.take(kind, json, seq++, QStringLiteral("2026-12-07T10:00:01.000Z")))
                writes << *write;
        ledger::Ledger ledger(fixture.store());
        const Result<void> written = ledger.write(writes);
        QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
        const auto page = ledger.page({});
        QVERIFY(page);
        QStringList stored;
        for (const LedgerEntry &entry : *page)
            stored << entry.source + QLatin1Char(' ') + entry.host;
        qInfo("%s", qPrintable(stored.join(QStringLiteral(", "))));
        QCOMPARE(stored.size(), 8);

        const LedgerEntry *allowed = byHost(*page, QStringLiteral("api.example.com"));
        QVERIFY(allowed);
        QCOMPARE(allowed->source, QStringLiteral("proxy"));
        QCOMPARE(allowed->decision, QStringLiteral("allow"));
        QCOMPARE(allowed->ruleText, QStringLiteral("allow example.com"));
        QCOMPARE(allowed->ruleFolder, QString());
        QVERIFY(allowed->ruleId && *allowed->ruleId > 0);
        QCOMPARE(allowed->status, 200);
        QCOMPARE(allowed->bytesUp, 517);
        QCOMPARE(allowed->bytesDown, 4096);
        QCOMPARE(allowed->durationMs, 812);
        QCOMPARE(allowed->path, std::nullopt);
        QCOMPARE(allowed->folder, folder);
        QCOMPARE(allowed->turn, turnId);

        const LedgerEntry *denied = byHost(*page, QStringLiteral("bad.example.com"));
        QVERIFY(denied);
        QCOMPARE(denied->reason, QStringLiteral("host-denied"));
        QCOMPARE(denied->ruleText, QStringLiteral("deny bad.example.com"));
        QCOMPARE(denied->ruleFolder, QStringLiteral("team"));
        QCOMPARE(denied->bytesUp, 0);

        const LedgerEntry *unlisted = byHost(*page, QStringLiteral("other.org"));
        QVERIFY(unlisted);
        QCOMPARE(unlisted->ruleText, std::nullopt);
        QCOMPARE(unlisted->ruleId, std::nullopt);
        QCOMPARE(unlisted->path, QStringLiteral("/x/y"));
        QCOMPARE(unlisted->bytesUp, std::nullopt);

        // Past the lists by its own folder's rule, refused for its address.
        const LedgerEntry *privateAddress = byHost(*page, QStringLiteral("own.org"));
        QVERIFY(privateAddress);
        QCOMPARE(privateAddress->ruleText, QStringLiteral("allow own.org"));
        QCOMPARE(privateAddress->ruleFolder, folder);

        const LedgerEntry *answered = byHost(*page, QStringLiteral("unlisted.net"));
        QVERIFY(answered);
        QVERIFY(answered->asked);
        QCOMPARE(answered->answer, QStringLiteral("turn"));
        QCOMPARE(answered->ruleText, std::nullopt);

        const LedgerEntry *early = byHost(*page, QStringLiteral("early.example.com"));
        QVERIFY(early);
        QCOMPARE(early->bytesDown, 2);
        QCOMPARE(early->status, std::nullopt);

        const LedgerEntry *model = byHost(*page, QStringLiteral("gateway"));
        QVERIFY(model);
        QCOMPARE(model->source, QStringLiteral("gateway"));
        QCOMPARE(model->path, QStringLiteral("/v1/messages"));
        QCOMPARE(model->durationMs, 1234);

        const LedgerEntry *connector = byHost(*page, QStringLiteral("api.github.com"));
        QVERIFY(connector);
        QCOMPARE(connector->source, QStringLiteral("connector"));
        QCOMPARE(connector->decision, QStringLiteral("deny"));
        QCOMPARE(connector->reason, QStringLiteral("not-granted"));
        QCOMPARE(connector->status, std::nullopt);

        // Stored again (a batch replayed): no second row.
        QVERIFY(ledger.write(writes));
        const auto again = ledger.page({});
        QVERIFY(again);
        QCOMPARE(again->size(), 8);
        m_recorded = *page;
    }

    // A request to an inspected host names the rule by method and path that
    // decided it, or the host allow entry an `allow * HOST /**` stands for.
    void inspectedRequestsNameTheirRule()
    {
        PolicyFixture fixture;
        fixture.addFolder(QStringLiteral("team"));
        fixture.addFolder(folder);
        auto &rules = fixture.policy().network();
        QVERIFY(rules.add(folder, QStringLiteral("api.test"), policy::RuleKind::Allow, actors::cli,
                          QStringLiteral("GET"), QStringLiteral("/ok/**")));
        QVERIFY(
            rules.add(QString(), QStringLiteral("git.test"), policy::RuleKind::Allow, actors::cli));
        QVERIFY(rules.add(folder, QStringLiteral("git.test"), policy::RuleKind::Deny, actors::cli,
                          QStringLiteral("POST"), QStringLiteral("/**/git-receive-pack")));
        ledger::LedgerRecorder recorder(turnId, folder, QStringLiteral("main"));
        recorder.setPolicy(*rules.resolve(folder));
        const auto entryOf = [&](const QString &method, const QString &host, const QString &path,
                                 const QString &decision, const QString &reason) {
            QJsonObject line =
                decisionLine(method, host, 443, decision, reason, decision == u"allow" ? 200 : 403);
            line.insert(QStringLiteral("path"), path);
            line.insert(QStringLiteral("inspected"), true);
            const auto write = recorder.take(QStringLiteral("network"), line, 1,
                                             QStringLiteral("2026-12-07T10:00:01.000Z"));
            return write ? write->entry : LedgerEntry{};
        };
        const LedgerEntry allowed =
            entryOf(QStringLiteral("GET"), QStringLiteral("api.test"), QStringLiteral("/ok/x"),
                    QStringLiteral("allow"), QStringLiteral("allowed"));
        QCOMPARE(allowed.ruleText, QStringLiteral("allow GET api.test /ok/**"));
        QCOMPARE(allowed.ruleFolder, folder);
        const LedgerEntry push = entryOf(QStringLiteral("POST"), QStringLiteral("git.test"),
                                         QStringLiteral("/a/b.git/git-receive-pack"),
                                         QStringLiteral("deny"), QStringLiteral("denied-by-rule"));
        QCOMPARE(push.ruleText, QStringLiteral("deny POST git.test /**/git-receive-pack"));
        const LedgerEntry fetch = entryOf(QStringLiteral("POST"), QStringLiteral("git.test"),
                                          QStringLiteral("/a/b.git/git-upload-pack"),
                                          QStringLiteral("allow"), QStringLiteral("allowed"));
        QCOMPARE(fetch.ruleText, QStringLiteral("allow git.test"));
        QCOMPARE(fetch.ruleFolder, QString());
        const LedgerEntry none =
            entryOf(QStringLiteral("POST"), QStringLiteral("api.test"), QStringLiteral("/ok/x"),
                    QStringLiteral("deny"), QStringLiteral("no-matching-rule"));
        QCOMPARE(none.ruleText, std::nullopt);
    }

    void jsonLinesMeetTheSchema()
    {
        QVERIFY(!m_recorded.isEmpty());
        const QJsonObject schema = loadSchema();
        QCOMPARE(schema.value(QLatin1String("title")).toString(), ledger::ledgerSchema);
        for (const LedgerEntry &entry : m_recorded) {
            const QJsonObject line = ledger::ledgerJson(entry);
            const QStringList wrong = schemaViolations(line, schema);
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
        }
        // The check itself fails on what the schema refuses.
        QJsonObject broken = ledger::ledgerJson(m_recorded.first());
        broken.insert(QStringLiteral("decision"), QStringLiteral("maybe"));
        broken.insert(QStringLiteral("port"), QStringLiteral("443"));
        broken.remove(QStringLiteral("turn"));
        broken.insert(QStringLiteral("extra"), 1);
        QCOMPARE(schemaViolations(broken, schema).size(), 4);
    }

    void ocsfEventsHaveTheirFields()
    {
        QVERIFY(!m_recorded.isEmpty());
        const LedgerEntry *tunnel = byHost(m_recorded, QStringLiteral("api.example.com"));
        const QJsonObject open = ledger::ocsfEvent(*tunnel);
        QCOMPARE(open.value(QLatin1String("class_uid")).toInt(), 4001);
        QCOMPARE(open.value(QLatin1String("category_uid")).toInt(), 4);
        QCOMPARE(open.value(QLatin1String("activity_id")).toInt(), 1);
        QCOMPARE(open.value(QLatin1String("type_uid")).toInt(), 400101);
        QCOMPARE(open.value(QLatin1String("action_id")).toInt(), 1);
        QCOMPARE(open.value(QLatin1String("disposition_id")).toInt(), 1);
        QCOMPARE(open.value(QLatin1String("time")).toInteger(),
                 QDateTime::fromString(tunnel->time, Qt::ISODateWithMs).toMSecsSinceEpoch());
        QCOMPARE(open[QLatin1String("metadata")][QLatin1String("version")].toString(),
                 ledger::ocsfVersion);
        QCOMPARE(open[QLatin1String("metadata")][QLatin1String("product")][QLatin1String("name")]
                     .toString(),
                 QStringLiteral("Arizuko Desktop"));
        QCOMPARE(open[QLatin1String("metadata")][QLatin1String("correlation_uid")].toString(),
                 turnId);
        QCOMPARE(open[QLatin1String("dst_endpoint")][QLatin1String("hostname")].toString(),
                 QStringLiteral("api.example.com"));
        QCOMPARE(open[QLatin1String("dst_endpoint")][QLatin1String("port")].toInt(), 443);
        QCOMPARE(open[QLatin1String("src_endpoint")][QLatin1String("ip")].toString(),
                 QStringLiteral("10.213.0.2"));
        QCOMPARE(open[QLatin1String("traffic")][QLatin1String("bytes_out")].toInt(), 517);
        QCOMPARE(open[QLatin1String("traffic")][QLatin1String("bytes_in")].toInt(), 4096);
        QCOMPARE(open.value(QLatin1String("duration")).toInt(), 812);
        QCOMPARE(open[QLatin1String("firewall_rule")][QLatin1String("name")].toString(),
                 QStringLiteral("allow example.com"));
        QVERIFY(!open.contains(QLatin1String("http_request")));

        const QJsonObject refused =
            ledger::ocsfEvent(*byHost(m_recorded, QStringLiteral("bad.example.com")));
        QCOMPARE(refused.value(QLatin1String("activity_id")).toInt(), 5);
        QCOMPARE(refused.value(QLatin1String("type_uid")).toInt(), 400105);
        QCOMPARE(refused.value(QLatin1String("action_id")).toInt(), 2);
        QCOMPARE(refused.value(QLatin1String("disposition_id")).toInt(), 2);
        QCOMPARE(refused.value(QLatin1String("status_detail")).toString(),
                 QStringLiteral("host-denied"));

        const QJsonObject http =
            ledger::ocsfEvent(*byHost(m_recorded, QStringLiteral("other.org")));
        QCOMPARE(http.value(QLatin1String("class_uid")).toInt(), 4002);
        QCOMPARE(http.value(QLatin1String("activity_id")).toInt(), 3); // Get
        QCOMPARE(http.value(QLatin1String("type_uid")).toInt(), 400203);
        QCOMPARE(http[QLatin1String("http_request")][QLatin1String("http_method")].toString(),
                 QStringLiteral("GET"));
        QCOMPARE(http[QLatin1String("http_request")][QLatin1String("url")][QLatin1String("path")]
                     .toString(),
                 QStringLiteral("/x/y"));
        QCOMPARE(http[QLatin1String("http_response")][QLatin1String("code")].toInt(), 403);
        QVERIFY(!http.contains(QLatin1String("firewall_rule")));
        QCOMPARE(http.value(QLatin1String("disposition_id")).toInt(), 2);
    }

    void tableRowsNameTheRule()
    {
        QVERIFY(!m_recorded.isEmpty());
        const QStringList row =
            ledger::ledgerTableRow(*byHost(m_recorded, QStringLiteral("bad.example.com")));
        QCOMPARE(row.size(), ledger::ledgerTableHeaders().size());
        QVERIFY(row.contains(QStringLiteral("deny bad.example.com (team)")));
        QVERIFY(row.contains(QStringLiteral("bad.example.com:443")));
    }

    void aFailedLedgerWriteKeepsNoEvent()
    {
        PolicyFixture fixture;
        turns::TurnRecords records(fixture.store());
        turns::TurnRecord turn;
        turn.id = turnId;
        turn.name = QStringLiteral("az-7c1d2e3f");
        turn.folder = QStringLiteral("f");
        turn.topic = QStringLiteral("main");
        turn.agent = QStringLiteral("command");
        turn.prompt = QStringLiteral("true");
        turn.queuedAt = store::nowTimestamp();
        const Result<void> inserted = records.insert(turn);
        QVERIFY2(inserted, qPrintable(inserted ? QString() : inserted.error().message));
        const QList<turns::TurnEventRecord> events{
            {turnId, 1, QStringLiteral("network"), QJsonObject{}, store::nowTimestamp()}};
        const Result<void> refused = records.appendEvents(events, [] {
            return Result<void>(makeError(QStringLiteral("x"), QStringLiteral("no")));
        });
        QVERIFY(!refused);
        QCOMPARE(records.events(turnId)->size(), 0);
        QVERIFY(records.appendEvents(events, [] { return Result<void>(); }));
        QCOMPARE(records.events(turnId)->size(), 1);
    }

    void pagesAndFilters()
    {
        PolicyFixture fixture;
        ledger::Ledger ledger(fixture.store());
        QList<ledger::LedgerWrite> writes;
        const QDateTime start =
            QDateTime::fromString(QStringLiteral("2026-12-01T00:00:00.000Z"), Qt::ISODateWithMs);
        for (int n = 0; n < 2500; ++n) {
            LedgerEntry entry;
            entry.time = start.addSecs(n).toString(Qt::ISODateWithMs);
            entry.turn = QStringLiteral("turn-%1").arg(n % 7);
            entry.eventSeq = n;
            entry.folder = n % 2 ? QStringLiteral("odd") : QStringLiteral("even");
            entry.topic = QStringLiteral("main");
            entry.source = QStringLiteral("proxy");
            entry.host = QStringLiteral("h%1.example").arg(n);
            entry.decision = n % 3 ? QStringLiteral("allow") : QStringLiteral("deny");
            entry.reason = n % 3 ? QStringLiteral("allowed") : QStringLiteral("host-not-allowed");
            writes.append({ledger::LedgerWrite::Kind::Insert, entry});
        }
        QVERIFY(ledger.write(writes));

        const auto walk = [&ledger](ledger::LedgerFilter filter) {
            QList<LedgerEntry> all;
            filter.limit = 97;
            for (;;) {
                const auto page = ledger.page(filter);
                if (!page)
                    qFatal("%s", qPrintable(page.error().message));
                all << *page;
                if (page->size() < filter.limit)
                    return all;
                if (filter.oldestFirst)
                    filter.afterId = page->last().id;
                else
                    filter.beforeId = page->last().id;
            }
        };
        ledger::LedgerFilter odd;
        odd.folder = QStringLiteral("odd");
        odd.decision = QStringLiteral("deny");
        const QList<LedgerEntry> newestFirst = walk(odd);
        int expected = 0;
        for (int n = 0; n < 2500; ++n)
            expected += (n % 2 && n % 3 == 0) ? 1 : 0;
        QCOMPARE(newestFirst.size(), expected);
        QSet<qint64> seen;
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const LedgerEntry &entry : newestFirst) {
            QCOMPARE(entry.folder, QStringLiteral("odd"));
            QCOMPARE(entry.decision, QStringLiteral("deny"));
            QVERIFY(entry.id < previous);
            previous = entry.id;
            seen.insert(entry.id);
        }
        QCOMPARE(seen.size(), expected);
        odd.oldestFirst = true;
        const QList<LedgerEntry> oldestFirst = walk(odd);
        QCOMPARE(oldestFirst.size(), expected);
        QCOMPARE(oldestFirst.first().id, newestFirst.last().id);

        ledger::LedgerFilter since;
        since.since = start.addSecs(2400).toString(Qt::ISODateWithMs);
        since.turn = QStringLiteral("turn-3");
        int sinceExpected = 0;
        for (int n = 2400; n < 2500; ++n)
            sinceExpected += n % 7 == 3 ? 1 : 0;
        const QList<LedgerEntry> recent = walk(since);
        QCOMPARE(recent.size(), sinceExpected);
        for (const LedgerEntry &entry : recent)
            QVERIFY(entry.time >= since.since && entry.turn == QStringLiteral("turn-3"));
    }

    void aMillionRowsStayOnTheIndices()
    {
        PolicyFixture fixture;
        QElapsedTimer timer;
        timer.start();
        // Loaded first and indexed after (the migration's own index
        // statements): what a million inserts into the indices would take
        // on this machine is not what the test is about.
        QStringList indices;
        {
            QSqlQuery query(fixture.store().database());
            QVERIFY(
                query.exec(QStringLiteral("SELECT sql FROM sqlite_master WHERE type = 'index' "
                                          "AND tbl_name = 'egress_ledger' AND sql IS NOT NULL")));
            while (query.next())
                indices << query.value(0).toString();
        }
        QCOMPARE(indices.size(), 6);
        for (const QString &index : indices)
            PolicyFixture::exec(fixture.store().database(),
                                QStringLiteral("DROP INDEX ") +
                                    index.section(QLatin1Char(' '), 2, 2));
        PolicyFixture::exec(fixture.store().database(), QStringLiteral("BEGIN"));
        PolicyFixture::exec(
            fixture.store().database(),
            QStringLiteral(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
                "INSERT INTO egress_ledger (time, turn, event_seq, folder, topic, source, host, "
                "decision, reason) SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 1796083200 + i, "
                "'unixepoch'), 'turn-' || (i / 1000), i, 'f' || (i % 10), 'main', 'proxy', "
                "'h' || i || '.example', CASE WHEN i % 3 = 0 THEN 'deny' ELSE 'allow' END, "
                "'allowed' FROM n"));
        for (const QString &index : indices)
            PolicyFixture::exec(fixture.store().database(), index);
        PolicyFixture::exec(fixture.store().database(), QStringLiteral("COMMIT"));
        qInfo("inserted 1,000,000 rows in %lld ms", timer.elapsed());

        // Every filter the CLI and the window use is answered by an index,
        // never by a scan of the table; but for `since`, whose rows are the
        // newest, which a walk down the ids meets first.
        const QStringList filters{QString(),
                                  QStringLiteral("WHERE folder = 'f3'"),
                                  QStringLiteral("WHERE folder = 'f3' AND decision = 'deny'"),
                                  QStringLiteral("WHERE decision = 'deny' AND id < 500000"),
                                  QStringLiteral("WHERE turn = 'turn-5'"),
                                  QStringLiteral("WHERE turn = 'turn-5' AND decision = 'deny'"),
                                  QStringLiteral("WHERE folder = 'f3' AND id > 900000")};
        for (const QString &where : filters) {
            const QString plan = queryPlan(
                fixture.store(),
                QStringLiteral("SELECT * FROM egress_ledger %1 ORDER BY id DESC LIMIT 100")
                    .arg(where));
            const bool scansAll = plan.contains(QStringLiteral("SCAN egress_ledger")) &&
                                  !plan.contains(QStringLiteral("USING"));
            QVERIFY2(!scansAll || where.isEmpty(), qPrintable(where + QStringLiteral(": ") + plan));
            // A turn's page too (0010): its rows are read in id order.
            QVERIFY2(!plan.contains(QStringLiteral("TEMP B-TREE")) ||
                         where.contains(QStringLiteral("time")),
                     qPrintable(where + QStringLiteral(": ") + plan));
        }

        ledger::Ledger ledger(fixture.store());
        ledger::LedgerFilter deep;
        deep.folder = QStringLiteral("f3");
        deep.decision = QStringLiteral("deny");
        deep.beforeId = 20000;
        deep.limit = 500;
        timer.restart();
        const auto page = ledger.page(deep);
        const qint64 deepMs = timer.elapsed();
        QVERIFY(page);
        QCOMPARE(page->size(), 500);
        QVERIFY(page->first().id < 20000);
        ledger::LedgerFilter turn;
        turn.turn = QStringLiteral("turn-5");
        timer.restart();
        const auto turnPage = ledger.page(turn);
        QVERIFY(turnPage);
        QCOMPARE(turnPage->size(), 100);
        const qint64 turnMs = timer.elapsed();
        ledger::LedgerFilter since;
        since.since = QStringLiteral("2026-12-12T13:00:00.000Z");
        since.decision = QStringLiteral("deny");
        timer.restart();
        const auto sincePage = ledger.page(since);
        const qint64 sinceMs = timer.elapsed();
        QVERIFY(sincePage);
        QCOMPARE(sincePage->size(), 100);
        qInfo("a deep page of folder+decision in %lld ms, a turn's newest page in %lld ms, "
              "the newest denials since a time in %lld ms",
              deepMs, turnMs, sinceMs);
        // A scan of the million rows takes hundreds of milliseconds here.
        QVERIFY2(deepMs < 100 && turnMs < 100 && sinceMs < 100, "a page took longer than 100 ms");
    }

    void retentionPrunesEachFolder()
    {
        PolicyFixture fixture;
        fixture.addFolder(QStringLiteral("short"));
        fixture.addFolder(QStringLiteral("long"));
        ledger::Ledger ledger(fixture.store());
        const QDateTime now =
            QDateTime::fromString(QStringLiteral("2026-12-07T12:00:00.000Z"), Qt::ISODateWithMs);
        QList<ledger::LedgerWrite> writes;
        qint64 seq = 0;
        for (const QString &rowFolder :
             {QStringLiteral("default"), QStringLiteral("short"), QStringLiteral("long")})
            for (int daysAgo : {2, 10, 40, 100}) {
                LedgerEntry entry;
                entry.time = now.addDays(-daysAgo).toString(Qt::ISODateWithMs);
                entry.turn = QStringLiteral("t");
                entry.eventSeq = ++seq;
                entry.folder = rowFolder;
                entry.source = QStringLiteral("proxy");
                entry.host = QString::number(daysAgo);
                entry.decision = QStringLiteral("allow");
                entry.reason = QStringLiteral("allowed");
                writes.append({ledger::LedgerWrite::Kind::Insert, entry});
            }
        QVERIFY(ledger.write(writes));
        QCOMPARE(*ledger.retentionDays(QStringLiteral("default")), ledger::defaultRetentionDays);
        QVERIFY(ledger.setRetentionDays(QStringLiteral("short"), 5, QStringLiteral("user:test")));
        QVERIFY(ledger.setRetentionDays(QStringLiteral("long"), 60, QStringLiteral("user:test")));
        QCOMPARE(*ledger.retentionDays(QStringLiteral("long")), 60);
        QVERIFY(!ledger.setRetentionDays(QStringLiteral("long"), 0, QStringLiteral("user:test")));
        const Result<qint64> pruned = ledger.prune(now.toString(Qt::ISODateWithMs));
        QVERIFY(pruned);
        QCOMPARE(*pruned, 2 + 3 + 1);
        const auto left = [&ledger](const QString &rowFolder) {
            ledger::LedgerFilter filter;
            filter.folder = rowFolder;
            QStringList hosts;
            const auto page = ledger.page(filter);
            if (!page)
                return QString();
            for (const LedgerEntry &entry : *page)
                hosts << entry.host;
            std::sort(hosts.begin(), hosts.end());
            return hosts.join(QLatin1Char(','));
        };
        QCOMPARE(left(QStringLiteral("default")), QStringLiteral("10,2"));
        QCOMPARE(left(QStringLiteral("short")), QStringLiteral("2"));
        QCOMPARE(left(QStringLiteral("long")), QStringLiteral("10,2,40"));
    }

    void sinceTakesTimesAndAges()
    {
        const QDateTime now =
            QDateTime::fromString(QStringLiteral("2026-12-07T12:00:00.000Z"), Qt::ISODateWithMs);
        QCOMPARE(ledger::sinceTimestamp(QStringLiteral("2h"), now),
                 QStringLiteral("2026-12-07T10:00:00.000Z"));
        QCOMPARE(ledger::sinceTimestamp(QStringLiteral("7d"), now),
                 QStringLiteral("2026-11-30T12:00:00.000Z"));
        QCOMPARE(ledger::sinceTimestamp(QStringLiteral("2026-12-01T16:00:00"), now),
                 QStringLiteral("2026-12-01T16:00:00.000Z"));
        QCOMPARE(ledger::sinceTimestamp(QStringLiteral("2026-12-01T16:00:00+01:00"), now),
                 QStringLiteral("2026-12-01T15:00:00.000Z"));
        QCOMPARE(ledger::sinceTimestamp(QStringLiteral("yesterday"), now), std::nullopt);
        QCOMPARE(ledger::pathWithoutQuery(QStringLiteral("/a?b=c")), QStringLiteral("/a"));
    }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "test_ledger.moc"
