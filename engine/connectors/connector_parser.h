#pragma once

// Reads connector definitions from TOML and checks every field, so that a
// malformed, hostile or oversized file is refused whole with its file name
// and line, and nothing of it is half-used.

#include "connectors/connector.h"
#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace arizuko::connectors {

// A definition file larger than this is refused unread.
inline constexpr qsizetype maxDefinitionBytes = 64 * 1024;

// `source` names the file in errors ("github.toml:12: …").
Result<QList<Connector>> parseConnectors(const QByteArray &text, const QString &source);

} // namespace arizuko::connectors
