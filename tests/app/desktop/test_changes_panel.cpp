// The turn panel's Changes tab on a real home and its real history: the
// files a turn changed with their diffs (and which of them the history
// holds by size and time only), and "Undo this turn…" that asks first,
// restores the files and is audited.

#include "audit/audit_log.h"
#include "changes_panel.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "store/store.h"
#include "synthetic_events.h"
#include "turn_records/turn_records.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <functional>

using namespace arizuko;

namespace {

void write(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

QByteArray read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArrayLiteral("<missing>");
}

} // namespace

class ChangesPanelTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;
    turns::TurnRecord m_turn;
    QString m_home;
    QString m_homeId;

    // An ended turn of corp/main.
    turns::TurnRecord insertTurn(const QString &id)
    {
        turns::TurnRecord turn = desktop::syntheticTurn(
            QStringLiteral("corp"), QStringLiteral("main"), turns::TurnState::Done);
        turn.id = id;
        turn.name = QStringLiteral("az-") + id.left(8);
        if (!turns::TurnRecords(*m_store).insert(turn))
            qFatal("no turn record");
        return turn;
    }

    // The audit log's turn.undo entries of a turn.
    QList<audit::Entry> undoEntries(const QString &turnId)
    {
        audit::Query query;
        query.kind = QStringLiteral("turn.undo");
        query.subject = turnId;
        const auto entries = audit::AuditLog(*m_store).query(query);
        return entries ? *entries : QList<audit::Entry>();
    }

    history::HomeHistory openHistory()
    {
        auto history = history::HomeHistory::open(m_data.path(), m_homeId, {});
        if (!history)
            qFatal("%s", qPrintable(history.error().message));
        return std::move(*history);
    }

    // Clicks Yes on the undo's confirmation once it is up, checking "restore
    // the conflicts too" first when `force`; returns what it said.
    std::shared_ptr<QString> answerUndo(desktop::ChangesPanel &panel, bool force)
    {
        auto asked = std::make_shared<QString>();
        auto *answer = new QTimer(&panel);
        answer->setInterval(50);
        connect(answer, &QTimer::timeout, &panel, [&panel, answer, asked, force] {
            auto *box = panel.findChild<QMessageBox *>(QStringLiteral("undoConfirmation"));
            if (!box)
                return;
            answer->stop();
            *asked = box->text();
            if (force)
                box->checkBox()->setChecked(true);
            box->button(QMessageBox::Yes)->click();
        });
        answer->start();
        return asked;
    }

    // An ended turn that changed `file` in the home from `before` to `after`.
    turns::TurnRecord turnWriting(const QString &id, const QString &file, const QByteArray &before,
                                  const QByteArray &after)
    {
        const QString path = m_home + QLatin1Char('/') + file;
        write(path, before);
        const turns::TurnRecord turn = insertTurn(id);
        history::HomeHistory history = openHistory();
        const history::TurnLabel label{turn.id, turn.topic, turn.prompt};
        if (!history.recordBefore(label))
            qFatal("no snapshot before");
        write(path, after);
        if (!history.recordAfter(label))
            qFatal("no snapshot after");
        return turn;
    }

    // Clicks "Undo this turn…", runs `meanwhile` while the undo is planned,
    // and waits for its confirmation (null if none came up within 20 s).
    static QPointer<QMessageBox> askUndo(desktop::ChangesPanel &panel,
                                         const std::function<void()> &meanwhile = {})
    {
        QPointer<QMessageBox> box;
        if (!QTest::qWaitFor([&panel] { return panel.undoButton()->isEnabled(); }, 20000))
            return box;
        panel.undoButton()->click();
        if (meanwhile)
            meanwhile();
        (void)QTest::qWaitFor(
            [&panel, &box] {
                for (QMessageBox *shown :
                     panel.findChildren<QMessageBox *>(QStringLiteral("undoConfirmation"))) {
                    if (shown->isVisible())
                        box = shown;
                }
                return !box.isNull();
            },
            20000);
        return box;
    }

