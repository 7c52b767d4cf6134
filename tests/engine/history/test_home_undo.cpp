// An undo of a turn that changed a name's kind: a directory replaced by a
// file or a link, a file or a link replaced by a directory, a link by a
// file, nested. Each comes back, or is a conflict the plan already named;
// the plan restores exactly what the apply does, and an undo always ends in
// its own commit, never a half-undone home with no record.

#include "history/home_history.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <git2.h>
#include <memory>
#include <sys/stat.h>

using namespace arizuko::history;

namespace {

const QString homeId = QStringLiteral("7a2b9c4d-undo");

TurnLabel label(const QString &id)
{
    return {id, QStringLiteral("main"), QStringLiteral("replace things")};
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

QStringList conflictPaths(const UndoReport &report)
{
    QStringList paths;
    for (const UndoConflict &conflict : report.conflicts)
        paths << conflict.path;
    return sorted(paths);
}

QString explained(const UndoReport &report)
{
    QString text = QStringLiteral("restored: ") + report.restored.join(QLatin1Char(' '));
    for (const UndoConflict &conflict : report.conflicts)
        text += QStringLiteral("\nconflict %1: %2").arg(conflict.path, conflict.why);
    return text;
}

// Whether the history at `path` has the reference `name`.
bool hasReference(const QString &path, const char *name)
{
    git_libgit2_init();
    git_repository *repository = nullptr;
    bool found = false;
    if (git_repository_open_bare(&repository, QFile::encodeName(path).constData()) == 0) {
        git_oid oid{};
        found = git_reference_name_to_id(&oid, repository, name) == 0;
        git_repository_free(repository);
    }
    git_libgit2_shutdown();
    return found;
}

} // namespace

class TestHomeUndo final : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_outside;
    QString m_home;

    QString home(const QString &relative) const { return m_home + QLatin1Char('/') + relative; }

    void put(const QString &relative, const QByteArray &content)
    {
        const QString path = home(relative);
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile file(path);
        QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
        QCOMPARE(file.write(content), content.size());
    }

    QByteArray content(const QString &relative) const
    {
        const QFileInfo info(home(relative));
        if (info.isSymLink())
            return "<link>";
        QFile file(info.filePath());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArrayLiteral("<missing>");
    }

    void removeAll(const QString &relative)
    {
        const QFileInfo info(home(relative));
        if (info.isDir() && !info.isSymLink())
            QVERIFY(QDir(info.filePath()).removeRecursively());
        else
            QVERIFY(QFile::remove(info.filePath()));
    }

    std::optional<HomeHistory> m_history;

    // The turn as `change` between its two snapshots.
    template<typename Change>
    void turn(const QString &id, Change &&change)
    {
        auto opened = HomeHistory::open(m_data->path(), homeId, {});
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
        m_history.emplace(std::move(*opened));
        QVERIFY(m_history->recordBefore(label(id)));
        change();
        QVERIFY(m_history->recordAfter(label(id)));
    }

    // Plans, applies and checks that the apply did what the plan said and
    // was recorded as a commit of its own: empty, or what went wrong.
    QString undo(const QString &id, UndoMode mode, UndoReport &report)
    {
        const auto plan = m_history->undo(id, UndoMode::Plan);
        if (!plan)
            return QStringLiteral("plan: ") + plan.error().message;
        const auto done = m_history->undo(id, mode);
        if (!done)
            return QStringLiteral("undo: ") + done.error().message;
        report = *done;
        if (mode == UndoMode::Apply && (sorted(plan->restored) != sorted(done->restored) ||
                                        conflictPaths(*plan) != conflictPaths(*done)))
            return QStringLiteral("the plan was not what the undo did:\nplan %1\nundo %2")
                .arg(explained(*plan), explained(*done));
        const QByteArray reference = QStringLiteral("refs/turns/%1/undo").arg(id).toUtf8();
        if (!hasReference(m_history->path(), reference.constData()))
            return QStringLiteral("the undo left no commit:\n") + explained(*done);
        return QString();
    }

private slots:
    void init()
    {
        m_history.reset();
        m_data = std::make_unique<QTemporaryDir>();
        m_outside = std::make_unique<QTemporaryDir>();
        m_home = m_data->path() + QStringLiteral("/homes/") + homeId;
        QVERIFY(QDir().mkpath(m_home));
    }

