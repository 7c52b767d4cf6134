#pragma once

// The egress ledger's export formats (docs/egress.md, "Egress ledger"):
// JSON Lines of schema arizuko.egress-ledger/1 (docs/egress-ledger.schema.json),
// the same rows as OCSF events (Network Activity for tunnels, HTTP Activity
// for HTTP requests), and a table's cells for people.

#include "ledger/ledger_entry.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace arizuko::ledger {

inline const QString ledgerSchema = QStringLiteral("arizuko.egress-ledger/1");
// The OCSF version whose classes ocsfEvent() fills.
inline const QString ocsfVersion = QStringLiteral("1.3.0");

enum class LedgerFormat
{
    JsonLines,
    Ocsf,
    Table
};

std::optional<LedgerFormat> ledgerFormatFromName(const QString &name);

// A --since value as a store timestamp: an ISO-8601 time (UTC when it names
// no zone) or an age before `now` ("90s", "15m", "2h", "7d"); nothing when
// it is neither.
std::optional<QString> sinceTimestamp(const QString &text, const QDateTime &now);

// One line of the JSON Lines export: every key always present, null when
// not known.
QJsonObject ledgerJson(const LedgerEntry &entry);
// One OCSF event: class 4001 (Network Activity) for a CONNECT tunnel or a
// refusal before a request was read, else 4002 (HTTP Activity).
QJsonObject ocsfEvent(const LedgerEntry &entry);

QStringList ledgerTableHeaders();
QStringList ledgerTableRow(const LedgerEntry &entry);

} // namespace arizuko::ledger