private slots:
    void initTestCase()
    {
        auto opened = store::Store::open(m_data.path());
        QVERIFY(opened);
        m_store = std::move(*opened);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        const auto home = folders.home(QStringLiteral("corp"));
        QVERIFY(home);
        m_home = home->path;
        write(m_home + QStringLiteral("/edit.txt"), "one\ntwo\n");
        write(m_home + QStringLiteral("/gone.txt"), "bye\n");

        m_homeId = home->id;
        m_turn = insertTurn(QStringLiteral("5b0c2f7e-1111-4222-8333-944455556666"));
        auto history = history::HomeHistory::open(m_data.path(), home->id, {});
        QVERIFY(history);
        const history::TurnLabel label{m_turn.id, m_turn.topic, m_turn.prompt};
        QVERIFY(history->recordBefore(label));
        write(m_home + QStringLiteral("/edit.txt"), "one\n2\n");
        QVERIFY(QFile::remove(m_home + QStringLiteral("/gone.txt")));
        write(m_home + QStringLiteral("/new.txt"), "<script>alert(1)</script>\n");
        QVERIFY(history->recordAfter(label));
    }

    void listsTheFilesAndShowsEachDiff()
    {
        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(m_turn);
        QVERIFY(updated.wait(10000));
        QTreeWidget *files = panel.files();
        QCOMPARE(files->topLevelItemCount(), 3);
        QStringList rows;
        for (int i = 0; i < files->topLevelItemCount(); ++i)
            rows << files->topLevelItem(i)->text(0) + QLatin1Char(' ') +
                        files->topLevelItem(i)->text(1);
        rows.sort();
        QCOMPARE(rows,
                 (QStringList{QStringLiteral("added new.txt"), QStringLiteral("deleted gone.txt"),
                              QStringLiteral("modified edit.txt")}));
        for (int i = 0; i < files->topLevelItemCount(); ++i) {
            if (files->topLevelItem(i)->text(1) == u"edit.txt")
                files->setCurrentItem(files->topLevelItem(i));
        }
        QVERIFY2(panel.diff()->toPlainText().contains(QStringLiteral("-two\n+2")),
                 qPrintable(panel.diff()->toPlainText()));
        QVERIFY(panel.undoButton()->isEnabled());
        // Below the list: what the home's history takes on disk (du's
        // figure) and the turns it keeps, with the policy.
        const QRegularExpression use(QStringLiteral(
            "^History of this folder's home: ([0-9.]+) MiB on disk, 1 turn\\(s\\) \\(keeps "
            "the newest 200 within 2048 MiB\\)\\.$"));
        const auto match = use.match(panel.historyUse()->text());
        QVERIFY2(match.hasMatch(), qPrintable(panel.historyUse()->text()));
        QProcess du;
        du.start(QStringLiteral("du"),
                 {QStringLiteral("-s"), QStringLiteral("--block-size=1"),
                  history::HomeHistory::repositoryPath(m_data.path(), m_homeId)});
        QVERIFY(du.waitForFinished(60000));
        const double mib = du.readAllStandardOutput().split('\t').first().toDouble() / (1 << 20);
        QVERIFY2(qAbs(match.captured(1).toDouble() - mib) <= 0.05,
                 qPrintable(QStringLiteral("%1 vs du %2").arg(match.captured(1)).arg(mib)));
    }

    void undoAsksFirstThenRestoresAndIsAudited()
    {
        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(m_turn);
        QVERIFY(updated.wait(10000));
        // The confirmation lists the files.
        const auto asked = answerUndo(panel, false);
        panel.undoButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 4, 20000); // plan, undo, reload
        QVERIFY2(asked->contains(QStringLiteral("edit.txt")) &&
                     asked->contains(QStringLiteral("gone.txt")) &&
                     asked->contains(QStringLiteral("new.txt")),
                 qPrintable(*asked));
        QCOMPARE(read(m_home + QStringLiteral("/edit.txt")), QByteArray("one\ntwo\n"));
        QCOMPARE(read(m_home + QStringLiteral("/gone.txt")), QByteArray("bye\n"));
        QVERIFY(!QFile::exists(m_home + QStringLiteral("/new.txt")));
        const QList<audit::Entry> entries = undoEntries(m_turn.id);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().actor, QStringLiteral("user:gui"));
        // Once the list is read again, the status still tells what the undo did.
        QCOMPARE(panel.status()->text(),
                 QStringLiteral("Undone: 3 file(s) restored\n3 file(s) changed in the home."));
    }

    void cancelOrEscapeLeavesTheHomeAlone_data()
    {
        QTest::addColumn<bool>("escape");
        QTest::newRow("Cancel") << false;
        QTest::newRow("Escape") << true;
    }

    void cancelOrEscapeLeavesTheHomeAlone()
    {
        QFETCH(bool, escape);
        const QString file =
            QStringLiteral("kept-%1.txt").arg(QLatin1String(QTest::currentDataTag()));
        const turns::TurnRecord turn =
            turnWriting(escape ? QStringLiteral("a1e50000-1111-4222-8333-9444")
                               : QStringLiteral("a1ca0000-1111-4222-8333-9444"),
                        file, "before\n", "by the turn\n");
        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(turn);
        QVERIFY(updated.wait(10000));

        QPointer<QMessageBox> box = askUndo(panel);
        QVERIFY(box);
        // Asked window-modal, the panel's event loop going on meanwhile.
        QCOMPARE(box->windowModality(), Qt::WindowModal);
        if (escape)
            QTest::keyClick(box, Qt::Key_Escape);
        else
            box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY_WITH_TIMEOUT(box.isNull(), 10000);
        // Asking again runs one more job on the panel's worker, after any
        // the answer started: once it is up, an undo would have been done.
        box = askUndo(panel);
        QVERIFY(box);
        QCOMPARE(read(m_home + QLatin1Char('/') + file), QByteArray("by the turn\n"));
        QCOMPARE(undoEntries(turn.id).size(), 0);
        box->button(QMessageBox::Cancel)->click();
    }

    // The confirmation lists the files of the turn it was asked for; a turn
    // the panel shows meanwhile (one queued since) does not take its answer.
    void aTurnShownMeanwhileDoesNotRedirectTheUndo()
    {
        const turns::TurnRecord asked =
            turnWriting(QStringLiteral("a5ed0000-1111-4222-8333-9444"), QStringLiteral("asked.txt"),
                        "before\n", "by the asked turn\n");
        const turns::TurnRecord later =
            turnWriting(QStringLiteral("1a7e0000-1111-4222-8333-9444"), QStringLiteral("later.txt"),
                        "before\n", "by the later turn\n");
        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(asked);
        QVERIFY(updated.wait(10000));
        QPointer<QMessageBox> box = askUndo(panel);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("asked.txt")), qPrintable(box->text()));

        panel.showTurn(later);
        QVERIFY(updated.wait(10000));
        QCOMPARE(panel.files()->topLevelItem(0)->text(1), QStringLiteral("later.txt"));
        QVERIFY(box->isVisible());
        const qsizetype before = updated.count();
        box->button(QMessageBox::Yes)->click();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= before + 2, 20000); // undo, reload
        QCOMPARE(read(m_home + QStringLiteral("/asked.txt")), QByteArray("before\n"));
        QCOMPARE(read(m_home + QStringLiteral("/later.txt")), QByteArray("by the later turn\n"));
        QCOMPARE(undoEntries(asked.id).size(), 1);
        QCOMPARE(undoEntries(later.id).size(), 0);
    }

    // The window shows the topic's latest turn again whenever any turn
    // changes: showing the turn already shown neither reloads it nor drops
    // the undo being planned for it.
    void showingTheSameTurnAgainKeepsTheUndoBeingPlanned()
    {
        const turns::TurnRecord turn =
            turnWriting(QStringLiteral("5a3e0000-1111-4222-8333-9444"), QStringLiteral("same.txt"),
                        "before\n", "by the turn\n");
        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(turn);
        QVERIFY(updated.wait(10000));

        QPointer<QMessageBox> box = askUndo(panel, [this, &panel, &turn] {
            const auto again = turns::TurnRecords(*m_store).find(turn.id);
            QVERIFY(again);
            panel.showTurn(*again);
        });
        QVERIFY2(box, qPrintable(panel.status()->text()));
        QVERIFY2(box->text().contains(QStringLiteral("same.txt")), qPrintable(box->text()));
        QCOMPARE(updated.count(), 2); // the first load and the plan, no reload
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY_WITH_TIMEOUT(box.isNull(), 10000);
        QCOMPARE(read(m_home + QStringLiteral("/same.txt")), QByteArray("by the turn\n"));
        QVERIFY(panel.undoButton()->isEnabled());
    }

    void aConflictIsLeftAloneUnlessTheUserChoosesToRestoreIt()
    {
        const turns::TurnRecord turn = insertTurn(QStringLiteral("7d1e3a9b-1111-4222-8333-9444"));
        history::HomeHistory history = openHistory();
        const history::TurnLabel label{turn.id, turn.topic, turn.prompt};
        QVERIFY(history.recordBefore(label));
        write(m_home + QStringLiteral("/edit.txt"), "by the turn\n");
        write(m_home + QStringLiteral("/t2.txt"), "added\n");
        QVERIFY(history.recordAfter(label));
        write(m_home + QStringLiteral("/edit.txt"), "by the user since\n");

        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(turn);
        QVERIFY(updated.wait(10000));
        auto asked = answerUndo(panel, false);
        panel.undoButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 4, 20000);
        QVERIFY2(asked->contains(QStringLiteral("Changed since the turn, left alone:\nedit.txt")),
                 qPrintable(*asked));
        QCOMPARE(read(m_home + QStringLiteral("/edit.txt")), QByteArray("by the user since\n"));
        QVERIFY(!QFile::exists(m_home + QStringLiteral("/t2.txt")));

        // The user chooses otherwise: the conflict is restored too.
        QTRY_VERIFY(panel.undoButton()->isEnabled());
        asked = answerUndo(panel, true);
        panel.undoButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 7, 20000);
        QCOMPARE(read(m_home + QStringLiteral("/edit.txt")), QByteArray("one\ntwo\n"));
        const QList<audit::Entry> entries = undoEntries(turn.id);
        QCOMPARE(entries.size(), 2);
        QStringList forced;
        for (const audit::Entry &entry : entries)
            forced << (entry.detail.value(QStringLiteral("forced")).toBool()
                           ? QStringLiteral("forced")
                           : QStringLiteral("not"));
        forced.sort();
        QCOMPARE(forced, (QStringList{QStringLiteral("forced"), QStringLiteral("not")}));
    }

    void turnsThatSharedTheHomeAreNamed()
    {
        const turns::TurnRecord first = insertTurn(QStringLiteral("91aa0000-1111-4222-8333-9444"));
        const turns::TurnRecord second = insertTurn(QStringLiteral("92bb0000-1111-4222-8333-9444"));
        // Ended without a snapshot after (an engine that died): not named.
        const turns::TurnRecord lost = insertTurn(QStringLiteral("93cc0000-1111-4222-8333-9444"));
        history::HomeHistory history = openHistory();
        const history::TurnLabel one{first.id, first.topic, first.prompt};
        const history::TurnLabel two{second.id, second.topic, second.prompt};
        QVERIFY(history.recordBefore(one));
        QVERIFY(history.recordBefore(two));
        QVERIFY(history.recordBefore({lost.id, lost.topic, lost.prompt}));
        write(m_home + QStringLiteral("/one.txt"), "1\n");
        write(m_home + QStringLiteral("/two.txt"), "2\n");
        QVERIFY(history.recordAfter(one));
        QVERIFY(history.recordAfter(two));

        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(first);
        QVERIFY(updated.wait(10000));
        const QString status = panel.findChild<QLabel *>(QStringLiteral("changesStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("Turn(s) az-92bb0000 of this home ran at the same "
                                                "time")),
                 qPrintable(status));
        QVERIFY2(!status.contains(QStringLiteral("az-93cc0000")), qPrintable(status));
    }

    // Such a file cannot be restored: the tab says so as the CLI does.
    void aFileOverTheLimitIsMarkedAsRecordedBySizeAndTimeOnly()
    {
        const turns::TurnRecord turn = insertTurn(QStringLiteral("94dd0000-1111-4222-8333-9444"));
        // A history that stores files of at most 64 bytes.
        auto history = history::HomeHistory::open(m_data.path(), m_homeId, {64, false});
        QVERIFY(history);
        const history::TurnLabel label{turn.id, turn.topic, turn.prompt};
        QVERIFY(history->recordBefore(label));
        write(m_home + QStringLiteral("/large.bin"), QByteArray(100, 'x'));
        write(m_home + QStringLiteral("/small.txt"), "small\n");
        QVERIFY(history->recordAfter(label));

        desktop::ChangesPanel panel(*m_workspace);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(turn);
        QVERIFY(updated.wait(10000));
        QStringList files;
        for (int i = 0; i < panel.files()->topLevelItemCount(); ++i)
            files << panel.files()->topLevelItem(i)->text(1);
        files.sort();
        QCOMPARE(files, (QStringList{QStringLiteral("large.bin (over the history file limit: "
                                                    "recorded by its size and time only)"),
                                     QStringLiteral("small.txt")}));
    }
};

QTEST_MAIN(ChangesPanelTest)
#include "test_changes_panel.moc"