    void aDirectoryReplacedByAFileComesBack()
    {
        put(QStringLiteral("d/a.txt"), "a\n");
        put(QStringLiteral("d/sub/b.txt"), "b\n");
        put(QStringLiteral("gone.txt"), "gone\n");
        turn(QStringLiteral("turn-dir-file"), [&] {
            removeAll(QStringLiteral("d"));
            removeAll(QStringLiteral("gone.txt"));
            put(QStringLiteral("d"), "a file now\n");
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-dir-file"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QCOMPARE(sorted(report.restored),
                 (QStringList{QStringLiteral("d"), QStringLiteral("d/a.txt"),
                              QStringLiteral("d/sub/b.txt"), QStringLiteral("gone.txt")}));
        QCOMPARE(content(QStringLiteral("d/a.txt")), QByteArray("a\n"));
        QCOMPARE(content(QStringLiteral("d/sub/b.txt")), QByteArray("b\n"));
        QCOMPARE(content(QStringLiteral("gone.txt")), QByteArray("gone\n"));
    }

    void aDirectoryReplacedByALinkComesBackAndTheTargetIsUntouched()
    {
        put(QStringLiteral("d/a.txt"), "a\n");
        turn(QStringLiteral("turn-dir-link"), [&] {
            removeAll(QStringLiteral("d"));
            QVERIFY(QFile::link(m_outside->path(), home(QStringLiteral("d"))));
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-dir-link"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QVERIFY(!QFileInfo(home(QStringLiteral("d"))).isSymLink());
        QCOMPARE(content(QStringLiteral("d/a.txt")), QByteArray("a\n"));
        QVERIFY(QDir(m_outside->path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot));
    }

    void aFileReplacedByADirectoryComesBack()
    {
        put(QStringLiteral("f"), "the file\n");
        turn(QStringLiteral("turn-file-dir"), [&] {
            removeAll(QStringLiteral("f"));
            put(QStringLiteral("f/x.txt"), "x\n");
            put(QStringLiteral("f/deep/er/y.txt"), "y\n");
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-file-dir"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QVERIFY(QFileInfo(home(QStringLiteral("f"))).isFile());
        QCOMPARE(content(QStringLiteral("f")), QByteArray("the file\n"));
    }

    void aLinkReplacedByADirectoryComesBack()
    {
        QVERIFY(QFile::link(QStringLiteral("elsewhere"), home(QStringLiteral("l"))));
        turn(QStringLiteral("turn-link-dir"), [&] {
            removeAll(QStringLiteral("l"));
            put(QStringLiteral("l/x.txt"), "x\n");
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-link-dir"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QCOMPARE(QFile::symLinkTarget(home(QStringLiteral("l"))),
                 home(QStringLiteral("elsewhere")));
    }

    void aLinkAndAFileSwappedComeBack()
    {
        QVERIFY(QFile::link(QStringLiteral("f"), home(QStringLiteral("l"))));
        put(QStringLiteral("f"), "file\n");
        turn(QStringLiteral("turn-swap"), [&] {
            removeAll(QStringLiteral("l"));
            removeAll(QStringLiteral("f"));
            put(QStringLiteral("l"), "a file where the link was\n");
            QVERIFY(QFile::link(QStringLiteral("l"), home(QStringLiteral("f"))));
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-swap"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QCOMPARE(QFile::symLinkTarget(home(QStringLiteral("l"))), home(QStringLiteral("f")));
        QVERIFY(!QFileInfo(home(QStringLiteral("f"))).isSymLink());
        QCOMPARE(content(QStringLiteral("f")), QByteArray("file\n"));
    }

    void nestedReplacementsComeBack()
    {
        put(QStringLiteral("a/b/c/d.txt"), "d\n");
        put(QStringLiteral("a/keep.txt"), "keep\n");
        put(QStringLiteral("x/y"), "y was a file\n");
        turn(QStringLiteral("turn-nested"), [&] {
            removeAll(QStringLiteral("a/b"));
            put(QStringLiteral("a/b"), "b is a file now\n");
            removeAll(QStringLiteral("x"));
            put(QStringLiteral("x/y/z/w.txt"), "y is a directory now\n");
        });
        UndoReport report;
        const QString reportFailed = undo(QStringLiteral("turn-nested"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QVERIFY2(report.conflicts.isEmpty(), qPrintable(explained(report)));
        QCOMPARE(content(QStringLiteral("a/b/c/d.txt")), QByteArray("d\n"));
        QCOMPARE(content(QStringLiteral("a/keep.txt")), QByteArray("keep\n"));
        QCOMPARE(content(QStringLiteral("x/y")), QByteArray("y was a file\n"));
    }

    // The file the turn left where a directory was changed since: left
    // alone without --force, and so is every file of that directory, which
    // the plan already calls a conflict rather than "restore".
    void aFileInTheWayChangedSinceIsAConflictThePlanNames()
    {
        put(QStringLiteral("d/a.txt"), "a\n");
        put(QStringLiteral("other.txt"), "other\n");
        turn(QStringLiteral("turn-in-the-way"), [&] {
            removeAll(QStringLiteral("d"));
            put(QStringLiteral("d"), "the turn's file\n");
            put(QStringLiteral("other.txt"), "changed\n");
        });
        put(QStringLiteral("d"), "the user's edit\n");
        UndoReport report;
        const QString reportFailed =
            undo(QStringLiteral("turn-in-the-way"), UndoMode::Apply, report);
        QVERIFY2(reportFailed.isEmpty(), qPrintable(reportFailed));
        QCOMPARE(report.restored, QStringList{QStringLiteral("other.txt")});
        QCOMPARE(conflictPaths(report),
                 (QStringList{QStringLiteral("d"), QStringLiteral("d/a.txt")}));
        QCOMPARE(content(QStringLiteral("d")), QByteArray("the user's edit\n"));
        QCOMPARE(content(QStringLiteral("other.txt")), QByteArray("other\n"));

        UndoReport forced;
        const QString forcedFailed =
            undo(QStringLiteral("turn-in-the-way"), UndoMode::Force, forced);
        QVERIFY2(forcedFailed.isEmpty(), qPrintable(forcedFailed));
        QVERIFY2(forced.conflicts.isEmpty(), qPrintable(explained(forced)));
        QCOMPARE(content(QStringLiteral("d/a.txt")), QByteArray("a\n"));
    }

    // A directory where the file was, holding a file written since: even
    // --force leaves it, says so in the plan, and restores the rest.
    void aDirectoryHoldingNewerFilesIsAConflictEvenForced()
    {
        put(QStringLiteral("f"), "the file\n");
        put(QStringLiteral("g.txt"), "g\n");
        turn(QStringLiteral("turn-newer"), [&] {
            removeAll(QStringLiteral("f"));
            put(QStringLiteral("f/x.txt"), "x\n");
            put(QStringLiteral("g.txt"), "g2\n");
        });
        put(QStringLiteral("f/mine.txt"), "written since\n");
        const auto plan = m_history->undo(QStringLiteral("turn-newer"), UndoMode::Force);
        QVERIFY(plan);
        QCOMPARE(conflictPaths(*plan), QStringList{QStringLiteral("f")});
        QCOMPARE(content(QStringLiteral("f/mine.txt")), QByteArray("written since\n"));
        QCOMPARE(content(QStringLiteral("f/x.txt")), QByteArray("<missing>"));
        QCOMPARE(content(QStringLiteral("g.txt")), QByteArray("g\n"));
        QVERIFY(hasReference(m_history->path(), "refs/turns/turn-newer/undo"));
    }

    // A file the turn added, replaced since by a FIFO (which the history
    // skips): --force leaves the FIFO and says so rather than "restored".
    void aNameTheHistorySkipsIsLeftAndSaid()
    {
        put(QStringLiteral("keep.txt"), "keep\n");
        turn(QStringLiteral("turn-fifo"), [&] { put(QStringLiteral("p"), "the turn's\n"); });
        removeAll(QStringLiteral("p"));
        QCOMPARE(::mkfifo(QFile::encodeName(home(QStringLiteral("p"))).constData(), 0600), 0);
        const auto plan = m_history->undo(QStringLiteral("turn-fifo"), UndoMode::Plan);
        QVERIFY(plan);
        QCOMPARE(conflictPaths(*plan), QStringList{QStringLiteral("p")});
        UndoReport forced;
        const QString failed = undo(QStringLiteral("turn-fifo"), UndoMode::Force, forced);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QCOMPARE(forced.restored, QStringList());
        QCOMPARE(conflictPaths(forced), QStringList{QStringLiteral("p")});
        QVERIFY2(forced.conflicts.first().why.contains(QStringLiteral("skipped")),
                 qPrintable(explained(forced)));
        QVERIFY(QFileInfo(home(QStringLiteral("p"))).exists());
    }
};

QTEST_GUILESS_MAIN(TestHomeUndo)
#include "test_home_undo.moc"
