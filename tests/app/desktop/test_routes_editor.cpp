// The routes editor offscreen on a real store: "test a message" names the
// route the engine's resolve() picks and why each earlier one did not, a
// route added in the editor is what arizukoctl lists, and bad or hostile
// match and target text is refused with the store unchanged; a dragged row
// keeps its new place in the store, and a route added by arizukoctl appears.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/route_model.h"
#include "policy/policy.h"
#include "routes_editor.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonObject>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>

using namespace arizuko;
using arizuko::desktop::RoutesEditor;
using namespace editor_test;

class RoutesEditorTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;

    QByteArray routesJson()
    {
        return arizukoctl(m_dir.path(), {QStringLiteral("route"), QStringLiteral("list")}).out;
    }

    // The editor once it has read the routes.
    static void waitForRoutes(RoutesEditor &editor)
    {
        QSignalSpy reloaded(editor.model(), &models::RouteModel::reloaded);
        QVERIFY(reloaded.wait());
    }

    static QStringList testColumn(const RoutesEditor &editor)
    {
        QStringList verdicts;
        for (int row = 0; row < editor.model()->rowCount(); ++row)
            verdicts
                << editor.model()->index(row, models::RouteModel::TestColumn).data().toString();
        return verdicts;
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        for (const char *folder : {"corp", "corp/eng", "lab"})
            QVERIFY(folders.add(QString::fromLatin1(folder)));
        policy::Policy policy(*m_store);
        const QString actor = QStringLiteral("user:test");
        QVERIFY(policy.routes().add(10, QStringLiteral("platform=telegram chat=team-*"),
                                    QStringLiteral("corp/eng"), actor));
        QVERIFY(policy.routes().add(20, QStringLiteral("platform=telegram"),
                                    QStringLiteral("corp#observe"), actor));
        QVERIFY(policy.routes().add(99, QString(), QStringLiteral("lab"), actor));
    }

    void modelIsConsistent()
    {
        models::RouteModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reloaded(&model, &models::RouteModel::reloaded);
        model.reload();
        QVERIFY(reloaded.wait());
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.test({{QStringLiteral("platform"), QStringLiteral("cli")}}));
    }

    void testAMessageNamesTheWinnerAndWhyNotTheOthers_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("verdicts");
        QTest::newRow("first") << "platform=telegram chat=team-eng" << "corp/eng"
                               << QStringList{QStringLiteral("WINS: every predicate matches"),
                                              QStringLiteral("not tried: an earlier route won"),
                                              QStringLiteral("not tried: an earlier route won")};
        QTest::newRow("second") << "platform=telegram chat=random" << "corp"
                                << QStringList{QStringLiteral("no match: chat=team-*"),
                                               QStringLiteral("WINS: every predicate matches"),
                                               QStringLiteral("not tried: an earlier route won")};
        QTest::newRow("catch-all")
            << "platform=slack"
            << "lab"
            << QStringList{QStringLiteral("no match: platform=telegram, chat=team-*"),
                           QStringLiteral("no match: platform=telegram"),
                           QStringLiteral("WINS: matches every message")};
    }

    void testAMessageNamesTheWinnerAndWhyNotTheOthers()
    {
        QFETCH(QString, message);
        QFETCH(QString, folder);
        QFETCH(QStringList, verdicts);
        RoutesEditor editor(*m_workspace);
        waitForRoutes(editor);
        child<QLineEdit>(editor, "message")->setText(message);
        QCOMPARE(testColumn(editor), verdicts);
        const QString verdict = child<QLabel>(editor, "verdict")->text();
        QVERIFY2(verdict.startsWith(QStringLiteral("Goes to %1").arg(folder)), qPrintable(verdict));
        // The same answer as arizukoctl's, which is the engine's resolve().
        const CtlResult ctl =
            arizukoctl(m_dir.path(), QStringList{QStringLiteral("route"), QStringLiteral("test")} +
                                         message.split(QLatin1Char(' ')));
        const QJsonObject answer = ctl.json().object();
        QCOMPARE(answer.value(QLatin1String("folder")).toString(), folder);
        QVERIFY(verdict.contains(QStringLiteral("route #%1 ")
                                     .arg(answer.value(QLatin1String("route"))
                                              .toObject()
                                              .value(QLatin1String("id"))
                                              .toInteger())));
        if (qstrcmp(QTest::currentDataTag(), "second") == 0)
            screenshot(editor, QStringLiteral("routes-editor"));
    }

    void addedRouteIsInTheStore()
    {
        RoutesEditor editor(*m_workspace);
        waitForRoutes(editor);
        child<QSpinBox>(editor, "seq")->setValue(5);
        child<QLineEdit>(editor, "match")->setText(QStringLiteral("platform=cli"));
        child<QLineEdit>(editor, "target")->setText(QStringLiteral("lab"));
        QVERIFY(child<QLabel>(editor, "validation")->text().startsWith(QStringLiteral("Will add")));
        auto *status = child<QLabel>(editor, "status");
        QTest::mouseClick(child<QPushButton>(editor, "add"), Qt::LeftButton);
        QTRY_VERIFY2(status->text().startsWith(QStringLiteral("Added route #")),
                     qPrintable(status->text()));
        bool found = false;
        for (const QJsonValue &route : QJsonDocument::fromJson(routesJson()).array())
            found = found ||
                    (route[QLatin1String("seq")].toInteger() == 5 &&
                     route[QLatin1String("match")].toString() == QLatin1String("platform=cli"));
        QVERIFY2(found, routesJson().constData());
        // The test answers over the routes shown: the new one, once read, wins.
        QTRY_COMPARE(editor.model()->index(0, models::RouteModel::MatchColumn).data().toString(),
                     QStringLiteral("platform=cli"));
        child<QLineEdit>(editor, "message")->setText(QStringLiteral("platform=cli"));
        const QString verdict = child<QLabel>(editor, "verdict")->text();
        QVERIFY2(verdict.startsWith(QStringLiteral("Goes to lab")) &&
                     verdict.contains(QStringLiteral("(order 5,")),
                 qPrintable(verdict));
        child<QTableView>(editor, "routes")->selectRow(0);
        QTest::mouseClick(child<QPushButton>(editor, "remove"), Qt::LeftButton);
        QTRY_COMPARE(status->text(), QStringLiteral("Removed the route."));
        QVERIFY(!routesJson().contains("platform=cli"));
    }

    void badAndHostileTextIsRefusedAndTheStoreUnchanged()
    {
        const QByteArray before = routesJson();
        RoutesEditor editor(*m_workspace);
        auto *match = child<QLineEdit>(editor, "match");
        auto *target = child<QLineEdit>(editor, "target");
        const auto refused = [&](const QString &why) {
            const QString validation = child<QLabel>(editor, "validation")->text();
            QVERIFY2(validation.startsWith(QStringLiteral("Refused: ")),
                     qPrintable(why + QLatin1Char(':') + validation.left(300)));
            QVERIFY(!validation.contains(QChar(0x202E)) && !validation.contains(QChar(0)) &&
                    validation.size() < 1000);
            QVERIFY(!child<QPushButton>(editor, "add")->isEnabled());
            // The engine refuses the same route on its own, whatever the form does.
            std::optional<Result<policy::Route>> added;
            editor.model()->add(1, match->text(), target->text(),
                                [&added](const Result<policy::Route> &result) { added = result; });
            QTRY_VERIFY(added);
            QVERIFY(!*added);
        };
        match->setText(QStringLiteral("chat"));
        target->setText(QStringLiteral("lab"));
        refused(QStringLiteral("no ="));
        match->setText(QStringLiteral("chat=x"));
        for (const char *bad : {"corp eng", "corp#later", "corp/*"}) {
            target->setText(QString::fromLatin1(bad));
            refused(QString::fromLatin1(bad));
        }
        for (const QString &input : hostileInputs()) {
            match->setText(QStringLiteral("chat=") + input);
            target->setText(QStringLiteral("lab"));
            refused(QStringLiteral("match"));
            match->setText(QStringLiteral("chat=x"));
            target->setText(input);
            refused(QStringLiteral("target"));
        }
        QCOMPARE(routesJson(), before);
    }

    // A drag ends in the model's dropMimeData with the dragged row's data,
    // which is what the view calls on a drop (QDrag::exec itself needs a
    // real pointer, which offscreen has not).
    void aDraggedRowIsPersistedInItsNewPlace()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(folders::Folders(*store, QStringLiteral("user:test")).add(QStringLiteral("lab")));
        policy::Policy policy(*store);
        for (const int seq : {10, 20, 30})
            QVERIFY(policy.routes().add(seq, QStringLiteral("n=%1").arg(seq), QStringLiteral("lab"),
                                        QStringLiteral("user:test")));
        engine::Workspace workspace(*store);
        // Only what the test does changes the rows: a row removed below
        // stays shown, as in a window that has not yet heard of it.
        workspace.setWatchInterval(3600 * 1000);
        RoutesEditor editor(workspace);
        waitForRoutes(editor);
        auto *table = child<QTableView>(editor, "routes");
        QCOMPARE(table->dragDropMode(), QAbstractItemView::InternalMove);
        models::RouteModel *model = editor.model();
        // Drag the last row onto the first: it is tried first from now on.
        std::unique_ptr<QMimeData> dragged(model->mimeData({model->index(2, 0)}));
        QVERIFY(model->canDropMimeData(dragged.get(), Qt::MoveAction, 0, 0, {}));
        QVERIFY(model->dropMimeData(dragged.get(), Qt::MoveAction, 0, 0, {}));
        QTRY_COMPARE(model->index(0, models::RouteModel::MatchColumn).data().toString(),
                     QStringLiteral("n=30"));
        const auto order = [&dir] {
            QStringList matches;
            const CtlResult listed =
                arizukoctl(dir.path(), {QStringLiteral("route"), QStringLiteral("list")});
            for (const QJsonValue &route : listed.json().array())
                matches << route[QLatin1String("match")].toString() + QLatin1Char('@') +
                               QString::number(route[QLatin1String("seq")].toInteger());
            return matches;
        };
        // The seq values stay 10, 20, 30, dealt out in the new order.
        QCOMPARE(order(), (QStringList{QStringLiteral("n=30@10"), QStringLiteral("n=10@20"),
                                       QStringLiteral("n=20@30")}));
        // The move is audited with the new order.
        const CtlResult audit =
            arizukoctl(dir.path(), {QStringLiteral("audit"), QStringLiteral("--kind"),
                                    QStringLiteral("route.reorder")});
        QCOMPARE(audit.json().array().size(), 1);
        // Dropping a row back onto its own place changes nothing.
        std::unique_ptr<QMimeData> again(model->mimeData({model->index(1, 0)}));
        QVERIFY(!model->dropMimeData(again.get(), Qt::MoveAction, 2, 0, {}));
        QCOMPARE(order(), (QStringList{QStringLiteral("n=30@10"), QStringLiteral("n=10@20"),
                                       QStringLiteral("n=20@30")}));
        // A row removed elsewhere while it was dragged: refused, and said.
        const qint64 gone = model->index(2, 0).data(models::RouteModel::IdRole).toLongLong();
        QCOMPARE(arizukoctl(dir.path(),
                            {QStringLiteral("route"), QStringLiteral("rm"), QString::number(gone)})
                     .exitCode,
                 0);
        QCOMPARE(model->rowCount(), 3);
        std::unique_ptr<QMimeData> stale(model->mimeData({model->index(2, 0)}));
        QVERIFY(model->dropMimeData(stale.get(), Qt::MoveAction, 0, 0, {}));
        QTRY_COMPARE(child<QLabel>(editor, "status")->text(),
                     QStringLiteral("Not moved: there is no route #%1").arg(gone));
        QCOMPARE(order(), (QStringList{QStringLiteral("n=30@10"), QStringLiteral("n=10@20")}));
    }

    void aRouteAddedByArizukoctlShowsInTheOpenEditor()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        engine::Workspace workspace(*store);
        RoutesEditor editor(workspace);
        waitForRoutes(editor);
        QCOMPARE(editor.model()->rowCount(), 0);
        QCOMPARE(arizukoctl(dir.path(),
                            {QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("5"),
                             QStringLiteral("platform=cli"), QStringLiteral("lab")})
                     .exitCode,
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), 1, 5000);
        QCOMPARE(editor.model()->index(0, models::RouteModel::TargetColumn).data().toString(),
                 QStringLiteral("lab"));
    }
};

QTEST_MAIN(RoutesEditorTest)
#include "test_routes_editor.moc"
