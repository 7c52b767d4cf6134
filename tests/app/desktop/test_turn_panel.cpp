// The turn panel's Network tab on a real store: a long turn is shown by
// pages, the newest first, and an earlier page is read only when the
// keyboard (or the mouse) asks for it, with the closes of one page
// completing the requests of the page before.

#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/network_decision_model.h"
#include "screenshot.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "synthetic_events.h"
#include "turn_panel.h"
#include "turn_records/turn_records.h"

#include <QApplication>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

constexpr int deniedHosts = 2400;

QJsonObject decision(const QString &host, const QString &verdict, const QString &reason)
{
    return {{QStringLiteral("event"), QStringLiteral("decision")},
            {QStringLiteral("host"), host},
            {QStringLiteral("port"), 443},
            {QStringLiteral("decision"), verdict},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("time"), QStringLiteral("2026-01-01T10:00:00.000Z")}};
}

QString hostAt(const models::NetworkDecisionModel &model, int row)
{
    return model.index(row, models::NetworkDecisionModel::HostColumn).data().toString();
}

} // namespace

class TurnPanelTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;
    turns::TurnRecord m_turn;
    qint64 m_lastSeq = 0;

private slots:
    void initTestCase()
    {
        auto opened = store::Store::open(m_data.path());
        QVERIFY(opened);
        m_store = std::move(*opened);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        QVERIFY(
            folders::Folders(*m_store, QStringLiteral("user:test")).add(QStringLiteral("corp")));

        m_turn = desktop::syntheticTurn(QStringLiteral("corp"), QStringLiteral("main"),
                                        turns::TurnState::Done);
        turns::TurnRecords records(*m_store);
        QVERIFY(records.insert(m_turn));
        // A long turn: a request that stays open to the end, 2,400 denied
        // ones with the agent's output between them, and the first one's
        // close last: 2,402 network events among 4,802.
        QList<turns::TurnEventRecord> events;
        const auto add = [this, &events](const QString &kind, const QJsonObject &json) {
            events << turns::TurnEventRecord{m_turn.id, ++m_lastSeq, kind, json,
                                             store::nowTimestamp()};
        };
        const QString network = QStringLiteral("network");
        add(network, decision(QStringLiteral("long.example"), QStringLiteral("allow"),
                              QStringLiteral("allowlist")));
        for (int i = 0; i < deniedHosts; ++i) {
            add(QStringLiteral("text"), {{QStringLiteral("text"), QStringLiteral("trying")}});
            add(network, decision(QStringLiteral("h%1.example").arg(i), QStringLiteral("deny"),
                                  QStringLiteral("host-not-allowed")));
        }
        add(network, {{QStringLiteral("event"), QStringLiteral("close")},
                      {QStringLiteral("host"), QStringLiteral("long.example")},
                      {QStringLiteral("port"), 443},
                      {QStringLiteral("bytes_up"), 10},
                      {QStringLiteral("bytes_down"), 20}});
        QVERIFY(records.appendEvents(events));
    }

    void showsALongTurnByPagesNewestFirst()
    {
        desktop::TurnPanel panel(*m_workspace);
        panel.resize(800, 600);
        panel.show();
        panel.tabs()->setCurrentIndex(1); // Network
        QSignalSpy pageShown(&panel, &desktop::TurnPanel::pageShown);
        const models::NetworkDecisionModel &model = *panel.networkModel();
        panel.showTurn(m_turn);
        QVERIFY(pageShown.wait(10000));

        // The newest page: 2,000 network events, the close among them, so
        // 1,999 requests; the earlier ones wait to be asked for.
        const int newest = desktop::TurnPanel::networkEventsPerPage - 1;
        QCOMPARE(model.rowCount(), newest);
        QCOMPARE(hostAt(model, 0), QStringLiteral("h%1.example").arg(deniedHosts - newest));
        QCOMPARE(hostAt(model, newest - 1), QStringLiteral("h%1.example").arg(deniedHosts - 1));
        QPushButton *earlier = panel.earlierButton();
        QVERIFY(earlier->isVisible());
        QVERIFY(!earlier->accessibleName().isEmpty());
        QVERIFY(!pageShown.wait(500)); // nothing more is read unasked
        QCOMPARE(model.rowCount(), newest);
        desktop::screenshot(panel, QStringLiteral("turn-panel-earlier-requests"));

        // From the keyboard: the button takes focus and Space presses it.
        earlier->setFocus();
        QVERIFY(earlier->hasFocus());
        QTest::keyClick(earlier, Qt::Key_Space);
        QVERIFY(pageShown.wait(10000));
        QCOMPARE(model.rowCount(), deniedHosts + 1);
        QCOMPARE(hostAt(model, 0), QStringLiteral("long.example"));
        QCOMPARE(hostAt(model, 1), QStringLiteral("h0.example"));
        // Closed on the newer page, completed now that its request is shown.
        QCOMPARE(model.index(0, models::NetworkDecisionModel::BytesColumn).data().toString(),
                 QStringLiteral("10 up, 20 down"));
        // The start is reached: no button, and the keyboard's place is kept.
        QVERIFY(!earlier->isVisible());
        QVERIFY(panel.networkTable()->hasFocus());

        // What the engine reports next still goes last.
        panel.addEvents({{m_turn.id, m_lastSeq + 1, QStringLiteral("network"),
                          decision(QStringLiteral("late.example"), QStringLiteral("allow"),
                                   QStringLiteral("allowlist")),
                          store::nowTimestamp()}});
        QCOMPARE(model.rowCount(), deniedHosts + 2);
        QCOMPARE(hostAt(model, deniedHosts + 1), QStringLiteral("late.example"));
    }

    // A turn shown meanwhile drops the page read for the one before.
    void anotherTurnDropsThePageOfTheFirst()
    {
        desktop::TurnPanel panel(*m_workspace);
        QSignalSpy pageShown(&panel, &desktop::TurnPanel::pageShown);
        panel.showTurn(m_turn);
        turns::TurnRecord other = m_turn;
        other.id = QStringLiteral("0e4e0000-1111-4222-8333-944455556666");
        panel.showTurn(other);
        QVERIFY(pageShown.wait(10000));
        QCOMPARE(panel.networkModel()->rowCount(), 0);
        QVERIFY(panel.earlierButton()->isHidden());
        QVERIFY(!pageShown.wait(500));
        QCOMPARE(panel.networkModel()->rowCount(), 0);
    }

    void cleanupTestCase()
    {
        m_workspace.reset();
        m_store.reset();
    }
};

QTEST_MAIN(TurnPanelTest)
#include "test_turn_panel.moc"
