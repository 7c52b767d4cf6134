#pragma once

// Where in a manifest something is wrong: document, resource, row (with its
// line) and field, so every refusal can name all four.

#include "core/result.h"

#include <QString>

namespace arizuko::manifest {

struct Place
{
    int document = 0;
    QString resource;
    qsizetype row = -1;
    int line = 0;
    QString field;

    Error error(const QString &problem) const
    {
        QString where = QStringLiteral("document %1").arg(document + 1);
        if (!resource.isEmpty())
            where += QStringLiteral(", %1").arg(resource);
        if (row >= 0)
            where += QStringLiteral(" row %1").arg(row + 1);
        if (line > 0)
            where += QStringLiteral(" (line %1)").arg(line);
        if (!field.isEmpty())
            where += QStringLiteral(", field %1").arg(field);
        return makeError(QStringLiteral("import.invalid"), where + QStringLiteral(": ") + problem);
    }

    Place at(const QString &fieldName) const
    {
        Place copy = *this;
        copy.field = fieldName;
        return copy;
    }
};

} // namespace arizuko::manifest
