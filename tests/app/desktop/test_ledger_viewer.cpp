// The egress ledger in the window, offscreen on a real store: the model
// pages newest first (fetchMore), the scope, decision and time filters
// narrow the rows, Export… writes byte for byte what arizukoctl network log
// prints for the same filter (the JSON Lines meeting the documented
// schema), a cancelled or failed export leaves no file, the turn panel's
// Network tab opens the ledger of its turn, and the allowlist editor's
// retention is stored and audited as the user's.

#include "allowlist_editor.h"
#include "audit/audit_log.h"
#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "json_schema_check.h"
#include "ledger/ledger.h"
#include "ledger/ledger_export.h"
#include "ledger_viewer.h"
#include "models/ledger_model.h"
#include "store/timestamp.h"
#include "turn_panel.h"

#include <QAbstractItemModelTester>
#include <QFileDialog>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>

using namespace arizuko;
using arizuko::desktop::LedgerViewer;
using namespace editor_test;

namespace {

const QString turnA = QStringLiteral("aaaaaaaa-0000-4000-8000-0000000000a1");
const QString turnB = QStringLiteral("bbbbbbbb-0000-4000-8000-0000000000b2");
const QString turnC = QStringLiteral("cccccccc-0000-4000-8000-0000000000c3");

ledger::LedgerWrite row(qint64 seq, const QString &turn, const QString &folder, const QString &host,
                        bool allowed, const QString &time = store::nowTimestamp())
{
    ledger::LedgerEntry entry;
    entry.time = time;
    entry.turn = turn;
    entry.eventSeq = seq;
    entry.folder = folder;
    entry.topic = QStringLiteral("main");
    entry.client = QStringLiteral("10.213.0.2");
    entry.source = QStringLiteral("proxy");
    entry.method = seq % 2 ? QStringLiteral("CONNECT") : QStringLiteral("GET");
    entry.host = host;
    entry.port = seq % 2 ? 443 : 80;
    if (!(seq % 2))
        entry.path = QStringLiteral("/simple/%1/").arg(seq);
    entry.decision = allowed ? QStringLiteral("allow") : QStringLiteral("deny");
    entry.reason = allowed ? QStringLiteral("allowed") : QStringLiteral("host-denied");
    if (allowed || seq % 3) {
        entry.ruleId = seq;
        entry.ruleText = (allowed ? QStringLiteral("allow ") : QStringLiteral("deny ")) + host;
        entry.ruleFolder = folder;
    }
    entry.status = allowed ? 200 : 403;
    if (allowed) {
        entry.bytesUp = 100 + seq;
        entry.bytesDown = 2000 + seq;
        entry.durationMs = seq % 50;
    }
    return {ledger::LedgerWrite::Kind::Insert, entry};
}

void write(store::Store &store, const QList<ledger::LedgerWrite> &writes)
{
    if (const Result<void> written = ledger::Ledger(store).write(writes); !written)
        qFatal("%s", qPrintable(written.error().message));
}

QStringList column(const models::LedgerModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toString();
    return values;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

class LedgerViewerTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;

    static void waitForRows(LedgerViewer &viewer) { QTRY_VERIFY(!viewer.model()->loading()); }

    template<typename Change>
    static void filterAndWait(LedgerViewer &viewer, Change change)
    {
        QSignalSpy reloaded(viewer.model(), &models::LedgerModel::reloaded);
        change();
        QVERIFY(reloaded.wait());
    }

    static void choose(LedgerViewer &viewer, const char *name, const QVariant &data)
    {
        auto *combo = child<QComboBox>(viewer, name);
        const int index = combo->findData(data);
        QVERIFY(index >= 0);
        filterAndWait(viewer, [combo, index] { combo->setCurrentIndex(index); });
    }

    QByteArray cliLog(const QStringList &options)
    {
        const CtlResult run =
            arizukoctl(m_dir.path(), QStringList{QStringLiteral("network"), QStringLiteral("log"),
                                                 QStringLiteral("--limit"), QStringLiteral("0")} +
                                         options);
        if (run.exitCode != 0)
            qWarning("arizukoctl: %s", run.err.constData());
        return run.out;
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("lab")));
        // The turns arizukoctl's --turn finds.
        for (const QString &turn : {turnA, turnB}) {
            QSqlQuery insert(m_store->database());
            insert.prepare(QStringLiteral(
                "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, "
                "queued_at) VALUES (?, ?, 'corp', 'main', 'command', '', 'done', ?)"));
            insert.addBindValue(turn);
            insert.addBindValue(QStringLiteral("az-") + turn.left(8));
            insert.addBindValue(store::nowTimestamp());
            QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
        }
        const QString old = store::timestamp(QDateTime::currentDateTimeUtc().addDays(-3));
        write(*m_store,
              {row(1, turnC, QStringLiteral("lab"), QStringLiteral("old.example"), true, old),
               row(2, turnC, QStringLiteral("lab"), QStringLiteral("pypi.org"), false, old)});
        QList<ledger::LedgerWrite> writes;
        // turnA in corp: 300 rows, every third denied; turnB in corp: 5; turnC in lab: 2 more.
        for (int seq = 1; seq <= 300; ++seq)
            writes << row(seq, turnA, QStringLiteral("corp"),
                          QStringLiteral("h%1.example").arg(seq), seq % 3 != 0);
        for (int seq = 1; seq <= 5; ++seq)
            writes << row(seq, turnB, QStringLiteral("corp"),
                          QStringLiteral("b%1.example").arg(seq), seq != 5);
        writes << row(3, turnC, QStringLiteral("lab"), QStringLiteral("github.com"), true)
               << row(4, turnC, QStringLiteral("lab"), QStringLiteral("evil.example"), false);
        write(*m_store, writes);
    }

    // 309 rows: a page of 200, then the rest when the view asks for more;
    // newest first throughout.
    void modelPagesNewestFirst()
    {
        models::LedgerModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reloaded(&model, &models::LedgerModel::reloaded);
        model.setFilter({});
        QVERIFY(reloaded.wait());
        QCOMPARE(model.rowCount(), models::LedgerModel::pageRows);
        // The tester asks for more itself, as a view does: either way the
        // rest comes in one more page.
        if (model.canFetchMore({}))
            model.fetchMore({});
        QTRY_COMPARE(model.rowCount(), 309);
        QVERIFY(!model.canFetchMore({}));
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.index(row - 1, 0).data(models::LedgerModel::IdRole).toLongLong() >
                    model.index(row, 0).data(models::LedgerModel::IdRole).toLongLong());
        QCOMPARE(model.index(0, models::LedgerModel::HostColumn).data().toString(),
                 QStringLiteral("evil.example:80"));
    }

    void filtersNarrowTheRows()
    {
        LedgerViewer viewer(*m_workspace, turnB, QStringLiteral("az-turn-b"),
                            QStringLiteral("corp"));
        waitForRows(viewer);
        // The shown turn's rows first.
        QCOMPARE(column(*viewer.model(), models::LedgerModel::HostColumn),
                 (QStringList{QStringLiteral("b5.example:443"), QStringLiteral("b4.example:80"),
                              QStringLiteral("b3.example:443"), QStringLiteral("b2.example:80"),
                              QStringLiteral("b1.example:443")}));
        choose(viewer, "decision", QStringLiteral("deny"));
        QCOMPARE(column(*viewer.model(), models::LedgerModel::HostColumn),
                 QStringList{QStringLiteral("b5.example:443")});
        choose(viewer, "scope", int(LedgerViewer::Scope::Folder));
        QCOMPARE(viewer.model()->rowCount(), 101); // turnA's 100 denied, turnB's one
        for (const QString &decision : column(*viewer.model(), models::LedgerModel::DecisionColumn))
            QCOMPARE(decision, QStringLiteral("deny"));
        choose(viewer, "scope", int(LedgerViewer::Scope::Everything));
        QCOMPARE(viewer.model()->rowCount(), 103);
        choose(viewer, "since", 3600);
        // lab's three-day-old denial is gone.
        QCOMPARE(viewer.model()->rowCount(), 102);
        QVERIFY(!column(*viewer.model(), models::LedgerModel::HostColumn)
                     .contains(QStringLiteral("pypi.org:80")));
        choose(viewer, "decision", QString());
        QCOMPARE(viewer.model()->rowCount(), models::LedgerModel::pageRows);
        QVERIFY(child<QLabel>(viewer, "status")->text().contains(QStringLiteral("scroll")));
        // Scrolling to the end reads the next page.
        QSignalSpy added(viewer.model(), &models::LedgerModel::pageAdded);
        viewer.show();
        viewer.table()->scrollToBottom();
        QVERIFY(added.wait());
        QCOMPARE(viewer.model()->rowCount(), 307);
    }

    // The window's file is what arizukoctl prints for the same filter.
    void exportIsWhatTheCliPrints_data()
    {
        QTest::addColumn<int>("scope");
        QTest::addColumn<QString>("decision");
        QTest::addColumn<int>("format");
        QTest::addColumn<QStringList>("options");
        QTest::newRow("turn, jsonl")
            << int(LedgerViewer::Scope::Turn) << QString() << int(ledger::LedgerFormat::JsonLines)
            << QStringList{QStringLiteral("--turn"), turnA, QStringLiteral("--format"),
                           QStringLiteral("jsonl")};
        QTest::newRow("folder denied, ocsf")
            << int(LedgerViewer::Scope::Folder) << QStringLiteral("deny")
            << int(ledger::LedgerFormat::Ocsf)
            << QStringList{QStringLiteral("--folder"),   QStringLiteral("corp"),
                           QStringLiteral("--decision"), QStringLiteral("deny"),
                           QStringLiteral("--format"),   QStringLiteral("ocsf")};
        QTest::newRow("everything, jsonl")
            << int(LedgerViewer::Scope::Everything) << QString()
            << int(ledger::LedgerFormat::JsonLines)
            << QStringList{QStringLiteral("--format"), QStringLiteral("jsonl")};
    }

    void exportIsWhatTheCliPrints()
    {
        QFETCH(int, scope);
        QFETCH(QString, decision);
        QFETCH(int, format);
        QFETCH(QStringList, options);
        LedgerViewer viewer(*m_workspace, turnA, QStringLiteral("az-turn-a"),
                            QStringLiteral("corp"));
        waitForRows(viewer);
        if (scope != int(LedgerViewer::Scope::Turn))
            choose(viewer, "scope", scope);
        if (!decision.isEmpty())
            choose(viewer, "decision", decision);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("ledger.jsonl"));
        QSignalSpy finished(&viewer, &LedgerViewer::exportFinished);
        viewer.exportTo(path, ledger::LedgerFormat(format));
        QVERIFY(finished.wait(20000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        const QByteArray written = readAll(path);
        QVERIFY(written.count('\n') > 0);
        QCOMPARE(written, cliLog(options));
        if (format == int(ledger::LedgerFormat::JsonLines)) {
            QFile file(QStringLiteral(LEDGER_SCHEMA));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject schema = QJsonDocument::fromJson(file.readAll()).object();
            for (const QByteArray &line : written.split('\n')) {
                if (line.isEmpty())
                    continue;
                const QStringList wrong =
                    schemaViolations(QJsonDocument::fromJson(line).object(), schema);
                QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
            }
        }
        // Only the file itself: no temporary one beside it.
        QCOMPARE(QDir(out.path()).entryList(QDir::Files),
                 QStringList{QStringLiteral("ledger.jsonl")});
    }

    // Export… by the keyboard's way: the file dialog, its OCSF format.
    void exportThroughTheFileDialog()
    {
        LedgerViewer viewer(*m_workspace, turnB, QStringLiteral("az-turn-b"),
                            QStringLiteral("corp"));
        waitForRows(viewer);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("turn-b.ocsf.jsonl"));
        QSignalSpy finished(&viewer, &LedgerViewer::exportFinished);
        child<QPushButton>(viewer, "exportButton")->click();
        auto *dialog = child<QFileDialog>(viewer, "ledgerExportFile");
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("az-turn-b")));
        dialog->selectNameFilter(dialog->nameFilters().at(1));
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept(); // as the Save button does
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(0).toBool());
        QCOMPARE(readAll(path), cliLog({QStringLiteral("--turn"), turnB, QStringLiteral("--format"),
                                        QStringLiteral("ocsf")}));
        QVERIFY(child<QLabel>(viewer, "status")->text().contains(QStringLiteral("5 requests")));
    }

    // Cancel mid-way: nothing at the path, nothing beside it.
    void cancelLeavesNoFile()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        engine::Workspace workspace(*store);
        QList<ledger::LedgerWrite> writes;
        for (int seq = 1; seq <= 60000; ++seq)
            writes << row(seq, turnA, QStringLiteral("corp"), QStringLiteral("x.example"), true);
        write(*store, writes);
        LedgerViewer viewer(workspace, turnA, QStringLiteral("az-turn-a"), QStringLiteral("corp"));
        waitForRows(viewer);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("cancelled.jsonl"));
        QSignalSpy finished(&viewer, &LedgerViewer::exportFinished);
        viewer.exportTo(path, ledger::LedgerFormat::JsonLines);
        QVERIFY(viewer.exportProgress());
        // Its Cancel button, as a person presses it (Escape does the same).
        child<QPushButton>(*viewer.exportProgress(), "cancelExport")->click();
        QVERIFY(finished.wait(30000));
        QVERIFY(!finished.first().at(0).toBool());
        QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("cancelled")));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden), QStringList());

        // The same in the ledger's export itself, cancelled before its first page.
        ledger::Ledger ledger(*store);
        ledger::ExportProgress progress;
        progress.cancel = true;
        const Result<qint64> exported =
            ledger::exportLedger(ledger, {}, ledger::LedgerFormat::Ocsf, path, progress);
        QVERIFY(!exported);
        QCOMPARE(exported.error().code, QStringLiteral("ledger.export-cancelled"));
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // A file that cannot be written: the message names it and the cause.
    void failureNamesTheFile()
    {
        LedgerViewer viewer(*m_workspace, turnB, QStringLiteral("az-turn-b"),
                            QStringLiteral("corp"));
        waitForRows(viewer);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("missing/dir/ledger.jsonl"));
        QSignalSpy finished(&viewer, &LedgerViewer::exportFinished);
        viewer.exportTo(path, ledger::LedgerFormat::JsonLines);
        QVERIFY(finished.wait(20000));
        QVERIFY(!finished.first().at(0).toBool());
        const QString message = finished.first().at(1).toString();
        qInfo("%s", qPrintable(message));
        QVERIFY(message.contains(path));
        QVERIFY(message.size() >
                path.size() + QStringLiteral("The export failed: cannot write : ").size());
        QVERIFY(!QFile::exists(path));
    }

    void turnPanelOpensItsTurnsLedger()
    {
        desktop::TurnPanel panel(*m_workspace);
        turns::TurnRecord turn;
        turn.id = turnB;
        turn.name = QStringLiteral("az-turn-b");
        turn.folder = QStringLiteral("corp");
        turn.topic = QStringLiteral("main");
        turn.state = turns::TurnState::Done;
        panel.showTurn(turn);
        QVERIFY(panel.ledgerButton()->isEnabled());
        QVERIFY(!panel.ledgerButton()->accessibleName().isEmpty());
        panel.ledgerButton()->click();
        auto *viewer = panel.findChild<LedgerViewer *>(QStringLiteral("ledgerViewer"));
        QVERIFY(viewer);
        QTRY_COMPARE(viewer->model()->rowCount(), 5);
        QCOMPARE(viewer->filter().turn, turnB);
        desktop::screenshot(*viewer, QStringLiteral("ledger-viewer"));
        viewer->close();
    }

    void retentionIsStoredAndAudited()
    {
        desktop::AllowlistEditor editor(*m_workspace, QStringLiteral("lab"));
        auto *days = child<QSpinBox>(editor, "ledgerRetention");
        QTRY_VERIFY(days->isEnabled());
        QCOMPARE(days->value(), ledger::defaultRetentionDays);
        // Leaving it unchanged writes nothing.
        emit days->editingFinished();
        days->setValue(9);
        emit days->editingFinished();
        QTRY_COMPARE(*ledger::Ledger(*m_store).retentionDays(QStringLiteral("lab")), 9);
        audit::Query query;
        query.kind = QStringLiteral("ledger.retention");
        const auto entries = audit::AuditLog(*m_store).query(query);
        QVERIFY(entries);
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().actor, QStringLiteral("user:gui"));
        QCOMPARE(entries->first().subject, QStringLiteral("lab"));
        QCOMPARE(entries->first().detail.value(QLatin1String("days")).toInt(), 9);
        // arizukoctl sees it, and its own change is audited as the CLI's.
        const CtlResult shown =
            arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("retention"),
                                      QStringLiteral("lab")});
        QCOMPARE(shown.json().object().value(QLatin1String("days")).toInt(), 9);
        QCOMPARE(arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("retention"),
                                           QStringLiteral("lab"), QStringLiteral("12")})
                     .exitCode,
                 0);
        const auto after = audit::AuditLog(*m_store).query(query);
        QCOMPARE(after->size(), 2);
        QCOMPARE(after->last().actor, QStringLiteral("user:cli"));
        desktop::screenshot(editor, QStringLiteral("allowlist-editor-retention"));
    }
};

QTEST_MAIN(LedgerViewerTest)
#include "test_ledger_viewer.moc"
