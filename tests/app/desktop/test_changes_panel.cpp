// The turn panel's Changes tab on a real home and its real history: the
// files a turn changed with their diffs, and "Undo this turn…" that asks
// first, restores the files and is audited.

#include "audit/audit_log.h"
#include "changes_panel.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"

#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

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
    turns::TurnRecord m_turn;
    QString m_home;

private slots:
    void initTestCase()
    {
        auto opened = store::Store::open(m_data.path());
        QVERIFY(opened);
        m_store = std::move(*opened);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        const auto home = folders.home(QStringLiteral("corp"));
        QVERIFY(home);
        m_home = home->path;
        write(m_home + QStringLiteral("/edit.txt"), "one\ntwo\n");
        write(m_home + QStringLiteral("/gone.txt"), "bye\n");

        m_turn.id = QStringLiteral("5b0c2f7e-1111-4222-8333-944455556666");
        m_turn.name = QStringLiteral("az-5b0c2f7e");
        m_turn.folder = QStringLiteral("corp");
        m_turn.topic = QStringLiteral("main");
        m_turn.agent = QStringLiteral("command");
        m_turn.prompt = QStringLiteral("edit");
        m_turn.state = turns::TurnState::Done;
        m_turn.queuedAt = store::nowTimestamp();
        QVERIFY(turns::TurnRecords(*m_store).insert(m_turn));

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
        desktop::ChangesPanel panel(*m_store);
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
    }

    void undoAsksFirstThenRestoresAndIsAudited()
    {
        desktop::ChangesPanel panel(*m_store);
        QSignalSpy updated(&panel, &desktop::ChangesPanel::updated);
        panel.showTurn(m_turn);
        QVERIFY(updated.wait(10000));
        QString asked;
        // Answers the confirmation once it is up: it lists the files.
        QTimer answer;
        answer.setInterval(50);
        connect(&answer, &QTimer::timeout, &panel, [&] {
            auto *box = panel.findChild<QMessageBox *>(QStringLiteral("undoConfirmation"));
            if (!box)
                return;
            answer.stop();
            asked = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        answer.start();
        panel.undoButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 4, 20000); // plan, undo, reload
        QVERIFY2(asked.contains(QStringLiteral("edit.txt")) &&
                     asked.contains(QStringLiteral("gone.txt")) &&
                     asked.contains(QStringLiteral("new.txt")),
                 qPrintable(asked));
        QCOMPARE(read(m_home + QStringLiteral("/edit.txt")), QByteArray("one\ntwo\n"));
        QCOMPARE(read(m_home + QStringLiteral("/gone.txt")), QByteArray("bye\n"));
        QVERIFY(!QFile::exists(m_home + QStringLiteral("/new.txt")));
        audit::Query query;
        query.kind = QStringLiteral("turn.undo");
        query.subject = m_turn.id;
        const auto entries = audit::AuditLog(*m_store).query(query);
        QVERIFY(entries);
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().actor, QStringLiteral("user:gui"));
    }
};

QTEST_MAIN(ChangesPanelTest)
#include "test_changes_panel.moc"
