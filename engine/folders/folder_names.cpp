#include "folders/folder_names.h"

#include <QStringList>

namespace arizuko::folders {
namespace {

constexpr qsizetype maxSegmentLength = 128;

QString segmentProblem(const QString &segment)
{
    if (segment.isEmpty())
        return QStringLiteral("has an empty segment");
    if (segment == QLatin1String(".") || segment == QLatin1String(".."))
        return QStringLiteral("has a '%1' segment").arg(segment);
    if (segment.size() > maxSegmentLength)
        return QStringLiteral("has a segment longer than %1 characters").arg(maxSegmentLength);
    for (const QChar character : segment) {
        // Format characters too: a U+202E would show the path reversed.
        if (character.category() == QChar::Other_Control ||
            character.category() == QChar::Other_Format || character.isNull())
            return QStringLiteral("contains a control character");
        if (character.isSpace())
            return QStringLiteral("contains white space");
        if (QStringLiteral("\\*?[]:#").contains(character))
            return QStringLiteral("contains '%1'").arg(character);
    }
    return {};
}

Error invalid(const QString &code, const QString &what, const QString &value,
              const QString &problem)
{
    return makeError(code, QStringLiteral("invalid %1 '%2': it %3").arg(what, value, problem));
}

} // namespace

Result<void> validateFolderPath(const QString &path)
{
    const QString code = QStringLiteral("folder.invalid");
    if (path.isEmpty())
        return makeError(code, QStringLiteral("invalid folder: the path is empty"));
    for (const QString &segment : path.split(QLatin1Char('/'))) {
        if (const QString problem = segmentProblem(segment); !problem.isEmpty())
            return invalid(code, QStringLiteral("folder"), path, problem);
        if (segment == QLatin1String("share"))
            return invalid(code, QStringLiteral("folder"), path,
                           QStringLiteral("uses the reserved name 'share'"));
    }
    return {};
}

Result<void> validateTopicName(const QString &name)
{
    const QString code = QStringLiteral("topic.invalid");
    if (name.isEmpty())
        return makeError(code, QStringLiteral("invalid topic: the name is empty"));
    if (name.contains(QLatin1Char('/')))
        return invalid(code, QStringLiteral("topic"), name, QStringLiteral("contains '/'"));
    if (const QString problem = segmentProblem(name); !problem.isEmpty())
        return invalid(code, QStringLiteral("topic"), name, problem);
    return {};
}

QString parentFolder(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

QStringList folderAndAncestors(const QString &path)
{
    QStringList chain{path};
    while (!chain.last().isEmpty())
        chain << parentFolder(chain.last());
    return chain;
}

} // namespace arizuko::folders
