// `arizukoctl image build` as a person runs it: the complete guest image,
// built by the real installer/build-guest-image into a scratch directory
// from the downloads ./dev's own image build cached (about a minute on an
// idle machine, more under load; nothing is downloaded then), its steps on
// the terminal with the time since the start, then the image it made
// accepted by `image status`; a second build finds it up to date and keeps
// it.

#include "cli_runner.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class CliImageBuildTest : public QObject
{
    Q_OBJECT

private slots:
    void buildsTheImageTurnsBoot()
    {
        QTemporaryDir scratch;
        const QString image = scratch.filePath(QStringLiteral("guest"));
        Cli cli(scratch.filePath(QStringLiteral("data")));
        cli.environment().insert(QStringLiteral("ARIZUKO_GUEST_IMAGE_DIR"), image);
        cli.environment().remove(QStringLiteral("ARIZUKO_GUEST_IMAGE_BUILDER"));

        CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("build")}, {}, 1200000);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // One line per step, "[  12.3s]  75% writing root.img (ext4)", in the
        // order the builder takes them: time and percentage never go back.
        static const QRegularExpression stepLine(
            QStringLiteral(R"(^\[ *(\d+\.\d)s\] +(\d+)% (.*)$)"));
        double lastSeconds = 0;
        int lastPercent = 0;
        QStringList steps;
        for (const QByteArray &line : run.err.split('\n')) {
            const QRegularExpressionMatch match = stepLine.match(QString::fromUtf8(line));
            if (!match.hasMatch())
                continue;
            QVERIFY2(match.captured(1).toDouble() >= lastSeconds, line.constData());
            QVERIFY2(match.captured(2).toInt() >= lastPercent, line.constData());
            lastSeconds = match.captured(1).toDouble();
            lastPercent = match.captured(2).toInt();
            steps << match.captured(3);
        }
        qInfo("%s", run.err.constData());
        QVERIFY2(steps.size() >= 8, run.err.constData());
        QVERIFY(steps.first().startsWith(QStringLiteral("starting ")));
        // Known steps and those of no known place (pi's bundling) alike.
        for (const QString &expected :
             {QStringLiteral("resolving input versions"), QStringLiteral("extracting packages"),
              QStringLiteral("bundling pi"), QStringLiteral("writing root.img")}) {
            QVERIFY2(
                std::any_of(steps.begin(), steps.end(),
                            [&expected](const QString &step) { return step.startsWith(expected); }),
                qPrintable(expected));
        }
        QVERIFY2(steps.last().startsWith(QStringLiteral("done: ")), qPrintable(steps.last()));
        QCOMPARE(lastPercent, 100);
        // The status of what was built closes the build.
        QVERIFY2(run.out.contains("state          up to date"), run.out.constData());
        QCOMPARE(QDir(image).entryList({QStringLiteral(".work.*")}, QDir::Dirs | QDir::Hidden),
                 QStringList());

        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject status = run.json().object();
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("up to date"));
        qint64 bytes = 0;
        for (const char *name : {"vmlinux", "initramfs.img", "root.img"})
            bytes += QFileInfo(QDir(image).filePath(QLatin1String(name))).size();
        QCOMPARE(status.value(QStringLiteral("bytes")).toInteger(), bytes);
        QVERIFY(
            QDateTime::fromString(status.value(QStringLiteral("built_at")).toString(), Qt::ISODate)
                .isValid());
        QCOMPARE(status.value(QStringLiteral("agents")).toArray().size(), 3);

        // Built again without --force: found up to date, left as it is.
        const QFileInfo root(QDir(image).filePath(QStringLiteral("root.img")));
        const QDateTime rootWritten = root.lastModified();
        run = cli.run({QStringLiteral("image"), QStringLiteral("build")}, {}, 300000);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("100% guest image in " + image.toUtf8() + " is up to date"),
                 run.err.constData());
        QCOMPARE(QFileInfo(root.filePath()).lastModified(), rootWritten);
    }
};

QTEST_GUILESS_MAIN(CliImageBuildTest)
#include "test_cli_image_build.moc"
