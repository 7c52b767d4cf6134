// The history of a folder home on real files: a turn's changes and diffs
// are exact, an undo restores the before state byte for byte and leaves a
// later change alone, and a hostile home (links out, hard links, FIFOs,
// sockets, devices, mounts, a huge sparse file, many files) is recorded
// without reading anything outside it, hanging or running out of memory.

#include "history/home_history.h"
#include "history/tree_names.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <git2.h>
#include <sched.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace arizuko::history;

namespace {

const QString homeId = QStringLiteral("3f1c0d2e-home");

// Reports every open or read of the watched files and directories: the
// proof that the snapshot never looked through a link or a hard link.
class AccessWatch
{
public:
    AccessWatch()
        : m_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {}
    ~AccessWatch() { ::close(m_fd); }
    bool watch(const QString &path)
    {
        return ::inotify_add_watch(m_fd, QFile::encodeName(path).constData(),
                                   IN_OPEN | IN_ACCESS) >= 0;
    }
    int events() const
    {
        char buffer[4096];
        int count = 0;
        for (ssize_t n; (n = ::read(m_fd, buffer, sizeof buffer)) > 0;) {
            for (char *at = buffer; at < buffer + n;) {
                const auto *event = reinterpret_cast<const inotify_event *>(at);
                ++count;
                at += sizeof(inotify_event) + event->len;
            }
        }
        return count;
    }

private:
    int m_fd;
};

// A listening Unix socket bound at `path`, as a program in the home leaves
// one; -1 when it cannot be made.
int listenAt(const QString &path)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    if (size_t(name.size()) >= sizeof address.sun_path)
        return -1;
    std::copy(name.cbegin(), name.cend(), address.sun_path);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd >= 0 && (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
                    ::listen(fd, 1) != 0)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

void write(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QCOMPARE(file.write(data), data.size());
}

QByteArray read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("<missing>");
    return file.readAll();
}

TurnLabel label(const QString &id)
{
    return {id, QStringLiteral("main"), QStringLiteral("do the thing\nsecond line")};
}

QStringList summary(const TurnChanges &changes)
{
    QStringList lines;
    for (const FileChange &change : changes.files)
        lines << changeKindName(change.kind) + QLatin1Char(' ') + change.path +
                     (change.why.isEmpty() ? QString() : QLatin1Char(' ') + change.why);
    lines.sort();
    return lines;
}

// The message of the commit `reference` names in the repository at `path`.
QString commitMessage(const QString &path, const char *reference)
{
    git_repository *repository = nullptr;
    if (git_repository_open_bare(&repository, QFile::encodeName(path).constData()) != 0)
        return QStringLiteral("<no repository>");
    git_object *commit = nullptr;
    QString message = QStringLiteral("<no commit>");
    if (git_revparse_single(&commit, repository, reference) == 0) {
        message = QString::fromUtf8(git_commit_message(reinterpret_cast<git_commit *>(commit)));
        git_object_free(commit);
    }
    git_repository_free(repository);
    return message;
}

// Whether the repository at `path` holds a blob of `content`.
bool blobStored(const QString &path, const QByteArray &content)
{
    git_oid oid{};
    git_odb_hash(&oid, content.constData(), size_t(content.size()), GIT_OBJECT_BLOB);
    git_repository *repository = nullptr;
    if (git_repository_open_bare(&repository, QFile::encodeName(path).constData()) != 0)
        return false;
    git_odb *odb = nullptr;
    const bool stored = git_repository_odb(&odb, repository) == 0 && git_odb_exists(odb, &oid);
    git_odb_free(odb);
    git_repository_free(repository);
    return stored;
}

// What du says `path` takes on disk, in bytes.
qint64 duBytes(const QString &path)
{
    QProcess du;
    du.start(QStringLiteral("du"), {QStringLiteral("-s"), QStringLiteral("--block-size=1"), path});
    if (!du.waitForFinished(60000))
        return -1;
    return du.readAllStandardOutput().split('\t').first().toLongLong();
}

} // namespace

class TestHomeHistory final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_outside;
    QString m_home;

    QString home(const QString &relative) const { return m_home + QLatin1Char('/') + relative; }

    HomeHistory history(qint64 limit = 50 * 1024 * 1024, bool includeGit = false)
    {
        return history(SnapshotOptions{limit, includeGit});
    }
    HomeHistory history(const SnapshotOptions &options)
    {
        auto opened = HomeHistory::open(m_data->path(), homeId, options);
        if (!opened)
            qFatal("%s", qPrintable(opened.error().message));
        return std::move(*opened);
    }

    // Runs "a turn" as `change` between the two snapshots.
    template<typename Change>
    void turn(HomeHistory &history, const QString &id, Change &&change)
    {
        const auto before = history.recordBefore(label(id));
        QVERIFY2(before, qPrintable(before.ok() ? QString() : before.error().message));
        change();
        const auto after = history.recordAfter(label(id));
        QVERIFY2(after, qPrintable(after.ok() ? QString() : after.error().message));
    }

