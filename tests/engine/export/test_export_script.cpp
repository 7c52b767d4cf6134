// The shell-script export run for real: hostile folder names, hosts and
// matches (quotes, $(), backticks, newlines, leading dashes) reach a stub
// `arizuko` as exactly the arguments they are, and nothing else runs.

#include "export/projection.h"
#include "export/script_writer.h"
#include "export_fixture.h"

#include <QProcess>
#include <QTest>

using namespace arizuko;

namespace {

// Records each call as its argument count and arguments, NUL-separated.
const char stub[] = "#!/bin/sh\n"
                    "{ printf '%s\\0' \"$#\"; for a in \"$@\"; do printf '%s\\0' \"$a\"; done; } "
                    ">> \"$ARGV_LOG\"\n";

QList<QStringList> recordedCalls(const QByteArray &log)
{
    QList<QByteArray> fields = log.split('\0');
    QList<QStringList> calls;
    qsizetype i = 0;
    while (i < fields.size() && !fields.at(i).isEmpty()) {
        const int count = fields.at(i++).toInt();
        QStringList call;
        for (int k = 0; k < count && i < fields.size(); ++k)
            call.append(QString::fromUtf8(fields.at(i++)));
        calls.append(call);
    }
    return calls;
}

} // namespace

class TestExportScript : public QObject
{
    Q_OBJECT

private slots:
    void hostileNamesReachTheCliVerbatim()
    {
        ExportFixture fixture(false);
        // Written behind the validators' back: the script must be safe for
        // whatever the store holds.
        const QStringList folders = {QStringLiteral("it's"),
                                     QStringLiteral("a\"b"),
                                     QStringLiteral("$(touch pwned)"),
                                     QStringLiteral("`touch pwned`"),
                                     QStringLiteral("new\nline; touch pwned"),
                                     QStringLiteral("-rf")};
        for (const QString &folder : folders) {
            QSqlQuery query(fixture.store().database());
            query.prepare(QStringLiteral(
                "INSERT INTO groups (folder, created_at) VALUES (?, '2026-01-01T00:00:00.000Z')"));
            query.addBindValue(folder);
            QVERIFY(query.exec());
            query.prepare(
                QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at) "
                               "VALUES (?, 'example.com', 'allow', '2026-01-01T00:00:00.000Z')"));
            query.addBindValue(folder);
            QVERIFY(query.exec());
        }
        const QString match =
            QStringLiteral("platform=$(touch${IFS}pwned)\nroom='`touch${IFS}pwned`'");
        QSqlQuery route(fixture.store().database());
        route.prepare(QStringLiteral("INSERT INTO routes (seq, match, target) VALUES (7, ?, ?)"));
        route.addBindValue(match);
        route.addBindValue(QStringLiteral("it's#observe"));
        QVERIFY(route.exec());

        manifest::ExportOptions options;
        options.include = {QStringLiteral("routes")};
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(projection);

        QTemporaryDir work;
        QFile script(work.filePath(QStringLiteral("export.sh")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(manifest::scriptText(*projection));
        script.close();
        QVERIFY(QDir(work.path()).mkdir(QStringLiteral("bin")));
        QFile stubFile(work.filePath(QStringLiteral("bin/arizuko")));
        QVERIFY(stubFile.open(QIODevice::WriteOnly));
        stubFile.write(stub);
        stubFile.close();
        stubFile.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        QProcess shell;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), work.filePath(QStringLiteral("bin")) + u':' +
                                                       environment.value(QStringLiteral("PATH")));
        environment.insert(QStringLiteral("ARGV_LOG"), work.filePath(QStringLiteral("argv.log")));
        shell.setProcessEnvironment(environment);
        shell.setWorkingDirectory(work.path());
        shell.start(QStringLiteral("/bin/sh"), {script.fileName(), QStringLiteral("prod")});
        QVERIFY(shell.waitForFinished(30000));
        QCOMPARE(shell.exitCode(), 0);

        const QList<QStringList> calls =
            recordedCalls(readFile(work.filePath(QStringLiteral("argv.log"))));
        for (const QString &folder : folders) {
            const QStringList allow = {QStringLiteral("network"), QStringLiteral("prod"),
                                       QStringLiteral("allow"), folder,
                                       QStringLiteral("example.com")};
            const QStringList add = {QStringLiteral("group"), QStringLiteral("prod"),
                                     QStringLiteral("add"), QStringLiteral("desktop:") + folder,
                                     folder};
            // A leading dash would be read as a flag: such a command is a comment.
            const int expected = folder.startsWith(u'-') ? 0 : 1;
            QCOMPARE(calls.count(allow), expected);
            QCOMPARE(calls.count(add), expected);
        }
        QCOMPARE(calls.count({QStringLiteral("route"), QStringLiteral("prod"),
                              QStringLiteral("add"), match, QStringLiteral("it's#observe"),
                              QStringLiteral("--seq"), QStringLiteral("7")}),
                 1);
        QCOMPARE(calls.size(), 2 * (folders.size() - 1) + 1);
        for (const QStringList &call : calls)
            for (const QString &argument : call)
                QVERIFY2(!argument.startsWith(u'-') || argument == u"--seq", qPrintable(argument));
        QDir dir(work.path());
        QCOMPARE(dir.entryList({QStringLiteral("pwned*")}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestExportScript)
#include "test_export_script.moc"
