#include "models/network_decision_model.h"

#include <QDateTime>

namespace arizuko::models {

EgressOutcome egressOutcome(const QString &decision, const QString &reason)
{
    if (decision == QLatin1String("allow"))
        return EgressOutcome::Allowed;
    static const QStringList policy = {
        QStringLiteral("host-not-allowed"), QStringLiteral("host-denied"),
        QStringLiteral("private-address"), QStringLiteral("client-not-allowed")};
    return policy.contains(reason) ? EgressOutcome::Refused : EgressOutcome::Failed;
}

void NetworkDecisionModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void NetworkDecisionModel::addDecisions(const QList<QJsonObject> &lines)
{
    QList<Row> added;
    int firstClosed = -1;
    int lastClosed = -1;
    for (const QJsonObject &line : lines) {
        const QString event = line.value(QStringLiteral("event")).toString();
        const QString host = line.value(QStringLiteral("host")).toString();
        const int port = line.value(QStringLiteral("port")).toInt();
        if (event == QLatin1String("close")) {
            // Rows not yet inserted are searched too: a batch may hold both.
            auto closes = [&](Row &row) {
                if (row.host != host || row.port != port || row.bytesUp >= 0)
                    return false;
                row.bytesUp = line.value(QStringLiteral("bytes_up")).toInteger();
                row.bytesDown = line.value(QStringLiteral("bytes_down")).toInteger();
                return true;
            };
            bool done = false;
            for (qsizetype i = added.size() - 1; i >= 0 && !done; --i)
                done = closes(added[i]);
            for (qsizetype i = m_rows.size() - 1; i >= 0 && !done; --i) {
                if ((done = closes(m_rows[i]))) {
                    firstClosed = firstClosed < 0 ? int(i) : std::min(firstClosed, int(i));
                    lastClosed = std::max(lastClosed, int(i));
                }
            }
            continue;
        }
        if (event != QLatin1String("decision"))
            continue;
        Row row;
        row.time = line.value(QStringLiteral("time")).toString();
        row.host = host;
        row.port = port;
        row.allowed = line.value(QStringLiteral("decision")).toString() == QLatin1String("allow");
        row.reason = line.value(QStringLiteral("reason")).toString();
        row.outcome = egressOutcome(line.value(QStringLiteral("decision")).toString(), row.reason);
        added << row;
    }
    if (firstClosed >= 0)
        emit dataChanged(index(firstClosed, BytesColumn), index(lastClosed, BytesColumn));
    if (added.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size() - 1));
    m_rows.append(added);
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
        return row.reason == QLatin1String("host-not-allowed");
    if (role == HostRole)
        return row.host;
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
    case DecisionColumn:
        switch (row.outcome) {
        case EgressOutcome::Allowed:
            return tr("allowed");
        case EgressOutcome::Refused:
            return tr("denied");
        case EgressOutcome::Failed:
            return tr("failed");
        }
        return {};
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
