// The folder home belongs to the agent, which may plant links to the
// user's files there. The engine reads and writes session files in it, and
// must never be made to read or write anything outside it.

#include "agent/agent_profile.h"
#include "agent/claude_session.h"
#include "agent/home_directory.h"
#include "agent/session_files.h"
#include "agent/start_configuration.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "store/store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>
#include <sys/stat.h>
#include <unistd.h>

using namespace arizuko::agent;

namespace {

const QByteArray canary = "CANARY-PRIVATE-KEY-3f9a1c";

QString newId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

QByteArray conversation(const QString &sessionId)
{
    return QStringLiteral(R"({"type":"user","sessionId":"%1","message":{"content":"hi"}})"
                          "\n"
                          R"({"type":"assistant","sessionId":"%1","message":{"content":"hello"}})"
                          "\n")
        .arg(sessionId)
        .toUtf8();
}

} // namespace

class TestHomeFiles final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root; // the data directory
    arizuko::folders::Home m_folderHome;
    QString m_home;
    QString m_outside; // the user's secret, outside every home

    auto openHome() const { return HomeDirectory::open(m_root.path(), m_folderHome); }

    QString sessionPath(const QString &id) const
    {
        return QDir(m_home).filePath(claudeSessionFile(id));
    }

    void checkCanaryUntouched(const QString &copyId)
    {
        QFile secret(m_outside);
        QVERIFY(secret.open(QIODevice::ReadOnly));
        QCOMPARE(secret.readAll(), canary);
        const QFileInfo copy(sessionPath(copyId));
        if (copy.exists() && !copy.isSymLink()) {
            QFile file(copy.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains(canary), "the canary reached the home");
        }
    }

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        const QString id = QStringLiteral("home-") + newId();
        m_home = m_root.filePath(QStringLiteral("homes/") + id);
        m_folderHome = {id, m_home};
        QVERIFY(QDir().mkpath(m_home));
        m_outside = m_root.filePath(QStringLiteral("id_ed25519-") + newId());
        writeFile(m_outside, canary);
    }

    // Codex's rollout file (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl)
    // and pi's session file (sessions/<time>_<id>.jsonl) are found by id,
    // and a fork copies them under the new id, in the line that declares
    // it and in the name.
    void codexAndPiSessionsAreFoundAndForkedById_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("directory");
        QTest::addColumn<QString>("namePattern"); // %1: the id
        QTest::addColumn<QString>("header");      // %1: the id
        QTest::newRow("codex") << QStringLiteral("codex")
                               << QStringLiteral(".codex/sessions/2026/12/02")
                               << QStringLiteral("rollout-2026-12-02T07-33-34-%1.jsonl")
                               << QStringLiteral(R"({"type":"session_meta","payload":{"id":"%1",)"
                                                 R"("cwd":"/home/agent"}})");
        QTest::newRow("pi") << QStringLiteral("pi") << QStringLiteral(".pi/agent/sessions")
                            << QStringLiteral("2026-12-02T07-33-34-380Z_%1.jsonl")
                            << QStringLiteral(R"({"type":"session","version":3,"id":"%1"})");
    }

    // Each kind that keeps a conversation has its profile under the name
    // the store and the spec use; the command agent keeps none.
    void everyConversationAgentHasAProfile()
    {
        QCOMPARE(
            conversationAgentNames(),
            QStringList({QStringLiteral("claude"), QStringLiteral("codex"), QStringLiteral("pi")}));
        for (const QString &name : conversationAgentNames())
            QCOMPARE(QString(agentProfile(name)->name), name);
        QCOMPARE(agentProfile(QStringLiteral("command")), nullptr);
        QCOMPARE(QString(agentProfile(QStringLiteral("claude"))->title),
                 QStringLiteral("Claude Code"));
        QVERIFY(agentProfile(QStringLiteral("codex"))->openAiResponses);
        QVERIFY(!agentProfile(QStringLiteral("pi"))->openAiResponses);
        QVERIFY(!agentProfile(QStringLiteral("pi"))->hostTools);
        QVERIFY(agentProfile(QStringLiteral("claude"))->hostTools);
        QCOMPARE(agentProfiles().size(), conversationAgentNames().size());
    }

    // The default kind is named once: a topic the user adds before any turn
    // holds the store's default (migration 0007), which must be its name.
    void aNewTopicHoldsTheDefaultKind()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto store = arizuko::store::Store::open(dir.filePath(QStringLiteral("data")));
        QVERIFY(store);
        QVERIFY(arizuko::folders::Folders(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp")));
        arizuko::folders::Topics topics(**store, QStringLiteral("user:test"));
        const auto added = topics.add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(added);
        QCOMPARE(added->agentKind, QString(defaultAgentProfile().name));
        QCOMPARE(topics.list(QStringLiteral("corp"))->first().agentKind,
                 QString(defaultAgentProfile().name));
    }

    void codexAndPiSessionsAreFoundAndForkedById()
    {
        QFETCH(QString, kind);
        QFETCH(QString, directory);
        QFETCH(QString, namePattern);
        QFETCH(QString, header);
        const QString parent = newId();
        const QString child = newId();
        const auto home = openHome();
        QCOMPARE(inspectAgentSession(kind, *home, parent).state, SessionFileState::Absent);
        QVERIFY(!*forkAgentSession(kind, *home, parent, child));
        const QString file = directory + u'/' + namePattern.arg(parent);
        writeFile(QDir(m_home).filePath(file), header.arg(parent).toUtf8() + "\n" +
                                                   R"({"type":"message","text":"the first turn"})" +
                                                   "\n");
        QCOMPARE(*findSessionFile(kind, *home, parent), std::optional<QString>(file));
        QCOMPARE(inspectAgentSession(kind, *home, parent).state, SessionFileState::Usable);
        const auto forked = forkAgentSession(kind, *home, parent, child);
        QVERIFY2(forked, forked ? "" : qPrintable(forked.error().message));
        QVERIFY(*forked);
        const QString copy = directory + u'/' + namePattern.arg(child);
        QCOMPARE(*findSessionFile(kind, *home, child), std::optional<QString>(copy));
        QFile copied(QDir(m_home).filePath(copy));
        QVERIFY(copied.open(QIODevice::ReadOnly));
        const QByteArray content = copied.readAll();
        QVERIFY(content.contains(child.toUtf8()));
        QVERIFY(!content.contains(parent.toUtf8()));
        QVERIFY(content.contains("the first turn"));
        QCOMPARE(inspectAgentSession(kind, *home, child).state, SessionFileState::Usable);
    }

    // A link in the way of the search (sessions -> elsewhere) is refused,
    // never followed.
    // What a started agent has not seen: pi's sessions (kept by the turns
    // in .pi/agent) do not count, its context file and project config do,
    // and a .pi that is a link counts without being followed.
    void piStartConfigurationIsWhatPiReadsAtItsStartOnly()
    {
        const QDir home(m_home);
        QVERIFY(home.mkpath(QStringLiteral(".pi/agent/sessions")));
        writeFile(home.filePath(QStringLiteral(".pi/agent/sessions/s.jsonl")), "{}\n");
        QCOMPARE(piStartConfiguration(*openHome()), QStringList());
        QCOMPARE(claudeStartConfiguration(*openHome()), QStringList());
        writeFile(home.filePath(QStringLiteral("AGENTS.md")), "# rules\n");
        writeFile(home.filePath(QStringLiteral(".pi/settings.json")), "{}\n");
        QVERIFY(home.mkpath(QStringLiteral(".agents/skills")));
        QCOMPARE(piStartConfiguration(*openHome()),
                 (QStringList{QStringLiteral("AGENTS.md"), QStringLiteral(".agents"),
                              QStringLiteral(".pi/settings.json")}));
        QVERIFY(QDir(home.filePath(QStringLiteral(".pi"))).removeRecursively());
        QVERIFY(QFile::link(m_root.path(), home.filePath(QStringLiteral(".pi"))));
        QVERIFY(piStartConfiguration(*openHome()).contains(QStringLiteral(".pi")));
    }

    // Codex loads the project's .codex/config.toml before it reads its
    // prompt; its threads (kept by the turns in .codex/sessions) and
    // AGENTS.md (read after the prompt) do not count.
    void codexStartConfigurationIsItsProjectConfigOnly()
    {
        const QDir home(m_home);
        QVERIFY(home.mkpath(QStringLiteral(".codex/sessions/2026")));
        writeFile(home.filePath(QStringLiteral("AGENTS.md")), "# rules\n");
        QVERIFY(home.mkpath(QStringLiteral(".agents/skills")));
        QCOMPARE(startConfiguration(QStringLiteral("codex"), *openHome()), QStringList());
        writeFile(home.filePath(QStringLiteral(".codex/config.toml")), "model = \"x\"\n");
        QCOMPARE(startConfiguration(QStringLiteral("codex"), *openHome()),
                 QStringList{QStringLiteral(".codex/config.toml")});
        QVERIFY(QDir(home.filePath(QStringLiteral(".codex"))).removeRecursively());
        QVERIFY(QFile::link(m_root.path(), home.filePath(QStringLiteral(".codex"))));
        QCOMPARE(startConfiguration(QStringLiteral("codex"), *openHome()),
                 QStringList{QStringLiteral(".codex")});
        QCOMPARE(startConfiguration(QStringLiteral("command"), *openHome()), QStringList());
    }

    void aLinkedCodexSessionsFolderIsNeverFollowed()
    {
        const QString id = newId();
        const QString elsewhere = m_root.filePath(QStringLiteral("elsewhere-") + newId());
        writeFile(QDir(elsewhere).filePath(QStringLiteral("2026/12/02/rollout-x-%1.jsonl").arg(id)),
                  R"({"type":"session_meta"})");
        QDir().mkpath(QDir(m_home).filePath(QStringLiteral(".codex")));
        QVERIFY(QFile::link(elsewhere, QDir(m_home).filePath(QStringLiteral(".codex/sessions"))));
        const auto home = openHome();
        QCOMPARE(inspectAgentSession(QStringLiteral("codex"), *home, id).state,
                 SessionFileState::Unusable);
        QVERIFY(!forkAgentSession(QStringLiteral("codex"), *home, id, newId()));
    }

    void anAbsentSessionIsAFirstTurn()
    {
        const auto home = openHome();
        QVERIFY(home);
        QCOMPARE(inspectClaudeSession(*home, newId()).state, SessionFileState::Absent);
    }

    void aConversationIsUsableAndForksUnderTheNewId()
    {
        const QString parent = newId();
        const QString child = newId();
        writeFile(sessionPath(parent), conversation(parent));
        const auto home = openHome();
        QCOMPARE(inspectClaudeSession(*home, parent).state, SessionFileState::Usable);
        const auto forked = forkClaudeSession(*home, parent, child);
        QVERIFY2(forked, forked ? "" : qPrintable(forked.error().message));
        QVERIFY(*forked);
        QFile copy(sessionPath(child));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        const QByteArray copied = copy.readAll();
        QVERIFY(copied.contains(child.toUtf8()));
        QVERIFY(!copied.contains(parent.toUtf8()));
        QCOMPARE(copied.count('\n'), 2);
        QCOMPARE(QFileInfo(sessionPath(child)).permissions() &
                     (QFile::ReadOther | QFile::ReadGroup),
                 QFileDevice::Permissions());
        QCOMPARE(inspectClaudeSession(*home, child).state, SessionFileState::Usable);
        QVERIFY2(!forkClaudeSession(*home, parent, child), "a fork never overwrites a file");
    }

    void damagedConversationIsUnusable()
    {
        const QString id = newId();
        writeFile(sessionPath(id), conversation(id) + "{not json\n");
        const auto home = openHome();
        const SessionFileCheck check = inspectClaudeSession(*home, id);
        QCOMPARE(check.state, SessionFileState::Unusable);
        QVERIFY(check.problem.contains(QStringLiteral("line 3")));
        QVERIFY(!forkClaudeSession(*home, id, newId()));
    }

    // session.jsonl -> ~/.ssh/id_ed25519: a fork would copy the key into
    // the agent's home if the link were followed.
    void aPlantedSymlinkIsNeverFollowed()
    {
        const QString parent = newId();
        const QString child = newId();
        QDir().mkpath(QFileInfo(sessionPath(parent)).path());
        QVERIFY(QFile::link(m_outside, sessionPath(parent)));
        const auto home = openHome();
        const SessionFileCheck check = inspectClaudeSession(*home, parent);
        QCOMPARE(check.state, SessionFileState::Unusable);
        QVERIFY2(check.problem.contains(QStringLiteral("symbolic link")),
                 qPrintable(check.problem));
        const auto forked = forkClaudeSession(*home, parent, child);
        QVERIFY(!forked);
        QCOMPARE(forked.error().code, QStringLiteral("home.unsafe-path"));
        QVERIFY(!QFileInfo::exists(sessionPath(child)));
        checkCanaryUntouched(child);
    }

    // A link higher up the path: .claude -> a folder outside the home.
    void aSymlinkedParentFolderIsNeverFollowed()
    {
        const QString parent = newId();
        const QString child = newId();
        const QString elsewhere = m_root.filePath(QStringLiteral("elsewhere-") + newId());
        writeFile(QDir(elsewhere).filePath(QStringLiteral("projects/-home-agent/") + parent +
                                           QStringLiteral(".jsonl")),
                  conversation(parent));
        QVERIFY(QFile::link(elsewhere, QDir(m_home).filePath(QStringLiteral(".claude"))));
        const auto home = openHome();
        QCOMPARE(inspectClaudeSession(*home, parent).state, SessionFileState::Unusable);
        QVERIFY(!forkClaudeSession(*home, parent, child));
        QVERIFY2(!QFileInfo::exists(
                     QDir(elsewhere).filePath(QStringLiteral("projects/-home-agent/") + child +
                                              QStringLiteral(".jsonl"))),
                 "nothing written through the link");
    }

    // A link planted where the fork will write: the copy must not land
    // outside the home, nor truncate the file the link names.
    void aPlantedLinkAtTheTargetIsNotWrittenThrough()
    {
        const QString parent = newId();
        const QString child = newId();
        writeFile(sessionPath(parent), conversation(parent));
        QVERIFY(QFile::link(m_outside, sessionPath(child)));
        const auto home = openHome();
        QVERIFY(!forkClaudeSession(*home, parent, child));
        checkCanaryUntouched(child);
    }

    void aSecondHardLinkIsRefused()
    {
        const QString parent = newId();
        writeFile(m_outside, conversation(parent) + canary + '\n');
        QDir().mkpath(QFileInfo(sessionPath(parent)).path());
        QVERIFY2(::link(QFile::encodeName(m_outside).constData(),
                        QFile::encodeName(sessionPath(parent)).constData()) == 0,
                 "the temporary directory must allow hard links for this test");
        const auto home = openHome();
        const SessionFileCheck check = inspectClaudeSession(*home, parent);
        QCOMPARE(check.state, SessionFileState::Unusable);
        QVERIFY2(check.problem.contains(QStringLiteral("hard links")), qPrintable(check.problem));
        QVERIFY(!forkClaudeSession(*home, parent, newId()));
    }

    void aFifoDoesNotHangTheEngine()
    {
        const QString id = newId();
        QDir().mkpath(QFileInfo(sessionPath(id)).path());
        QCOMPARE(::mkfifo(QFile::encodeName(sessionPath(id)).constData(), 0600), 0);
        const auto home = openHome();
        QCOMPARE(inspectClaudeSession(*home, id).state, SessionFileState::Unusable);
    }

    // The home itself, or homes/ above it, replaced by a link to the user's
    // files: the engine opens neither, and creates nothing through them.
    void aHomeReachedThroughALinkIsNotOpened_data()
    {
        QTest::addColumn<QString>("replaced");
        QTest::newRow("the home") << QStringLiteral("home");
        QTest::newRow("homes/") << QStringLiteral("homes");
    }

    void aHomeReachedThroughALinkIsNotOpened()
    {
        QFETCH(QString, replaced);
        const QString elsewhere = m_root.filePath(QStringLiteral("elsewhere-") + newId());
        QVERIFY(QDir().mkpath(elsewhere));
        const QString linked = replaced == u"home" ? m_home : QFileInfo(m_home).path();
        QVERIFY(QDir(linked).removeRecursively());
        QVERIFY(QFile::link(elsewhere, linked));
        const auto home = openHome();
        QVERIFY(!home);
        QVERIFY2(home.error().message.contains(QStringLiteral("is a symbolic link")),
                 qPrintable(home.error().message));
        QCOMPARE(QDir(elsewhere).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System |
                                           QDir::Hidden),
                 QStringList());
        QVERIFY(QFile::remove(linked)); // the next test's home is made afresh
    }

    void idsThatAreNotUuidsNeverBecomePaths()
    {
        const auto home = openHome();
        QCOMPARE(inspectClaudeSession(*home, QStringLiteral("../../x")).state,
                 SessionFileState::Unusable);
        QVERIFY(!forkClaudeSession(*home, newId(), QStringLiteral("../escape")));
        QVERIFY(!home->read(QStringLiteral("../outside"), 10));
        QVERIFY(!home->create(QStringLiteral("a/../../b"), "x"));
    }
};

QTEST_GUILESS_MAIN(TestHomeFiles)
#include "test_home_files.moc"
