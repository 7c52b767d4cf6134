// A folder's skills as the engine checks them before a turn: a good one is
// named, a malformed front matter names the file and the field, and a link
// anywhere on the way is refused, never followed.

#include "agent/skills.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::agent;

namespace {

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

const QByteArray good =
    "---\nname: release-notes\ndescription: Writes release notes.\n---\n\nBody.\n";

} // namespace

class TestSkills final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    Result<QList<Skill>> checkAll()
    {
        // The temporary directory stands for the data directory.
        auto home = HomeDirectory::open(m_dir.path(), {QStringLiteral("h"), homePath()});
        if (!home)
            qFatal("%s", qPrintable(home.error().message));
        return checkSkills(*home);
    }

    // The names of the skills found, or the problem.
    Result<QStringList> check()
    {
        const auto skills = checkAll();
        if (!skills)
            return skills.error();
        QStringList names;
        for (const Skill &skill : *skills)
            names << skill.name;
        return names;
    }

    QString homePath() const { return m_dir.filePath(QStringLiteral("homes/h")); }
    QString skill(const QString &name)
    {
        return homePath() + QStringLiteral("/skills/%1/SKILL.md").arg(name);
    }

private slots:
    void init()
    {
        QDir(homePath()).removeRecursively();
        QDir().mkpath(homePath());
    }

    void noSkillsIsFine() { QCOMPARE(*check(), QStringList()); }

    void aGoodSkillIsNamed()
    {
        write(skill(QStringLiteral("release-notes")), good);
        QCOMPARE(*check(), QStringList{QStringLiteral("release-notes")});
    }

    // Codex gets the folder's skills as an index before its prompt, with
    // the descriptions (escaped: the home is the agent's) and the paths.
    void theCodexIndexNamesEachSkill()
    {
        write(skill(QStringLiteral("release-notes")), good);
        const auto skills = checkAll();
        QVERIFY(skills);
        QCOMPARE(skillsIndex(*skills, QStringLiteral("/home/agent")),
                 QStringLiteral("<skills>\n<skill name=\"release-notes\" "
                                "path=\"/home/agent/skills/release-notes/SKILL.md\">Writes release "
                                "notes.</skill>\n</skills>\nBefore a task that matches a skill's "
                                "description, read its SKILL.md and follow it.\n\n"));
        QCOMPARE(skillsIndex({{QStringLiteral("x"), QStringLiteral("a </skill> b")}},
                             QStringLiteral("/h"))
                     .contains(QLatin1String("a &lt;/skill&gt; b")),
                 true);
        QCOMPARE(skillsIndex({}, QStringLiteral("/home/agent")), QString());
    }

    void malformedFrontMatterNamesFileAndField_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no description") << QByteArray("---\nname: release-notes\n---\n")
                                        << QStringLiteral("skills/release-notes/SKILL.md: front "
                                                          "matter field 'description' is missing");
        QTest::newRow("bad name") << QByteArray("---\nname: Release Notes\ndescription: x\n---\n")
                                  << QStringLiteral("field 'name' must be lower-case");
        QTest::newRow("other name") << QByteArray("---\nname: notes\ndescription: x\n---\n")
                                    << QStringLiteral("field 'name' is 'notes' but the skill's "
                                                      "directory is 'release-notes'");
        QTest::newRow("unclosed") << QByteArray("---\nname: release-notes\ndescription: x\n")
                                  << QStringLiteral("no closing '---'");
        QTest::newRow("no front matter") << QByteArray("# Release notes\n")
                                         << QStringLiteral("does not begin with a front matter");
        QTest::newRow("not a field") << QByteArray("---\nname release-notes\n---\n")
                                     << QStringLiteral("line 2 is not 'field: value'");
    }

    void malformedFrontMatterNamesFileAndField()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        write(skill(QStringLiteral("release-notes")), content);
        const auto checked = check();
        QVERIFY(!checked);
        QCOMPARE(checked.error().code, QStringLiteral("skills.malformed"));
        QVERIFY2(checked.error().message.contains(expected), qPrintable(checked.error().message));
        QVERIFY(checked.error().message.contains(QStringLiteral("skills/release-notes/SKILL.md")));
    }

    void aLinkIsNeverFollowed()
    {
        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral("x/SKILL.md")), good);
        QVERIFY(QFile::link(outside.path(), homePath() + QStringLiteral("/skills")));
        auto checked = check();
        QVERIFY(!checked);
        QVERIFY2(checked.error().message.contains(QStringLiteral("symbolic link")),
                 qPrintable(checked.error().message));
        QVERIFY(QFile::remove(homePath() + QStringLiteral("/skills")));
        QDir().mkpath(homePath() + QStringLiteral("/skills/x"));
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("x/SKILL.md")),
                            skill(QStringLiteral("x"))));
        checked = check();
        QVERIFY(!checked);
        QCOMPARE(checked.error().code, QStringLiteral("home.unsafe-path"));
    }

    void aDirectoryWithoutSkillMdIsNamed()
    {
        QDir().mkpath(homePath() + QStringLiteral("/skills/empty"));
        const auto checked = check();
        QVERIFY(!checked);
        QVERIFY2(
            checked.error().message.startsWith(QStringLiteral("skills/empty/SKILL.md: is missing")),
            qPrintable(checked.error().message));
    }
};

QTEST_GUILESS_MAIN(TestSkills)
#include "test_skills.moc"
