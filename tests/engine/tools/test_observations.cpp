// observe_group's context: only messages posted after observing, the newest
// kept within the caps (count and characters), each handed over once, and
// nothing after unobserve_group or once the grant to observe is revoked
// (each refusal audited as observation.refused).

#include "audit/audit_log.h"
#include "folders/topics.h"
#include "policy_fixture.h"
#include "tools/observations.h"
#include "tools/topic_messages.h"

#include <QTest>

using namespace arizuko;
using namespace arizuko::tools;

class TestObservations final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PolicyFixture> m_fixture;

    void post(int count, int length, const QString &topic = QStringLiteral("main"))
    {
        for (int index = 0; index < count; ++index)
            QVERIFY(postMessage(m_fixture->store(), QStringLiteral("ops"), topic,
                                QStringLiteral("agent"),
                                QStringLiteral("m%1 ").arg(index) + QString(length, u'x')));
    }

    QString take(const ObserveCaps &caps = {})
    {
        auto context = takeObservedContext(m_fixture->store(), QStringLiteral("corp"),
                                           QStringLiteral("main"), caps);
        if (!context)
            qFatal("%s", qPrintable(context.error().message));
        return *context;
    }

private slots:
    void init()
    {
        m_fixture = std::make_unique<PolicyFixture>();
        m_fixture->addFolder(QStringLiteral("corp"));
        m_fixture->addFolder(QStringLiteral("ops"));
        folders::Topics topics(m_fixture->store(), QStringLiteral("user"));
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("main")));
        QVERIFY(topics.add(QStringLiteral("ops"), QStringLiteral("main")));
        QVERIFY(topics.add(QStringLiteral("ops"), QStringLiteral("pager")));
        // Delivery asks the grants every time: corp may observe ops.
        QVERIFY(m_fixture->grants().add(
            row(QStringLiteral("corp"), QStringLiteral("mcp:observe_group"), QStringLiteral("ops")),
            QStringLiteral("user")));
    }

    void cleanup() { m_fixture.reset(); }

    void onlyNewMessagesOnceEach()
    {
        post(2, 10);
        QVERIFY(observe(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                        QStringLiteral("ops")));
        QCOMPARE(take(), QString());
        post(1, 10, QStringLiteral("pager"));
        const QString context = take();
        QVERIFY2(context.contains(QStringLiteral("[ops / pager] agent: m0 xxxxxxxxxx")),
                 qPrintable(context));
        QVERIFY(!context.contains(QStringLiteral("[ops / main]")));
        QCOMPARE(take(), QString());
    }

    void theCapsKeepTheNewest()
    {
        QVERIFY(observe(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                        QStringLiteral("ops")));
        post(15, 20);
        const QString byCount = take();
        QCOMPARE(byCount.count(QStringLiteral("[ops / main]")), 10);
        QVERIFY(byCount.contains(QStringLiteral("m14 ")));
        QVERIFY(!byCount.contains(QStringLiteral("m4 ")));
        QVERIFY(byCount.contains(QStringLiteral("5 older messages left out")));

        post(12, 900);
        const QString byCharacters = take();
        QCOMPARE(byCharacters.count(QStringLiteral("[ops / main]")), 4);
        QVERIFY(byCharacters.size() < 4000 + 200);
        QVERIFY(byCharacters.contains(QStringLiteral("m11 ")));
        QCOMPARE(take(), QString());
    }

    // Revoking observe_group ends the observation: delivery asks the grants
    // each time, refuses (audited), and never hands over what was posted
    // while it was refused.
    void aRevokedObservationDeliversNothingMore()
    {
        const auto granted = m_fixture->grants().add(
            row(QStringLiteral("corp"), QStringLiteral("mcp:observe_group"), QStringLiteral("ops")),
            QStringLiteral("user"));
        QVERIFY(granted);
        QVERIFY(observe(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                        QStringLiteral("ops")));
        post(1, 10);
        QVERIFY(take().contains(QStringLiteral("[ops / main] agent: m0 ")));
        QVERIFY(m_fixture->grants().remove(granted->id, QStringLiteral("user")));
        post(1, 20);
        const QString revoked = take();
        QVERIFY2(revoked.isEmpty(), qPrintable(revoked));
        audit::Query refusals;
        refusals.kind = QStringLiteral("observation.refused");
        const auto logged = audit::AuditLog(m_fixture->store()).query(refusals);
        QVERIFY(logged);
        QCOMPARE(logged->size(), 1);
        QCOMPARE(logged->last().actor, QStringLiteral("corp"));
        QCOMPARE(logged->last().detail.value(QStringLiteral("topic")).toString(),
                 QStringLiteral("main"));
        QCOMPARE(logged->last().detail.value(QStringLiteral("action")).toString(),
                 QStringLiteral("mcp:observe_group"));
        QCOMPARE(logged->last().detail.value(QStringLiteral("scope")).toString(),
                 QStringLiteral("ops"));
        QVERIFY2(logged->last()
                     .detail.value(QStringLiteral("reason"))
                     .toString()
                     .contains(QStringLiteral("no grant allows")),
                 qPrintable(logged->last().detail.value(QStringLiteral("reason")).toString()));
        // Granted again: only what is posted from then on.
        QVERIFY(m_fixture->grants().add(
            row(QStringLiteral("corp"), QStringLiteral("mcp:observe_group"), QStringLiteral("ops")),
            QStringLiteral("user")));
        post(1, 30);
        const QString again = take();
        QCOMPARE(again.count(QStringLiteral("[ops / main]")), 1);
        QVERIFY2(again.contains(QString(30, u'x')), qPrintable(again));
    }

    void unobserveStopsIt()
    {
        QVERIFY(observe(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                        QStringLiteral("ops")));
        QCOMPARE(*unobserve(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                            QStringLiteral("ops")),
                 true);
        post(3, 10);
        QCOMPARE(take(), QString());
        QCOMPARE(*unobserve(m_fixture->store(), QStringLiteral("corp"), QStringLiteral("main"),
                            QStringLiteral("ops")),
                 false);
    }
};

QTEST_GUILESS_MAIN(TestObservations)
#include "test_observations.moc"
