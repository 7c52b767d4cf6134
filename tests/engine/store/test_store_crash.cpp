// kill -9 in the middle of a write loop: the database still passes
// integrity_check, holds every row the writer reported committed, and no
// transaction is half there (each folder row has its audit entry).

#include "store/store.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace arizuko;

namespace {

QStringList column(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        qFatal("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    QStringList values;
    while (query.next())
        values << query.value(0).toString();
    return values;
}

} // namespace

class StoreCrashTest : public QObject
{
    Q_OBJECT

private slots:
    void killedWritersLoseNothingCommitted()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        QSet<QString> reported;
        constexpr int rounds = 6;
        for (int round = 0; round < rounds; ++round) {
            const QString label = QStringLiteral("round%1").arg(round);
            QProcess writer;
            writer.start(QStringLiteral(STORE_WRITER), {dataDir, label, QStringLiteral("-1")});
            QVERIFY(writer.waitForStarted());
            // Kill at a different moment each round, always mid-loop.
            const int killAfter = 10 + static_cast<int>(QRandomGenerator::global()->bounded(60));
            int seen = 0;
            QByteArray pending;
            while (seen < killAfter) {
                QVERIFY2(writer.state() == QProcess::Running || writer.bytesAvailable() > 0,
                         writer.readAllStandardError().constData());
                writer.waitForReadyRead(5000);
                pending += writer.readAllStandardOutput();
                const qsizetype lastNewline = pending.lastIndexOf('\n');
                if (lastNewline < 0)
                    continue;
                for (const QByteArray &line : pending.left(lastNewline).split('\n')) {
                    if (line.startsWith("committed ")) {
                        reported.insert(label + QLatin1Char('-') +
                                        QString::fromLatin1(line.mid(10)));
                        ++seen;
                    }
                }
                pending = pending.mid(lastNewline + 1);
            }
            ::kill(static_cast<pid_t>(writer.processId()), SIGKILL);
            QVERIFY(writer.waitForFinished(10000));
            QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
            pending += writer.readAllStandardOutput();
            for (const QByteArray &line : pending.split('\n')) {
                if (line.startsWith("committed "))
                    reported.insert(label + QLatin1Char('-') + QString::fromLatin1(line.mid(10)));
            }
        }

        const auto store = store::Store::open(dataDir);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
        const QSqlDatabase db = (*store)->database();
        QCOMPARE(column(db, QStringLiteral("PRAGMA integrity_check")),
                 QStringList{QStringLiteral("ok")});
        QCOMPARE(column(db, QStringLiteral("PRAGMA foreign_key_check")), QStringList());
        const QStringList folders = column(db, QStringLiteral("SELECT folder FROM groups"));
        const QSet<QString> stored(folders.begin(), folders.end());
        for (const QString &folder : std::as_const(reported))
            QVERIFY2(stored.contains(folder),
                     qPrintable(folder + QStringLiteral(" was reported committed but is gone")));
        // At most one commit per round can land between the commit and its
        // report line.
        QVERIFY(stored.size() <= reported.size() + rounds);
        QCOMPARE(
            column(db,
                   QStringLiteral(
                       "SELECT count(*) FROM groups g WHERE NOT EXISTS (SELECT 1 FROM audit_log a "
                       "WHERE a.kind = 'folder.add' AND a.subject = g.folder)")),
            QStringList{QStringLiteral("0")});
        QCOMPARE(
            column(db, QStringLiteral("SELECT count(*) FROM audit_log WHERE kind = 'folder.add'")),
            QStringList{QString::number(stored.size())});
        qInfo("%d rounds killed mid-loop; %lld commits reported, %lld rows stored", rounds,
              static_cast<long long>(reported.size()), static_cast<long long>(stored.size()));
    }
};

QTEST_GUILESS_MAIN(StoreCrashTest)
#include "test_store_crash.moc"
