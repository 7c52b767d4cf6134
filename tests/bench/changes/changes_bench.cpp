// Times the home history's snapshots on a home of 10,000 files / 200 MB:
// the first snapshot, then snapshots after a turn that changed 10 files,
// side by side with `git add -A && git commit` on the same tree (its own
// repository outside the home). Prints figures and PASS/MISS against the
// target (incremental median <= 200 ms); exits 1 on a MISS.

#include "history/home_history.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTextStream>
#include <algorithm>
#include <vector>

using namespace arizuko;

namespace {

constexpr int kFiles = 10'000;
constexpr int kFileBytes = 20'000; // 10,000 x 20 kB = 200 MB
constexpr int kDirectories = 100;
constexpr int kChangedPerTurn = 10;
constexpr int kTurns = 5;
constexpr qint64 kIncrementalTargetMs = 200;
const QString kHomeId = QStringLiteral("bench-home");

QTextStream out(stdout);

QString filePath(const QString &home, int index)
{
    return QStringLiteral("%1/d%2/f%3.txt").arg(home).arg(index % kDirectories).arg(index);
}

void writeFile(const QString &path, QRandomGenerator &random)
{
    // Half text-like (compresses), half random bytes (does not).
    QByteArray data(kFileBytes, Qt::Uninitialized);
    for (int i = 0; i < kFileBytes; ++i)
        data[i] = i < kFileBytes / 2 ? char('a' + (i * 7 + int(random.bounded(3))) % 26)
                                     : char(random.bounded(256));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != data.size())
        qFatal("cannot write %s", qPrintable(path));
}

qint64 git(const QString &gitDir, const QString &home, const QString &message)
{
    QElapsedTimer timer;
    timer.start();
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("add"), QStringLiteral("-A")},
          QStringList{QStringLiteral("-c"), QStringLiteral("user.name=bench"), QStringLiteral("-c"),
                      QStringLiteral("user.email=bench@invalid"), QStringLiteral("commit"),
                      QStringLiteral("-q"), QStringLiteral("-m"), message}}) {
        QProcess process;
        process.setProgram(QStringLiteral("git"));
        process.setArguments(QStringList{QStringLiteral("--git-dir=") + gitDir,
                                         QStringLiteral("--work-tree=") + home} +
                             arguments);
        process.start();
        if (!process.waitForFinished(-1) || process.exitCode() != 0)
            qFatal("git %s failed: %s", qPrintable(arguments.join(QLatin1Char(' '))),
                   process.readAllStandardError().constData());
    }
    return timer.elapsed();
}

qint64 median(std::vector<qint64> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2)
        qFatal("usage: changes-bench SCRATCH_DIRECTORY");
    const QString data = QString::fromLocal8Bit(argv[1]);
    const QString home = data + QStringLiteral("/homes/") + kHomeId;
    const QString plainGit = data + QStringLiteral("/plain.git");
    for (int d = 0; d < kDirectories; ++d)
        QDir().mkpath(QStringLiteral("%1/d%2").arg(home).arg(d));
    QRandomGenerator random(26);
    for (int i = 0; i < kFiles; ++i)
        writeFile(filePath(home, i), random);
    QProcess init;
    init.start(QStringLiteral("git"),
               {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), plainGit});
    init.waitForFinished(-1);

    auto opened = history::HomeHistory::open(data, kHomeId, {});
    if (!opened)
        qFatal("%s", qPrintable(opened.error().message));
    history::HomeHistory &history = *opened;
    out << "home: " << kFiles << " files, " << qint64(kFiles) * kFileBytes / 1'000'000 << " MB in "
        << kDirectories << " directories\n";

    QElapsedTimer timer;
    timer.start();
    if (const auto first = history.recordBefore({QStringLiteral("turn-0"), {}, {}}); !first)
        qFatal("%s", qPrintable(first.error().message));
    const qint64 firstMs = timer.elapsed();
    const qint64 gitFirstMs = git(plainGit, home, QStringLiteral("first"));
    out << "first snapshot:        history " << firstMs << " ms   git add -A && git commit "
        << gitFirstMs << " ms\n";

    std::vector<qint64> ours;
    std::vector<qint64> theirs;
    for (int turn = 1; turn <= kTurns; ++turn) {
        for (int i = 0; i < kChangedPerTurn; ++i)
            writeFile(filePath(home, int(random.bounded(kFiles))), random);
        const history::TurnLabel label{QStringLiteral("turn-%1").arg(turn), {}, {}};
        timer.restart();
        if (const auto after = history.recordAfter(label); !after)
            qFatal("%s", qPrintable(after.error().message));
        ours.push_back(timer.elapsed());
        if (history.lastSnapshot().filesRead != kChangedPerTurn)
            qFatal("the snapshot read %d files, not %d", history.lastSnapshot().filesRead,
                   kChangedPerTurn);
        theirs.push_back(git(plainGit, home, label.turnId));
    }
    out << "10 files changed:      history median " << median(ours) << " ms (";
    for (qint64 ms : ours)
        out << ms << " ";
    out << ")   git add -A && git commit median " << median(theirs) << " ms (";
    for (qint64 ms : theirs)
        out << ms << " ";
    out << ")\n";
    const bool met = median(ours) <= kIncrementalTargetMs;
    out << "target: incremental <= " << kIncrementalTargetMs << " ms: " << (met ? "PASS" : "MISS")
        << "\n";
    return met ? 0 : 1;
}
