// `arizukoctl image` end to end through the real binary and the real
// installer/build-guest-image: status of a missing, a present and a stale
// image (written here in the image format, as inspection reads it), a build
// that fails with the builder's reason, and Ctrl-C during a build, which
// must end it with exit 130, take its work directory with it and leave the
// image that was there as it was. The complete build is
// test_cli_image_build.cpp (minutes).

#include "cli_runner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>
#include <signal.h>
#include <unistd.h>

namespace {

QByteArray sha256Of(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

// An image as installer/build-guest-image lays it out, carrying the guest
// program whose hash is `guestSha256`, with small stand-ins for its files
// (inspection compares sizes, not contents).
void writeImage(const QString &directory, const QByteArray &guestSha256)
{
    QVERIFY(QDir().mkpath(directory));
    const QMap<QString, qsizetype> sizes{{QStringLiteral("vmlinux"), 4096},
                                         {QStringLiteral("initramfs.img"), 2048},
                                         {QStringLiteral("root.img"), 65536}};
    QJsonObject files;
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        QFile file(QDir(directory).filePath(it.key()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(it.value(), it.key().at(0).toLatin1()));
        files.insert(it.key(), QJsonObject{{QStringLiteral("size"), it.value()}});
    }
    const QJsonObject manifest{
        {QStringLiteral("format"), 1},
        {QStringLiteral("inputs_hash"), QStringLiteral("written-by-test_cli_image")},
        {QStringLiteral("built_at"), QStringLiteral("2026-01-02T03:04:05Z")},
        {QStringLiteral("agents"),
         QJsonArray{
             QJsonObject{{QStringLiteral("name"), QStringLiteral("claude")},
                         {QStringLiteral("version"), QStringLiteral("2.1.332")},
                         {QStringLiteral("entry"), QStringLiteral("/usr/local/bin/claude")}}}},
        {QStringLiteral("guest"),
         QJsonObject{{QStringLiteral("sha256"), QString::fromLatin1(guestSha256)}}},
        {QStringLiteral("files"), files},
    };
    QFile file(QDir(directory).filePath(QStringLiteral("manifest.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(manifest).toJson());
}

// Every file of the directory with its contents.
QMap<QString, QByteArray> contentsOf(const QString &directory)
{
    QMap<QString, QByteArray> contents;
    for (const QFileInfo &entry : QDir(directory).entryInfoList(QDir::Files | QDir::Hidden)) {
        QFile file(entry.filePath());
        if (file.open(QIODevice::ReadOnly))
            contents.insert(entry.fileName(), file.readAll());
    }
    return contents;
}

QStringList workDirectories(const QString &directory)
{
    return QDir(directory).entryList({QStringLiteral(".work.*")}, QDir::Dirs | QDir::Hidden);
}

Cli imageCli(const QTemporaryDir &scratch, const QString &imageDirectory)
{
    Cli cli(scratch.filePath(QStringLiteral("data")));
    cli.environment().insert(QStringLiteral("ARIZUKO_GUEST_IMAGE_DIR"), imageDirectory);
    cli.environment().remove(QStringLiteral("ARIZUKO_GUEST_IMAGE_BUILDER"));
    return cli;
}

} // namespace

class CliImageTest : public QObject
{
    Q_OBJECT

private slots:
    void statusOfAMissingImage()
    {
        QTemporaryDir scratch;
        const QString image = scratch.filePath(QStringLiteral("guest"));
        const Cli cli = imageCli(scratch, image);

        CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("state          missing"), run.out.constData());
        QVERIFY2(run.out.contains(image.toUtf8()), run.out.constData());
        QVERIFY2(run.err.contains("missing manifest.json, vmlinux, initramfs.img, root.img"),
                 run.err.constData());
        QVERIFY2(run.err.contains("`arizukoctl image build`"), run.err.constData());

        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject status = run.json().object();
        QCOMPARE(status.value(QStringLiteral("directory")).toString(), image);
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("missing"));
        QCOMPARE(status.value(QStringLiteral("usable")).toBool(true), false);
        QCOMPARE(status.value(QStringLiteral("missing")).toArray().size(), 4);
        QCOMPARE(status.value(QStringLiteral("guest_program")).toString(),
                 QStringLiteral(GUEST_BINARY));
        QVERIFY(status.value(QStringLiteral("built_at")).isNull());
        QVERIFY(status.value(QStringLiteral("hint"))
                    .toString()
                    .contains(QStringLiteral("arizukoctl image build")));
    }

    void statusOfAPresentImage()
    {
        QTemporaryDir scratch;
        const QString image = scratch.filePath(QStringLiteral("guest"));
        writeImage(image, sha256Of(QStringLiteral(GUEST_BINARY)));
        const Cli cli = imageCli(scratch, image);

        CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("state          up to date"), run.out.constData());
        QVERIFY2(run.out.contains("size           70.00 KiB"), run.out.constData());
        QVERIFY2(run.out.contains("built          2026-01-02T03:04:05Z"), run.out.constData());
        QVERIFY2(run.out.contains("agents         claude 2.1.332"), run.out.constData());
        QVERIFY2(run.err.isEmpty(), run.err.constData());

        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject status = run.json().object();
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("up to date"));
        QCOMPARE(status.value(QStringLiteral("usable")).toBool(), true);
        QCOMPARE(status.value(QStringLiteral("reason")).toString(), QString());
        QCOMPARE(status.value(QStringLiteral("bytes")).toInteger(), 4096 + 2048 + 65536);
        QCOMPARE(status.value(QStringLiteral("built_at")).toString(),
                 QStringLiteral("2026-01-02T03:04:05Z"));
    }

