#include "agent/skills.h"

#include <QMap>
#include <QRegularExpression>

namespace arizuko::agent {
namespace {

// Claude Code's own limits on the two fields it reads.
constexpr qsizetype maxNameLength = 64;
constexpr qsizetype maxDescriptionLength = 1024;
constexpr qint64 maxSkillBytes = 256 * 1024;

Error malformed(const QString &file, const QString &field, const QString &problem)
{
    return makeError(
        QStringLiteral("skills.malformed"),
        field.isEmpty()
            ? QStringLiteral("%1: %2").arg(file, problem)
            : QStringLiteral("%1: front matter field '%2' %3").arg(file, field, problem));
}

QString unquoted(QString value)
{
    value = value.trimmed();
    if (value.size() >= 2 && (value.front() == u'"' || value.front() == u'\'') &&
        value.back() == value.front())
        return value.mid(1, value.size() - 2);
    return value;
}

} // namespace

Result<QString> checkSkillFrontMatter(const QString &file, const QString &directoryName,
                                      const QByteArray &content)
{
    const QStringList lines = QString::fromUtf8(content).split(QLatin1Char('\n'));
    auto line = [&lines](qsizetype index) { return lines.at(index).trimmed(); };
    if (lines.isEmpty() || line(0) != QLatin1String("---"))
        return malformed(file, {}, QStringLiteral("does not begin with a front matter line '---'"));
    QMap<QString, QString> fields;
    qsizetype index = 1;
    for (; index < lines.size() && line(index) != QLatin1String("---"); ++index) {
        const QString &raw = lines.at(index);
        // Blank lines, comments and the indented lines of a block value.
        if (line(index).isEmpty() || line(index).startsWith(u'#') || raw.front().isSpace())
            continue;
        const qsizetype colon = raw.indexOf(u':');
        if (colon <= 0)
            return malformed(
                file, {},
                QStringLiteral("front matter line %1 is not 'field: value'").arg(index + 1));
        fields.insert(raw.left(colon).trimmed(), unquoted(raw.mid(colon + 1)));
    }
    if (index >= lines.size())
        return malformed(file, {}, QStringLiteral("the front matter has no closing '---' line"));

    static const QRegularExpression namePattern(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    const QString name = fields.value(QStringLiteral("name"));
    if (name.isEmpty())
        return malformed(file, QStringLiteral("name"), QStringLiteral("is missing or empty"));
    if (name.size() > maxNameLength || !namePattern.match(name).hasMatch())
        return malformed(file, QStringLiteral("name"),
                         QStringLiteral("must be lower-case letters, digits and hyphens, at most "
                                        "%1 characters")
                             .arg(maxNameLength));
    if (name != directoryName)
        return malformed(file, QStringLiteral("name"),
                         QStringLiteral("is '%1' but the skill's directory is '%2'")
                             .arg(name, directoryName));
    const QString description = fields.value(QStringLiteral("description"));
    if (description.isEmpty())
        return malformed(file, QStringLiteral("description"),
                         QStringLiteral("is missing or empty"));
    if (description.size() > maxDescriptionLength)
        return malformed(file, QStringLiteral("description"),
                         QStringLiteral("is longer than %1 characters").arg(maxDescriptionLength));
    return description;
}

Result<QList<Skill>> checkSkills(const HomeDirectory &home)
{
    const auto names = home.entries(QStringLiteral("skills"));
    if (!names)
        return names.error();
    if (!*names)
        return QList<Skill>();
    QList<Skill> skills;
    for (const QString &name : **names) {
        const QString file = QStringLiteral("skills/%1/SKILL.md").arg(name);
        const auto content = home.read(file, maxSkillBytes);
        if (!content)
            return content.error();
        if (!*content)
            return malformed(file, {},
                             QStringLiteral("is missing (every directory in skills/ is a skill)"));
        const Result<QString> description = checkSkillFrontMatter(file, name, **content);
        if (!description)
            return description.error();
        skills << Skill{name, *description};
    }
    return skills;
}

QString skillsIndex(const QList<Skill> &skills, const QString &guestHome)
{
    if (skills.isEmpty())
        return {};
    QString index = QStringLiteral("<skills>\n");
    for (const Skill &skill : skills)
        index += QStringLiteral("<skill name=\"%1\" path=\"%2/skills/%1/SKILL.md\">%3</skill>\n")
                     .arg(skill.name.toHtmlEscaped(), guestHome.toHtmlEscaped(),
                          skill.description.toHtmlEscaped());
    return index + QStringLiteral("</skills>\nBefore a task that matches a skill's description, "
                                  "read its SKILL.md and follow it.\n\n");
}

} // namespace arizuko::agent
