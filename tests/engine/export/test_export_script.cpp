// The shell-script export run for real: hostile folder names, hosts and
// matches (quotes, $(), backticks, newlines, leading dashes) reach a stub
// `arizuko` as exactly the arguments they are, and nothing else runs.

#include "export/projection.h"
#include "export/script_writer.h"
#include "export_fixture.h"

#include <QProcess>
#include <QTest>

using namespace arizuko;
using namespace Qt::StringLiterals;

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
        const QStringList folders = {u"it's"_s,
                                     u"a\"b"_s,
                                     u"$(touch pwned)"_s,
                                     u"`touch pwned`"_s,
                                     u"new\nline; touch pwned"_s,
                                     u"-rf"_s};
        for (const QString &folder : folders) {
            QSqlQuery query(fixture.store().database());
            query.prepare(
                u"INSERT INTO groups (folder, created_at) VALUES (?, '2026-01-01T00:00:00.000Z')"_s);
            query.addBindValue(folder);
            QVERIFY(query.exec());
            query.prepare(u"INSERT INTO network_rules (folder, target, kind, created_at) "
                          u"VALUES (?, 'example.com', 'allow', '2026-01-01T00:00:00.000Z')"_s);
            query.addBindValue(folder);
            QVERIFY(query.exec());
        }
        const QString match = u"platform=$(touch${IFS}pwned)\nroom='`touch${IFS}pwned`'"_s;
        QSqlQuery route(fixture.store().database());
        route.prepare(u"INSERT INTO routes (seq, match, target) VALUES (7, ?, ?)"_s);
        route.addBindValue(match);
        route.addBindValue(u"it's#observe"_s);
        QVERIFY(route.exec());

        manifest::ExportOptions options;
        options.include = {u"routes"_s};
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(projection);

        QTemporaryDir work;
        QFile script(work.filePath(u"export.sh"_s));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(manifest::scriptText(*projection));
        script.close();
        QVERIFY(QDir(work.path()).mkdir(u"bin"_s));
        QFile stubFile(work.filePath(u"bin/arizuko"_s));
        QVERIFY(stubFile.open(QIODevice::WriteOnly));
        stubFile.write(stub);
        stubFile.close();
        stubFile.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        QProcess shell;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"PATH"_s,
                           work.filePath(u"bin"_s) + u':' + environment.value(u"PATH"_s));
        environment.insert(u"ARGV_LOG"_s, work.filePath(u"argv.log"_s));
        shell.setProcessEnvironment(environment);
        shell.setWorkingDirectory(work.path());
        shell.start(u"/bin/sh"_s, {script.fileName(), u"prod"_s});
        QVERIFY(shell.waitForFinished(30000));
        QCOMPARE(shell.exitCode(), 0);

        const QList<QStringList> calls = recordedCalls(readFile(work.filePath(u"argv.log"_s)));
        for (const QString &folder : folders) {
            const QStringList allow = {u"network"_s, u"prod"_s, u"allow"_s, folder,
                                       u"example.com"_s};
            const QStringList add = {u"group"_s, u"prod"_s, u"add"_s, u"desktop:"_s + folder,
                                     folder};
            // A leading dash would be read as a flag: such a command is a comment.
            const int expected = folder.startsWith(u'-') ? 0 : 1;
            QCOMPARE(calls.count(allow), expected);
            QCOMPARE(calls.count(add), expected);
        }
        QCOMPARE(calls.count({u"route"_s, u"prod"_s, u"add"_s, match, u"it's#observe"_s, u"--seq"_s,
                              u"7"_s}),
                 1);
        QCOMPARE(calls.size(), 2 * (folders.size() - 1) + 1);
        for (const QStringList &call : calls)
            for (const QString &argument : call)
                QVERIFY2(!argument.startsWith(u'-') || argument == u"--seq", qPrintable(argument));
        QDir dir(work.path());
        QCOMPARE(dir.entryList({u"pwned*"_s}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestExportScript)
#include "test_export_script.moc"
