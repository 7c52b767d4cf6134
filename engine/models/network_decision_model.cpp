#include "models/network_decision_model.h"

#include <QDateTime>

namespace arizuko::models {

EgressOutcome egressOutcome(const QString &decision, const QString &reason)
{
    if (decision == QLatin1String("allow"))
        return EgressOutcome::Allowed;
    static const QStringList policy = {
        QStringLiteral("host-not-allowed"), QStringLiteral("host-denied"),
        QStringLiteral("private-address"),  QStringLiteral("client-not-allowed"),
        QStringLiteral("user-denied"),      QStringLiteral("no-answer"),
        QStringLiteral("ask-limit")};
    return policy.contains(reason) ? EgressOutcome::Refused : EgressOutcome::Failed;
}

bool onNoAllowEntry(const QString &reason)
{
    // Refused at once, or asked about and not allowed: an allow rule for
    // the folder would let the next one through.
    static const QStringList unlisted = {QStringLiteral("host-not-allowed"),
                                         QStringLiteral("user-denied"), QStringLiteral("no-answer"),
                                         QStringLiteral("ask-limit")};
    return unlisted.contains(reason);
}

void NetworkDecisionModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_unmatched.clear();
    endResetModel();
}

NetworkDecisionModel::Row NetworkDecisionModel::decisionRow(const QJsonObject &line)
{
    Row row;
    row.time = line.value(QStringLiteral("time")).toString();
    row.host = line.value(QStringLiteral("host")).toString();
    row.port = line.value(QStringLiteral("port")).toInt();
    row.allowed = line.value(QStringLiteral("decision")).toString() == QLatin1String("allow");
    row.reason = line.value(QStringLiteral("reason")).toString();
    row.outcome = egressOutcome(line.value(QStringLiteral("decision")).toString(), row.reason);
    row.asked = line.value(QStringLiteral("asked")).toBool();
    row.answer = line.value(QStringLiteral("answer")).toString();
    return row;
}

NetworkDecisionModel::Close NetworkDecisionModel::closeOf(const QJsonObject &line)
{
    return {line.value(QStringLiteral("host")).toString(),
            line.value(QStringLiteral("port")).toInt(),
            line.value(QStringLiteral("bytes_up")).toInteger(),
            line.value(QStringLiteral("bytes_down")).toInteger()};
}

qsizetype NetworkDecisionModel::complete(QList<Row> &rows, qsizetype end, const Close &close)
{
    for (qsizetype i = end - 1; i >= 0; --i) {
        Row &row = rows[i];
        if (row.host == close.host && row.port == close.port && row.bytesUp < 0) {
            row.bytesUp = close.bytesUp;
            row.bytesDown = close.bytesDown;
            return i;
        }
    }
    return -1;
}

void NetworkDecisionModel::addDecisions(const QList<QJsonObject> &lines)
{
    QList<Row> added;
    int firstClosed = -1;
    int lastClosed = -1;
    for (const QJsonObject &line : lines) {
        const QString event = line.value(QStringLiteral("event")).toString();
        if (event == QLatin1String("close")) {
            // Rows not yet inserted are searched too: a batch may hold both.
            const Close close = closeOf(line);
            if (complete(added, added.size(), close) >= 0)
                continue;
            const qsizetype closed = complete(m_rows, m_rows.size(), close);
            if (closed < 0) {
                m_unmatched << close;
                continue;
            }
            firstClosed = firstClosed < 0 ? int(closed) : std::min(firstClosed, int(closed));
            lastClosed = std::max(lastClosed, int(closed));
            continue;
        }
        if (event == QLatin1String("decision"))
            added << decisionRow(line);
    }
    if (firstClosed >= 0)
        emit dataChanged(index(firstClosed, BytesColumn), index(lastClosed, BytesColumn));
    if (added.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size() - 1));
    m_rows.append(added);
    endInsertRows();
}

void NetworkDecisionModel::prependDecisions(const QList<QJsonObject> &lines)
{
    QList<Row> added;
    QList<Close> unmatched;
    for (const QJsonObject &line : lines) {
        const QString event = line.value(QStringLiteral("event")).toString();
        if (event == QLatin1String("close")) {
            const Close close = closeOf(line);
            if (complete(added, added.size(), close) < 0)
                unmatched << close;
        } else if (event == QLatin1String("decision")) {
            added << decisionRow(line);
        }
    }
    // In the order they were logged, as if these lines had come first.
    for (const Close &close : std::as_const(m_unmatched)) {
        if (complete(added, added.size(), close) < 0)
            unmatched << close;
    }
    m_unmatched = unmatched;
    if (added.isEmpty())
        return;
    beginInsertRows({}, 0, int(added.size() - 1));
    m_rows = added + m_rows;
    endInsertRows();
}

int NetworkDecisionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NetworkDecisionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NetworkDecisionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == AllowableRole)
        return onNoAllowEntry(row.reason);
    if (role == HostRole)
        return row.host;
    if (role == AskedRole)
        return row.asked;
    if (role == Qt::ToolTipRole && index.column() == DecisionColumn && row.asked)
        return tr("The request waited while you were asked about %1.").arg(row.host);
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (index.column()) {
    case TimeColumn: {
        const QDateTime at = QDateTime::fromString(row.time, Qt::ISODateWithMs);
        return at.isValid() ? at.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : row.time;
    }
    case HostColumn:
        return row.host;
    case PortColumn:
        return row.port;
    case DecisionColumn: {
        QString outcome;
        switch (row.outcome) {
        case EgressOutcome::Allowed:
            outcome = tr("allowed");
            break;
        case EgressOutcome::Refused:
            outcome = tr("denied");
            break;
        case EgressOutcome::Failed:
            outcome = tr("failed");
            break;
        }
        if (!row.asked)
            return outcome;
        // The marker says it was asked, and what the answer was.
        // (The proxy writes `deny` as the answer of a question that timed out too.)
        const bool timedOut = row.reason == QLatin1String("no-answer");
        QString answer = tr("no answer");
        if (!timedOut && row.answer == QLatin1String("once"))
            answer = tr("allowed once");
        else if (!timedOut && row.answer == QLatin1String("turn"))
            answer = tr("allowed for the turn");
        else if (!timedOut && row.answer == QLatin1String("deny"))
            answer = tr("denied");
        return tr("%1 (asked: %2)").arg(outcome, answer);
    }
    case ReasonColumn:
        return row.reason;
    case BytesColumn:
        return row.bytesUp < 0 ? QString()
                               : tr("%1 up, %2 down").arg(row.bytesUp).arg(row.bytesDown);
    default:
        return {};
    }
}

QVariant NetworkDecisionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case HostColumn:
        return tr("Host");
    case PortColumn:
        return tr("Port");
    case DecisionColumn:
        return tr("Decision");
    case ReasonColumn:
        return tr("Reason");
    case BytesColumn:
        return tr("Bytes");
    default:
        return {};
    }
}

} // namespace arizuko::models
