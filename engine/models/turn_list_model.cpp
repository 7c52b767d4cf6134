#include "models/turn_list_model.h"

#include "turn_records/turn_records.h"

#include <QDateTime>
#include <QJsonDocument>

namespace arizuko::models {

QString turnStateText(turns::TurnState state)
{
    switch (state) {
    case turns::TurnState::Queued:
        return TurnListModel::tr("queued");
    case turns::TurnState::Preparing:
        return TurnListModel::tr("preparing");
    case turns::TurnState::Booting:
        return TurnListModel::tr("booting");
    case turns::TurnState::Running:
        return TurnListModel::tr("running");
    case turns::TurnState::Finishing:
        return TurnListModel::tr("finishing");
    case turns::TurnState::Done:
        return TurnListModel::tr("done");
    case turns::TurnState::Failed:
        return TurnListModel::tr("failed");
    case turns::TurnState::Cancelled:
        return TurnListModel::tr("cancelled");
    case turns::TurnState::Interrupted:
        return TurnListModel::tr("interrupted");
    }
    return turns::turnStateName(state);
}

QString turnDuration(const turns::TurnRecord &record)
{
    const QDateTime started = QDateTime::fromString(record.queuedAt, Qt::ISODateWithMs);
    const QDateTime ended = QDateTime::fromString(record.endedAt, Qt::ISODateWithMs);
    if (!started.isValid() || !ended.isValid())
        return {};
    return TurnListModel::tr("%1 s").arg(double(started.msecsTo(ended)) / 1000.0, 0, 'f', 1);
}

QString turnUsage(const turns::TurnRecord &record)
{
    QStringList parts;
    if (!record.usage.isEmpty()) {
        const auto count = [&](const char *key) {
            return record.usage.value(QLatin1String(key)).toInteger();
        };
        parts << TurnListModel::tr("%1 tokens in, %2 out")
                     .arg(count("input_tokens") + count("cache_read_input_tokens") +
                          count("cache_creation_input_tokens"))
                     .arg(count("output_tokens"));
    }
    if (record.costUsd)
        parts << QStringLiteral("$%1").arg(*record.costUsd, 0, 'f', 4);
    else if (turns::isTerminal(record.state))
        parts << TurnListModel::tr("cost unknown");
    return parts.join(QStringLiteral(" \u00b7 "));
}

TurnListModel::TurnListModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{}

void TurnListModel::setTopic(const QString &folder, const QString &topic)
{
    if (folder == m_folder && topic == m_topic)
        return;
    beginResetModel();
    m_folder = folder;
    m_topic = topic;
    m_turns.clear();
    endResetModel();
    (void)reload();
}

Result<void> TurnListModel::reload()
{
    if (m_folder.isEmpty()) {
        return {};
    }
    const auto fresh = turns::TurnRecords(m_store).ofTopic(m_folder, m_topic);
    if (!fresh)
        return fresh.error();
    // Turns are only ever added to a topic, at its end; a list that is not
    // an extension of ours (a topic renamed under us) starts over.
    const qsizetype kept = std::min(m_turns.size(), fresh->size());
    for (qsizetype row = 0; row < kept; ++row) {
        if (m_turns[row].id != (*fresh)[row].id) {
            beginResetModel();
            m_turns = *fresh;
            endResetModel();
            return {};
        }
    }
    if (fresh->size() < m_turns.size()) {
        beginRemoveRows({}, int(fresh->size()), int(m_turns.size() - 1));
        m_turns.resize(fresh->size());
        endRemoveRows();
    }
    int firstChanged = -1;
    int lastChanged = -1;
    for (qsizetype row = 0; row < kept; ++row) {
        if (QJsonDocument(m_turns[row].toJson()) != QJsonDocument((*fresh)[row].toJson())) {
            m_turns[row] = (*fresh)[row];
            firstChanged = firstChanged < 0 ? int(row) : firstChanged;
            lastChanged = int(row);
        }
    }
    // One signal over the changed range rather than one per row.
    if (firstChanged >= 0)
        emit dataChanged(index(firstChanged, 0), index(lastChanged, ColumnCount - 1));
    if (fresh->size() > m_turns.size()) {
        beginInsertRows({}, int(m_turns.size()), int(fresh->size() - 1));
        m_turns.append(fresh->mid(m_turns.size()));
        endInsertRows();
    }
    return {};
}

int TurnListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_turns.size());
}

int TurnListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TurnListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const turns::TurnRecord &turn = m_turns.at(index.row());
    if (role == IdRole)
        return turn.id;
    if (role == StateRole)
        return turns::turnStateName(turn.state);
    if (role == RecordRole)
        return turn.toJson();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return turn.name;
    case StateColumn:
        return turnStateText(turn.state);
    case PromptColumn:
        return role == Qt::ToolTipRole ? turn.prompt : turn.prompt.section(QLatin1Char('\n'), 0, 0);
    case DurationColumn:
        return turnDuration(turn);
    case CostColumn:
        return turnUsage(turn);
    default:
        return {};
    }
}

QVariant TurnListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Turn");
    case StateColumn:
        return tr("State");
    case PromptColumn:
        return tr("Prompt");
    case DurationColumn:
        return tr("Duration");
    case CostColumn:
        return tr("Tokens and cost");
    default:
        return {};
    }
}

} // namespace arizuko::models