private slots:
    void init()
    {
        m_data = std::make_unique<QTemporaryDir>();
        m_outside = std::make_unique<QTemporaryDir>();
        m_home = m_data->path() + QStringLiteral("/homes/") + homeId;
        QVERIFY(QDir().mkpath(m_home));
    }

    void repositoryIsBesideTheHomes()
    {
        HomeHistory h = history();
        QCOMPARE(h.path(),
                 m_data->path() + QStringLiteral("/history/") + homeId + QStringLiteral(".git"));
        QVERIFY(QFileInfo(h.path() + QStringLiteral("/HEAD")).exists());
        QVERIFY(!h.path().startsWith(m_data->path() + QStringLiteral("/homes")));
    }

    void changesListAndDiffsAreExact()
    {
        write(home(QStringLiteral("keep.txt")), "unchanged\n");
        write(home(QStringLiteral("edit.txt")), "one\ntwo\nthree\n");
        write(home(QStringLiteral("gone.txt")), "bye\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-1"), [&] {
            write(home(QStringLiteral("edit.txt")), "one\n2\nthree\n");
            QVERIFY(QFile::remove(home(QStringLiteral("gone.txt"))));
            write(home(QStringLiteral("src/new.py")), "print('hi')\n");
        });
        const auto changes = h.changes(QStringLiteral("turn-1"), true);
        QVERIFY2(changes, qPrintable(changes.ok() ? QString() : changes.error().message));
        QCOMPARE(summary(*changes), (QStringList{QStringLiteral("added src/new.py"),
                                                 QStringLiteral("deleted gone.txt"),
                                                 QStringLiteral("modified edit.txt")}));
        for (const FileChange &change : changes->files) {
            if (change.path == u"edit.txt")
                QCOMPARE(change.diff, QStringLiteral("diff --git a/edit.txt b/edit.txt\n"
                                                     "index 4cb29ea..f04eb26 100644\n"
                                                     "--- a/edit.txt\n"
                                                     "+++ b/edit.txt\n"
                                                     "@@ -1,3 +1,3 @@\n"
                                                     " one\n"
                                                     "-two\n"
                                                     "+2\n"
                                                     " three\n"));
            if (change.path == u"src/new.py")
                QVERIFY2(change.diff.contains(QStringLiteral("+print('hi')\n")),
                         qPrintable(change.diff));
            if (change.path == u"gone.txt")
                QVERIFY2(change.diff.contains(QStringLiteral("-bye\n")), qPrintable(change.diff));
        }
    }

    void undoRestoresTheBeforeStateByteForByte()
    {
        QByteArray binary;
        for (int i = 0; i < 70000; ++i)
            binary.append(char(i * 7919 % 256));
        write(home(QStringLiteral("data.bin")), binary);
        write(home(QStringLiteral("notes/a.md")), "# A\n");
        write(home(QStringLiteral("run.sh")), "#!/bin/sh\necho hi\n");
        QVERIFY(QFile::setPermissions(home(QStringLiteral("run.sh")),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QVERIFY(QFile::link(QStringLiteral("notes/a.md"), home(QStringLiteral("link"))));
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-undo"), [&] {
            QByteArray changed = binary;
            changed[5000] = 'x';
            write(home(QStringLiteral("data.bin")), changed);
            QVERIFY(QDir(home(QStringLiteral("notes"))).removeRecursively());
            QVERIFY(QFile::remove(home(QStringLiteral("run.sh"))));
            QVERIFY(QFile::remove(home(QStringLiteral("link"))));
            QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), home(QStringLiteral("link"))));
            write(home(QStringLiteral("added.txt")), "new\n");
        });
        const auto plan = h.undo(QStringLiteral("turn-undo"), UndoMode::Plan);
        QVERIFY(plan);
        QCOMPARE(plan->restored.size(), 5);
        QVERIFY(!plan->applied);
        QVERIFY(QFileInfo::exists(home(QStringLiteral("added.txt")))); // a plan writes nothing

        const auto undone = h.undo(QStringLiteral("turn-undo"), UndoMode::Apply);
        QVERIFY2(undone, qPrintable(undone.ok() ? QString() : undone.error().message));
        QVERIFY(undone->conflicts.isEmpty());
        QVERIFY(undone->applied);
        QCOMPARE(read(home(QStringLiteral("data.bin"))), binary);
        QCOMPARE(read(home(QStringLiteral("notes/a.md"))), QByteArray("# A\n"));
        QCOMPARE(read(home(QStringLiteral("run.sh"))), QByteArray("#!/bin/sh\necho hi\n"));
        QVERIFY(QFileInfo(home(QStringLiteral("run.sh"))).isExecutable());
        QCOMPARE(QFileInfo(home(QStringLiteral("link"))).symLinkTarget(),
                 home(QStringLiteral("notes/a.md")));
        QVERIFY(!QFileInfo::exists(home(QStringLiteral("added.txt"))));
        QVERIFY(
            QDir(home(QString()))
                .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)
                .filter(QStringLiteral(".arizuko-undo"))
                .isEmpty());
    }

    void aLaterChangeIsAConflictLeftAlone()
    {
        write(home(QStringLiteral("a.txt")), "a0\n");
        write(home(QStringLiteral("b.txt")), "b0\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-a"), [&] {
            write(home(QStringLiteral("a.txt")), "a1\n");
            write(home(QStringLiteral("b.txt")), "b1\n");
        });
        write(home(QStringLiteral("a.txt")), "the user's a2\n"); // after the turn
        const auto undone = h.undo(QStringLiteral("turn-a"), UndoMode::Apply);
        QVERIFY(undone);
        QCOMPARE(undone->restored, QStringList{QStringLiteral("b.txt")});
        QCOMPARE(undone->conflicts.size(), 1);
        QCOMPARE(undone->conflicts.first().path, QStringLiteral("a.txt"));
        QCOMPARE(read(home(QStringLiteral("a.txt"))), QByteArray("the user's a2\n"));
        QCOMPARE(read(home(QStringLiteral("b.txt"))), QByteArray("b0\n"));

        const auto forced = h.undo(QStringLiteral("turn-a"), UndoMode::Force);
        QVERIFY(forced);
        QVERIFY(forced->conflicts.isEmpty());
        QCOMPARE(read(home(QStringLiteral("a.txt"))), QByteArray("a0\n"));
    }

    void userEditsBetweenTurnsAreNotInTheNextTurn()
    {
        write(home(QStringLiteral("x.txt")), "x0\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-1"), [&] { write(home(QStringLiteral("y.txt")), "y\n"); });
        write(home(QStringLiteral("x.txt")), "edited by the user\n");
        write(home(QStringLiteral("user.txt")), "mine\n");
        turn(h, QStringLiteral("turn-2"), [&] { write(home(QStringLiteral("z.txt")), "z\n"); });
        const auto second = h.changes(QStringLiteral("turn-2"), false);
        QVERIFY(second);
        QCOMPARE(summary(*second), QStringList{QStringLiteral("added z.txt")});
        const auto first = h.changes(QStringLiteral("turn-1"), false);
        QVERIFY(first);
        QCOMPARE(summary(*first), QStringList{QStringLiteral("added y.txt")});
    }

    void snapshotsAndTheUndoAreCommitsNamingTheTurn()
    {
        write(home(QStringLiteral("u.txt")), "u0\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-u"), [&] { write(home(QStringLiteral("u.txt")), "u1\n"); });
        const QString before = commitMessage(h.path(), "refs/turns/turn-u/before");
        QVERIFY2(before.startsWith(QStringLiteral("Changes outside turns, before turn turn-u\n\n"
                                                  "Turn: turn-u\nTopic: main\n"
                                                  "Prompt: do the thing\n")),
                 qPrintable(before));
        const QString after = commitMessage(h.path(), "refs/turns/turn-u/after");
        QVERIFY2(after.startsWith(QStringLiteral("Turn turn-u: do the thing\n")),
                 qPrintable(after));
        QVERIFY(!after.contains(QStringLiteral("second line")));
        QCOMPARE(commitMessage(h.path(), "refs/turns/turn-u/after~1"), before);

        QVERIFY(h.undo(QStringLiteral("turn-u"), UndoMode::Apply));
        const QString undone = commitMessage(h.path(), "refs/turns/turn-u/undo");
        QVERIFY2(undone.startsWith(QStringLiteral("Undo of turn turn-u\n\nTurn: turn-u\n"
                                                  "Restored: [\"u.txt\"]\nConflicts: []\n")),
                 qPrintable(undone));
        // Its own step: the next turn's changes do not hold what it restored.
        turn(h, QStringLiteral("turn-next"), [&] { write(home(QStringLiteral("n.txt")), "n\n"); });
        const auto next = h.changes(QStringLiteral("turn-next"), false);
        QVERIFY(next);
        QCOMPARE(summary(*next), QStringList{QStringLiteral("added n.txt")});
        QVERIFY(next->overlapping.isEmpty());
    }

    void turnsThatOverlapInOneHomeAreNamed()
    {
        HomeHistory h = history();
        // a and b start together and both write the one home.
        QVERIFY(h.recordBefore(label(QStringLiteral("turn-a"))));
        QVERIFY(h.recordBefore(label(QStringLiteral("turn-b"))));
        write(home(QStringLiteral("a.txt")), "a\n");
        write(home(QStringLiteral("b.txt")), "b\n");
        QVERIFY(h.recordAfter(label(QStringLiteral("turn-a"))));
        auto a = h.changes(QStringLiteral("turn-a"), false);
        QVERIFY(a);
        QCOMPARE(summary(*a),
                 (QStringList{QStringLiteral("added a.txt"), QStringLiteral("added b.txt")}));
        QCOMPARE(a->overlapping.size(), 1);
        QCOMPARE(a->overlapping.first().turnId, QStringLiteral("turn-b"));
        QVERIFY(!a->overlapping.first().ended); // b is still running
        write(home(QStringLiteral("b2.txt")), "b2\n");
        QVERIFY(h.recordAfter(label(QStringLiteral("turn-b"))));
        a = h.changes(QStringLiteral("turn-a"), false);
        QVERIFY(a);
        QCOMPARE(a->overlapping.size(), 1);
        QVERIFY(a->overlapping.first().ended);
        const auto b = h.changes(QStringLiteral("turn-b"), false);
        QVERIFY(b);
        QCOMPARE(b->overlapping.size(), 1);
        QCOMPARE(b->overlapping.first().turnId, QStringLiteral("turn-a"));
        // c runs after both: it overlapped neither, nor they it.
        turn(h, QStringLiteral("turn-c"), [&] { write(home(QStringLiteral("c.txt")), "c\n"); });
        const auto c = h.changes(QStringLiteral("turn-c"), false);
        QVERIFY(c);
        QCOMPARE(summary(*c), QStringList{QStringLiteral("added c.txt")});
        QVERIFY(c->overlapping.isEmpty());
        QCOMPARE(h.changes(QStringLiteral("turn-a"), false)->overlapping.size(), 1);
    }

    void aRunningTurnHasNoChangesYet()
    {
        HomeHistory h = history();
        QVERIFY(h.recordBefore(label(QStringLiteral("turn-run"))));
        const auto changes = h.changes(QStringLiteral("turn-run"), false);
        QVERIFY(!changes);
        QCOMPARE(changes.error().code, QStringLiteral("history.no-turn"));
        QVERIFY(!h.changes(QStringLiteral("../../etc"), false));
    }

    void hostileHomeIsRecordedWithoutLookingOutside()
    {
        const QString canary = m_outside->filePath(QStringLiteral("canary.txt"));
        const QString canaryDirectory = m_outside->filePath(QStringLiteral("secrets"));
        const QString linkedOutside = m_outside->filePath(QStringLiteral("hardlinked.txt"));
        write(canary, "CANARY\n");
        write(canaryDirectory + QStringLiteral("/key"), "KEY\n");
        write(linkedOutside, "HARD LINKED SECRET\n");
        HomeHistory h = history();
        AccessWatch watch;
        int listening = -1;
        const auto closeSocket = qScopeGuard([&listening] {
            if (listening >= 0)
                ::close(listening);
        });
        turn(h, QStringLiteral("turn-hostile"), [&] {
            QVERIFY(QFile::link(canary, home(QStringLiteral("to-canary"))));
            QVERIFY(QFile::link(canaryDirectory, home(QStringLiteral("to-secrets"))));
            QVERIFY(::link(QFile::encodeName(linkedOutside).constData(),
                           QFile::encodeName(home(QStringLiteral("hard"))).constData()) == 0);
            QVERIFY(::mkfifo(QFile::encodeName(home(QStringLiteral("fifo"))).constData(), 0600) ==
                    0);
            listening = listenAt(home(QStringLiteral("app.sock")));
            QVERIFY(listening >= 0);
            const int sparse =
                ::open(QFile::encodeName(home(QStringLiteral("huge.img"))).constData(),
                       O_WRONLY | O_CREAT, 0600);
            QVERIFY(sparse >= 0);
            QVERIFY(::ftruncate(sparse, qint64(1) << 30) == 0);
            ::close(sparse);
            QVERIFY(watch.watch(canary));
            QVERIFY(watch.watch(canaryDirectory));
            QVERIFY(watch.watch(canaryDirectory + QStringLiteral("/key")));
            QVERIFY(watch.watch(linkedOutside));
            QCOMPARE(watch.events(), 0);
        });
        QCOMPARE(watch.events(), 0); // nothing outside the home was opened or read
        // Nothing connected to the socket either.
        QCOMPARE(::accept4(listening, nullptr, nullptr, SOCK_CLOEXEC), -1);
        QCOMPARE(errno, EAGAIN);

        const auto changes = h.changes(QStringLiteral("turn-hostile"), true);
        QVERIFY(changes);
        QCOMPARE(summary(*changes),
                 (QStringList{QStringLiteral("added huge.img"), QStringLiteral("added to-canary"),
                              QStringLiteral("added to-secrets"),
                              QStringLiteral("skipped app.sock socket"),
                              QStringLiteral("skipped fifo fifo"),
                              QStringLiteral("skipped hard hard link")}));
        for (const FileChange &change : changes->files) {
            if (change.path == u"to-canary") {
                QVERIFY2(change.diff.contains(QStringLiteral("new file mode 120000")),
                         qPrintable(change.diff));
                QVERIFY(change.diff.contains(QStringLiteral("+") + canary));
                QVERIFY(!change.diff.contains(QStringLiteral("CANARY")));
            }
            if (change.path == u"huge.img") {
                QVERIFY(!change.stored);
                QVERIFY2(change.diff.contains(QStringLiteral("size: 1073741824")),
                         qPrintable(change.diff));
            }
        }
        // The 1 GiB file was hashed in chunks, never held whole.
        rusage usage{};
        QVERIFY(::getrusage(RUSAGE_SELF, &usage) == 0);
        QVERIFY2(usage.ru_maxrss < 300 * 1024, qPrintable(QString::number(usage.ru_maxrss)));

        // An undo deletes the links and leaves what they pointed at alone.
        const auto undone = h.undo(QStringLiteral("turn-hostile"), UndoMode::Apply);
        QVERIFY(undone);
        QVERIFY(!QFileInfo::exists(home(QStringLiteral("to-canary"))) &&
                !QFileInfo(home(QStringLiteral("to-canary"))).isSymLink());
        QCOMPARE(read(canary), QByteArray("CANARY\n"));
        QCOMPARE(read(canaryDirectory + QStringLiteral("/key")), QByteArray("KEY\n"));
    }

    // A device node in the home (here one with /dev/null's numbers) would
    // give the history whatever the device reads.
    void aDeviceIsListedAndNeverOpened()
    {
        if (::geteuid() != 0)
            QFAIL("making a device node (mknod) needs root; CI runs this test as root");
        struct stat null
        {
        };
        QVERIFY(::stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode));
        const QByteArray device = QFile::encodeName(home(QStringLiteral("null")));
        HomeHistory h = history();
        AccessWatch watch;
        turn(h, QStringLiteral("turn-device"), [&] {
            QVERIFY(::mknod(device.constData(), S_IFCHR | 0666, null.st_rdev) == 0);
            QVERIFY(watch.watch(home(QStringLiteral("null"))));
        });
        QCOMPARE(watch.events(), 0);
        const auto changes = h.changes(QStringLiteral("turn-device"), true);
        QVERIFY(changes);
        QCOMPARE(summary(*changes), QStringList{QStringLiteral("skipped null device")});
    }

    // A directory or a single file mounted into the home from another
    // filesystem shows that filesystem's content, not the home's.
    void whatIsMountedFromAnotherFilesystemIsListedAndNeverRead()
    {
        if (::geteuid() != 0)
            QFAIL("mounting needs root; CI runs this test as root");
        // A mount namespace of this thread's own, private: the mounts never
        // reach the host and go with the test process whatever happens.
        QVERIFY(::unshare(CLONE_NEWNS) == 0);
        QVERIFY(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0);
        const QString other = m_outside->filePath(QStringLiteral("other"));
        QVERIFY(QDir().mkpath(other));
        QVERIFY(::mount("tmpfs", QFile::encodeName(other).constData(), "tmpfs", 0, nullptr) == 0);
        QStringList mounted{other};
        const auto unmount = qScopeGuard([&mounted] {
            for (auto at = mounted.crbegin(); at != mounted.crend(); ++at)
                ::umount2(QFile::encodeName(*at).constData(), MNT_DETACH);
        });
        const QString secret = other + QStringLiteral("/secret.txt");
        write(secret, "MOUNTED SECRET\n");
        write(other + QStringLiteral("/dir/key"), "KEY\n");
        HomeHistory h = history();
        AccessWatch watch;
        turn(h, QStringLiteral("turn-mounts"), [&] {
            write(home(QStringLiteral("bound.txt")), "");
            QVERIFY(QDir().mkpath(home(QStringLiteral("bound-dir"))));
            for (const auto &[source, target] :
                 {std::pair{secret, home(QStringLiteral("bound.txt"))},
                  std::pair{other + QStringLiteral("/dir"), home(QStringLiteral("bound-dir"))}}) {
                QVERIFY(::mount(QFile::encodeName(source).constData(),
                                QFile::encodeName(target).constData(), nullptr, MS_BIND,
                                nullptr) == 0);
                mounted << target;
            }
            QCOMPARE(read(home(QStringLiteral("bound.txt"))), QByteArray("MOUNTED SECRET\n"));
            QVERIFY(watch.watch(secret));
            QVERIFY(watch.watch(other + QStringLiteral("/dir")));
            QVERIFY(watch.watch(other + QStringLiteral("/dir/key")));
        });
        QCOMPARE(watch.events(), 0);
        const auto changes = h.changes(QStringLiteral("turn-mounts"), true);
        QVERIFY(changes);
        QCOMPARE(summary(*changes),
                 (QStringList{QStringLiteral("skipped bound-dir other filesystem"),
                              QStringLiteral("skipped bound.txt other filesystem")}));
    }

    void undoNeverWritesThroughAPlantedLink()
    {
        write(home(QStringLiteral("sub/f.txt")), "mine\n");
        write(home(QStringLiteral("top.txt")), "top\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-plant"), [&] {
            QVERIFY(QDir(home(QStringLiteral("sub"))).removeRecursively());
            QVERIFY(QFile::remove(home(QStringLiteral("top.txt"))));
        });
        // After the turn, something plants links where the undo will write.
        QVERIFY(QFile::link(m_outside->path(), home(QStringLiteral("sub"))));
        QVERIFY(QFile::link(m_outside->filePath(QStringLiteral("victim")),
                            home(QStringLiteral("top.txt"))));
        const auto undone = h.undo(QStringLiteral("turn-plant"), UndoMode::Force);
        QVERIFY(undone);
        QVERIFY(!QFileInfo::exists(m_outside->filePath(QStringLiteral("f.txt"))));
        QVERIFY(!QFileInfo::exists(m_outside->filePath(QStringLiteral("victim"))));
        // The link at top.txt was replaced, not written through.
        QVERIFY(!QFileInfo(home(QStringLiteral("top.txt"))).isSymLink());
        QCOMPARE(read(home(QStringLiteral("top.txt"))), QByteArray("top\n"));
        // sub is still the planted link: its file is a conflict, never written.
        QCOMPARE(undone->conflicts.size(), 1);
        QCOMPARE(undone->conflicts.first().path, QStringLiteral("sub/f.txt"));
    }

    void gitDirectoriesAreLeftOutByDefault()
    {
        write(home(QStringLiteral(".git/HEAD")), "ref: refs/heads/main\n");
        write(home(QStringLiteral("lib/.git")), "gitdir: ../.git/modules/lib\n");
        write(home(QStringLiteral("a.txt")), "a\n");
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-git-off"), [&] {
            write(home(QStringLiteral(".git/HEAD")), "ref: refs/heads/other\n");
            write(home(QStringLiteral(".git/new")), "x\n");
            write(home(QStringLiteral("lib/.git")), "gitdir: elsewhere\n");
            write(home(QStringLiteral("a.txt")), "a2\n");
        });
        const auto changes = h.changes(QStringLiteral("turn-git-off"), false);
        QVERIFY(changes);
        // Left out by the setting: not a change, not a skipped name.
        QCOMPARE(summary(*changes), QStringList{QStringLiteral("modified a.txt")});
        const auto undone = h.undo(QStringLiteral("turn-git-off"), UndoMode::Apply);
        QVERIFY(undone);
        QCOMPARE(undone->restored, QStringList{QStringLiteral("a.txt")});
        QCOMPARE(read(home(QStringLiteral(".git/HEAD"))), QByteArray("ref: refs/heads/other\n"));
    }

    void gitDirectoriesIncludedAreRecordedShownAndUndone()
    {
        write(home(QStringLiteral(".git/config")), "[core]\n\tbare = false\n");
        write(home(QStringLiteral(".git/HEAD")), "ref: refs/heads/main\n");
        write(home(QStringLiteral("lib/.git")), "gitdir: ../.git/modules/lib\n");
        HomeHistory h = history(50 * 1024 * 1024, true);
        turn(h, QStringLiteral("turn-git-on"), [&] {
            write(home(QStringLiteral(".git/config")), "[core]\n\tbare = true\n");
            write(home(QStringLiteral(".git/refs/heads/planted")), "0000\n");
            QVERIFY(QFile::remove(home(QStringLiteral(".git/HEAD"))));
            write(home(QStringLiteral("lib/.git")), "gitdir: /elsewhere\n");
        });
        const auto changes = h.changes(QStringLiteral("turn-git-on"), true);
        QVERIFY2(changes, qPrintable(changes.ok() ? QString() : changes.error().message));
        QCOMPARE(summary(*changes), (QStringList{QStringLiteral("added .git/refs/heads/planted"),
                                                 QStringLiteral("deleted .git/HEAD"),
                                                 QStringLiteral("modified .git/config"),
                                                 QStringLiteral("modified lib/.git")}));
        for (const FileChange &change : changes->files) {
            if (change.path == u".git/config")
                QCOMPARE(change.diff, QStringLiteral("diff --git a/.git/config b/.git/config\n"
                                                     "index 91e50ff..cbdf39c 100644\n"
                                                     "--- a/.git/config\n"
                                                     "+++ b/.git/config\n"
                                                     "@@ -1,2 +1,2 @@\n"
                                                     " [core]\n"
                                                     "-\tbare = false\n"
                                                     "+\tbare = true\n"));
            QVERIFY2(!change.diff.contains(QLatin1Char(escapeMark)), qPrintable(change.diff));
        }
        const auto undone = h.undo(QStringLiteral("turn-git-on"), UndoMode::Apply);
        QVERIFY(undone);
        QVERIFY(undone->conflicts.isEmpty());
        QCOMPARE(undone->restored.size(), 4);
        QCOMPARE(read(home(QStringLiteral(".git/config"))), QByteArray("[core]\n\tbare = false\n"));
        QCOMPARE(read(home(QStringLiteral(".git/HEAD"))), QByteArray("ref: refs/heads/main\n"));
        QVERIFY(!QFileInfo::exists(home(QStringLiteral(".git/refs/heads/planted"))));
        QCOMPARE(read(home(QStringLiteral("lib/.git"))),
                 QByteArray("gitdir: ../.git/modules/lib\n"));
    }

    void namesLikeTheEscapeStayApart()
    {
        // ".git" is stored as "%.git"; a real "%.git" beside it, and every
        // other name starting with the mark, must not be taken for it.
        const QStringList names{QStringLiteral(".git/x"), QStringLiteral("%.git/x"),
                                QStringLiteral("%%.git"), QStringLiteral("%"),
                                QStringLiteral(".GIT/x"), QStringLiteral("git~1"),
                                QStringLiteral("d/%x"),   QStringLiteral("d/%.git/%")};
        for (const QString &name : names)
            write(home(name), name.toUtf8() + '\n');
        HomeHistory h = history(50 * 1024 * 1024, true);
        turn(h, QStringLiteral("turn-marks"), [&] {
            for (const QString &name : names)
                write(home(name), "changed " + name.toUtf8() + '\n');
        });
        const auto changes = h.changes(QStringLiteral("turn-marks"), true);
        QVERIFY(changes);
        QStringList expected;
        for (const QString &name : names)
            expected << QStringLiteral("modified ") + name;
        expected.sort();
        QCOMPARE(summary(*changes), expected);
        for (const FileChange &change : changes->files)
            QVERIFY2(
                change.diff.startsWith(QStringLiteral("diff --git a/%1 b/%1\n").arg(change.path)),
                qPrintable(change.diff));

        // The stored names, as git sees them: each escaped once.
        git_repository *repository = nullptr;
        QCOMPARE(git_repository_open_bare(&repository, QFile::encodeName(h.path()).constData()), 0);
        git_object *tree = nullptr;
        QCOMPARE(git_revparse_single(&tree, repository, "refs/turns/turn-marks/after^{tree}"), 0);
        QStringList stored;
        const auto *root = reinterpret_cast<git_tree *>(tree);
        for (size_t i = 0; i < git_tree_entrycount(root); ++i)
            stored << QString::fromUtf8(git_tree_entry_name(git_tree_entry_byindex(root, i)));
        git_object_free(tree);
        git_repository_free(repository);
        for (const QString &name : {QStringLiteral("%.git"), QStringLiteral("%%.git"),
                                    QStringLiteral("%%%.git"), QStringLiteral("%%")})
            QVERIFY2(stored.contains(name), qPrintable(stored.join(QLatin1Char(' '))));
        QVERIFY2(!stored.contains(QStringLiteral(".git")),
                 qPrintable(stored.join(QLatin1Char(' '))));

        const auto undone = h.undo(QStringLiteral("turn-marks"), UndoMode::Apply);
        QVERIFY(undone);
        QVERIFY(undone->conflicts.isEmpty());
        for (const QString &name : names)
            QCOMPARE(read(home(name)), name.toUtf8() + '\n');
    }

    // A guest's `truncate -s 1T`: over the limit, recorded by its size and
    // time without a byte of it read, in well under a second.
    void aTerabyteSparseFileIsRecordedWithoutReadingIt()
    {
        HomeHistory h = history();
        QElapsedTimer clock;
        turn(h, QStringLiteral("turn-tera"), [&] {
            const int fd = ::open(QFile::encodeName(home(QStringLiteral("huge.bin"))).constData(),
                                  O_WRONLY | O_CREAT, 0600);
            QVERIFY(fd >= 0);
            QVERIFY(::ftruncate(fd, qint64(1) << 40) == 0);
            ::close(fd);
            clock.start();
        });
        const qint64 elapsed = clock.elapsed();
        qInfo("snapshot with a 1 TiB sparse file: %lld ms", elapsed);
        QVERIFY2(elapsed < 3000, qPrintable(QString::number(elapsed)));
        QCOMPARE(h.lastSnapshot().bytesRead, qint64(0));
        const auto changes = h.changes(QStringLiteral("turn-tera"), true);
        QVERIFY(changes);
        QCOMPARE(summary(*changes), QStringList{QStringLiteral("added huge.bin")});
        QVERIFY(!changes->files.first().stored);
        QVERIFY2(changes->files.first().diff.contains(QStringLiteral("size: 1099511627776")),
                 qPrintable(changes->files.first().diff));
    }

    // Files under the limit past the byte budget are recorded by size and
    // time, the turn's changes say which budget it was, and a later
    // snapshot with room reads them.
    void aSnapshotStopsReadingAtItsByteBudget()
    {
        SnapshotOptions options{50 * 1024 * 1024, false};
        options.byteBudget = 100 * 1024;
        HomeHistory h = history(options);
        turn(h, QStringLiteral("turn-bytes"), [&] {
            for (const char *name : {"a.bin", "b.bin", "c.bin"})
                write(home(QLatin1String(name)), QByteArray(60 * 1024, 'x'));
        });
        QCOMPARE(h.lastSnapshot().filesRead, 1);
        const auto changes = h.changes(QStringLiteral("turn-bytes"), false);
        QVERIFY(changes);
        int unread = 0;
        for (const FileChange &change : changes->files) {
            QCOMPARE(change.kind, ChangeKind::Added);
            if (!change.stored) {
                ++unread;
                QCOMPARE(change.why, QStringLiteral("not read: snapshot budget (bytes)"));
            }
        }
        QCOMPARE(unread, 2);
        QCOMPARE(changes->notes.size(), 1);
        QVERIFY2(changes->notes.first().contains(
                     QStringLiteral("byte budget (100.00 KiB): 2 file(s) were recorded by size "
                                    "and time only")),
                 qPrintable(changes->notes.first()));
        // Room again: the files left unread are read now, the one read is not.
        HomeHistory roomy = history();
        QVERIFY(roomy.recordBefore(label(QStringLiteral("turn-next"))));
        QCOMPARE(roomy.lastSnapshot().filesRead, 2);
        QVERIFY(roomy.lastSnapshot().budgetNote.isEmpty());
    }

    void aSnapshotStopsReadingAtItsTimeBudget()
    {
        SnapshotOptions options{50 * 1024 * 1024, false};
        options.timeBudgetMs = 0;
        HomeHistory h = history(options);
        turn(h, QStringLiteral("turn-time"), [&] { write(home(QStringLiteral("t.txt")), "t\n"); });
        QCOMPARE(h.lastSnapshot().filesRead, 0);
        QVERIFY2(h.lastSnapshot().budgetNote.contains(QStringLiteral("time budget (0 s)")),
                 qPrintable(h.lastSnapshot().budgetNote));
        const auto changes = h.changes(QStringLiteral("turn-time"), false);
        QVERIFY(changes);
        QCOMPARE(changes->files.size(), 1);
        QCOMPARE(changes->files.first().why, QStringLiteral("not read: snapshot budget (time)"));
    }

    // The names skipped before and after a turn are compared as a set: with
    // 200,000 FIFOs in the home, the changes take seconds, not hours.
    void manyFifosGiveChangesInBoundedTime()
    {
        constexpr int fifos = 200000;
        const QString directory = home(QStringLiteral("pipes"));
        QVERIFY(QDir().mkpath(directory));
        for (int i = 0; i < fifos; ++i)
            QVERIFY(
                ::mkfifo(QFile::encodeName(directory + QStringLiteral("/p%1").arg(i)).constData(),
                         0600) == 0);
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-fifos"), [&] { write(home(QStringLiteral("x.txt")), "x\n"); });
        QElapsedTimer clock;
        clock.start();
        const auto changes = h.changes(QStringLiteral("turn-fifos"), true);
        const qint64 elapsed = clock.elapsed();
        qInfo("changes of a turn beside %d FIFOs: %lld ms", fifos, elapsed);
        QVERIFY(changes);
        QCOMPARE(summary(*changes), QStringList{QStringLiteral("added x.txt")});
        QVERIFY2(elapsed < 20000, qPrintable(QString::number(elapsed)));
    }

    // Past the total cap, files are listed without their diff, and a note
    // says how many.
    void theDiffsHeldAreCappedInAll()
    {
        constexpr int files = 40;
        HomeHistory h = history();
        turn(h, QStringLiteral("turn-diffs"), [&] {
            for (int i = 0; i < files; ++i)
                write(home(QStringLiteral("big%1.txt").arg(i)),
                      QByteArray(300 * 1024, char('a' + i % 26)).replace(80, 1, "\n"));
        });
        const auto changes = h.changes(QStringLiteral("turn-diffs"), true);
        QVERIFY(changes);
        QCOMPARE(changes->files.size(), files);
        qsizetype total = 0;
        int omitted = 0;
        for (const FileChange &change : changes->files) {
            total += change.diff.size();
            omitted += change.diffOmitted ? 1 : 0;
            QVERIFY(!change.diffOmitted || change.diff.isEmpty());
        }
        QVERIFY2(total <= maxTotalDiffChars + 300 * 1024, qPrintable(QString::number(total)));
        QVERIFY2(omitted > 0 && omitted < files, qPrintable(QString::number(omitted)));
        QCOMPARE(changes->notes,
                 QStringList{QStringLiteral("the diffs shown stop at 8388608 characters in "
                                            "all: %1 file(s) are listed without their diff")
                                 .arg(omitted)});
        // Without diffs asked for, nothing is left out.
        QVERIFY(h.changes(QStringLiteral("turn-diffs"), false)->notes.isEmpty());
    }

    // Turns that write new content and delete the last: the oldest turns go
    // with their content, the newest keep their changes and undo, the
    // figure on disk is du's, and snapshots go on after the pruning.
    void pruningKeepsTheNewestTurnsAndFreesTheRest()
    {
        HomeHistory h = history();
        QList<QByteArray> contents;
        for (int i = 0; i < 5; ++i) {
            QByteArray random(256 * 1024, Qt::Uninitialized);
            for (char &c : random)
                c = char(QRandomGenerator::global()->generate());
            contents << random;
            turn(h, QStringLiteral("turn-p%1").arg(i), [&] {
                QFile::remove(home(QStringLiteral("data%1.bin").arg(i - 1)));
                write(home(QStringLiteral("data%1.bin").arg(i)), random);
            });
        }
        const auto before = h.use();
        QVERIFY(before);
        QCOMPARE(before->turns, 5);
        QCOMPARE(before->bytes, duBytes(h.path()));
        QVERIFY2(before->bytes > 5 * 256 * 1024, qPrintable(QString::number(before->bytes)));

        const auto pruned = h.prune({2, qint64(1) << 40});
        QVERIFY2(pruned, qPrintable(pruned.ok() ? QString() : pruned.error().message));
        QCOMPARE(pruned->turnsDropped, 3);
        QCOMPARE(pruned->after.turns, 2);
        QCOMPARE(pruned->after.bytes, duBytes(h.path()));
        // What only the dropped turns held (data0, data1: 256 KiB each,
        // random) is gone; turn-p3's snapshot before still holds data2.
        QVERIFY2(
            pruned->before.bytes - pruned->after.bytes > 2 * 256 * 1024,
            qPrintable(
                QStringLiteral("%1 -> %2").arg(pruned->before.bytes).arg(pruned->after.bytes)));
        QCOMPARE(blobStored(h.path(), contents[0]), false);
        QCOMPARE(blobStored(h.path(), contents[1]), false);
        QCOMPARE(blobStored(h.path(), contents[2]), true);
        QCOMPARE(blobStored(h.path(), contents[4]), true);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(h.changes(QStringLiteral("turn-p%1").arg(i), false).error().code,
                     QStringLiteral("history.no-turn"));
        const auto last = h.changes(QStringLiteral("turn-p4"), true);
        QVERIFY(last);
        QCOMPARE(summary(*last), (QStringList{QStringLiteral("added data4.bin"),
                                              QStringLiteral("deleted data3.bin")}));
        QVERIFY(h.prune({2, qint64(1) << 40})->turnsDropped == 0);

        // A snapshot after the pruning reuses what the index names: still there.
        turn(h, QStringLiteral("turn-p5"), [&] { write(home(QStringLiteral("more.txt")), "m\n"); });
        QCOMPARE(summary(*h.changes(QStringLiteral("turn-p5"), false)),
                 QStringList{QStringLiteral("added more.txt")});
        const auto undone = h.undo(QStringLiteral("turn-p4"), UndoMode::Apply);
        QVERIFY2(undone, qPrintable(undone.ok() ? QString() : undone.error().message));
        QCOMPARE(read(home(QStringLiteral("data3.bin"))), contents[3]);

        // Over the size limit, the turns kept are halved until it fits (one
        // turn is always kept).
        const auto small = h.prune({100, 600 * 1024});
        QVERIFY(small);
        QVERIFY2(small->after.turns >= 1 &&
                     (small->after.bytes <= 600 * 1024 || small->after.turns == 1),
                 qPrintable(QStringLiteral("%1 turns, %2 bytes")
                                .arg(small->after.turns)
                                .arg(small->after.bytes)));
        QVERIFY(small->after.turns < 3);
        QVERIFY(h.changes(QStringLiteral("turn-p5"), false));
    }

    void manyFilesInBoundedTime()
    {
        for (int d = 0; d < 100; ++d) {
            const QString directory = home(QStringLiteral("d%1").arg(d));
            QVERIFY(QDir().mkpath(directory));
            for (int f = 0; f < 1000; ++f) {
                const int fd =
                    ::open(QFile::encodeName(directory + QStringLiteral("/f%1").arg(f)).constData(),
                           O_WRONLY | O_CREAT, 0600);
                QVERIFY(fd >= 0);
                ::close(fd);
            }
        }
        HomeHistory h = history();
        QElapsedTimer first;
        first.start();
        QVERIFY(h.recordBefore(label(QStringLiteral("turn-many"))));
        const qint64 firstMs = first.elapsed();
        QCOMPARE(h.lastSnapshot().filesRead, 100000);
        write(home(QStringLiteral("d7/f7")), "changed\n");
        QElapsedTimer second;
        second.start();
        QVERIFY(h.recordAfter(label(QStringLiteral("turn-many"))));
        const qint64 secondMs = second.elapsed();
        qInfo("100,000 empty files: first snapshot %lld ms, incremental %lld ms", firstMs,
              secondMs);
        QCOMPARE(h.lastSnapshot().filesRead, 1);
        QCOMPARE(h.lastSnapshot().filesReused, 99999);
        QVERIFY2(firstMs < 120000, qPrintable(QString::number(firstMs)));
        QVERIFY2(secondMs < 30000, qPrintable(QString::number(secondMs)));
        const auto changes = h.changes(QStringLiteral("turn-many"), false);
        QVERIFY(changes);
        QCOMPARE(summary(*changes), QStringList{QStringLiteral("modified d7/f7")});
    }
};

QTEST_GUILESS_MAIN(TestHomeHistory)
#include "test_home_history.moc"
