#pragma once

// One row of the egress ledger (docs/egress.md, "Egress ledger"): a request
// a turn's egress proxy, model gateway or connector decided, with the rule
// that decided it. What is not known is empty: a CONNECT tunnel has no
// path, a denial "not on the list" no rule, a row whose exchange has not
// closed yet no bytes or duration.

#include <QString>
#include <optional>

namespace arizuko::ledger {

struct LedgerEntry
{
    qint64 id = 0;
    QString time;
    QString turn;
    qint64 eventSeq = 0; // the turn event the row was made from
    QString folder;
    QString topic;
    QString client;
    QString source; // proxy, gateway, connector
    QString method;
    QString host;
    int port = 0;
    std::optional<QString> path; // without its query
    QString decision;            // allow, deny
    QString reason;
    std::optional<qint64> ruleId;
    std::optional<QString> ruleText;
    std::optional<QString> ruleFolder;
    std::optional<int> status;
    std::optional<qint64> bytesUp;
    std::optional<qint64> bytesDown;
    std::optional<qint64> durationMs;
    bool asked = false;
    std::optional<QString> answer;
};

// The sources a row may have.
inline const QString sourceProxy = QStringLiteral("proxy");
inline const QString sourceGateway = QStringLiteral("gateway");
inline const QString sourceConnector = QStringLiteral("connector");

// A write the turn's journal makes with its events: a new row, or the
// totals of the row made from the decision event `entry.eventSeq`.
struct LedgerWrite
{
    enum class Kind
    {
        Insert,
        Complete
    };
    Kind kind = Kind::Insert;
    LedgerEntry entry;
};

} // namespace arizuko::ledger