    void statusOfAStaleImage()
    {
        // Built for another arizuko-guest than this installation's.
        QTemporaryDir scratch;
        const QString image = scratch.filePath(QStringLiteral("guest"));
        writeImage(image, QByteArray(64, 'a'));
        const Cli cli = imageCli(scratch, image);

        CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("state          stale"), run.out.constData());
        QVERIFY2(run.err.contains("it carries another arizuko-guest than " GUEST_BINARY),
                 run.err.constData());
        QVERIFY2(run.err.contains("`arizukoctl image build`"), run.err.constData());

        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("image"), QStringLiteral("status")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.json().object().value(QStringLiteral("state")).toString(),
                 QStringLiteral("stale"));
    }

    void usageErrors()
    {
        QTemporaryDir scratch;
        const Cli cli = imageCli(scratch, scratch.filePath(QStringLiteral("guest")));
        CliRun run = cli.run({QStringLiteral("image")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("arizukoctl image build [--force]"), run.err.constData());
        run = cli.run({QStringLiteral("image"), QStringLiteral("status"), QStringLiteral("x")});
        QCOMPARE(run.exitCode, 2);
        run = cli.run({QStringLiteral("--help")});
        QVERIFY2(run.out.contains("  image status|build"), run.out.constData());
    }

    void aMissingBuilderIsNamed()
    {
        QTemporaryDir scratch;
        Cli cli = imageCli(scratch, scratch.filePath(QStringLiteral("guest")));
        const QString builder = scratch.filePath(QStringLiteral("no-builder"));
        cli.environment().insert(QStringLiteral("ARIZUKO_GUEST_IMAGE_BUILDER"), builder);
        const CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("build")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("the guest image builder was not found (looked at " +
                                  builder.toUtf8()),
                 run.err.constData());
    }

    void aFailedBuildSaysWhy()
    {
        // The image directory cannot be made: a file stands where its parent
        // would be.
        QTemporaryDir scratch;
        QFile blocker(scratch.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const Cli cli = imageCli(scratch, scratch.filePath(QStringLiteral("file/guest")));
        const CliRun run = cli.run({QStringLiteral("image"), QStringLiteral("build")}, {}, 120000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("resolving input versions"), run.err.constData());
        QVERIFY2(run.err.contains("arizukoctl: the guest image build failed: "),
                 run.err.constData());
        QVERIFY2(run.err.contains("Not a directory"), run.err.constData());
    }

    void ctrlCCancelsTheBuild()
    {
        QTemporaryDir scratch;
        const QString image = scratch.filePath(QStringLiteral("guest"));
        // The image there before: up to date for arizukoctl, but not the
        // builder's (its inputs hash is another), so the build starts.
        writeImage(image, sha256Of(QStringLiteral(GUEST_BINARY)));
        const QMap<QString, QByteArray> before = contentsOf(image);
        Cli cli = imageCli(scratch, image);

        QProcess process;
        process.setProcessEnvironment(cli.environment());
        // A job of its own, as a shell runs it: Ctrl-C is SIGINT to the
        // job's process group.
        process.setChildProcessModifier([] { ::setpgid(0, 0); });
        process.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("--data-dir"), scratch.filePath(QStringLiteral("data")),
                       QStringLiteral("image"), QStringLiteral("build")});
        QVERIFY(process.waitForStarted(10000));
        QByteArray err;
        const auto readErr = [&process, &err] {
            err += process.readAllStandardError();
            return err;
        };
        // Progress has started; then its work directory exists, which the
        // cancel must take with it (after the cached downloads).
        QTRY_VERIFY_WITH_TIMEOUT(readErr().contains("% building guest image"), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!workDirectories(image).isEmpty(), 300000);
        QCOMPARE(process.state(), QProcess::Running);
        QCOMPARE(::kill(-pid_t(process.processId()), SIGINT), 0);

        QVERIFY(process.waitForFinished(30000));
        readErr();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130);
        QVERIFY2(err.contains("interrupted: cancelling the build"), err.constData());
        QVERIFY2(err.contains("arizukoctl: the guest image build was cancelled; the image in " +
                              image.toUtf8() + " is up to date"),
                 err.constData());
        // Nothing left of the build, and the image as it was, file by file.
        QCOMPARE(workDirectories(image), QStringList());
        QMap<QString, QByteArray> after = contentsOf(image);
        after.remove(QStringLiteral(".build.lock")); // the builder's lock file
        QCOMPARE(after.keys(), before.keys());
        QVERIFY(after == before);
        QCOMPARE(cli.run({QStringLiteral("image"), QStringLiteral("status")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(CliImageTest)
#include "test_cli_image.moc"
