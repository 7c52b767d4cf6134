#include "models/audit_log_model.h"

#include "models/network_rule_model.h"

#include <QJsonDocument>

namespace arizuko::models {

AuditLogModel::AuditLogModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_log(store)
{
}

Result<void> AuditLogModel::setFilter(const audit::Query &filter)
{
    audit::Query query = filter;
    query.afterId = 0;
    query.limit = maxRows;
    Result<QList<audit::Entry>> entries = m_log.query(query);
    if (!entries)
        return entries.error();
    beginResetModel();
    m_filter = query;
    m_entries = std::move(*entries);
    m_lastId = m_entries.isEmpty() ? 0 : m_entries.last().id;
    endResetModel();
    if (m_lastId == 0) {
        // Nothing matched yet: start live updates after the newest row of all,
        // so poll() never re-reads the whole log.
        audit::Query newest;
        newest.limit = 1;
        if (const auto last = m_log.query(newest); last && !last->isEmpty())
            m_lastId = last->last().id;
    }
    return {};
}

Result<void> AuditLogModel::poll()
{
    audit::Query query = m_filter;
    query.afterId = m_lastId;
    Result<QList<audit::Entry>> entries = m_log.query(query);
    if (!entries)
        return entries.error();
    if (entries->isEmpty())
        return {};
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(entries->size()) - 1);
    m_entries += *entries;
    m_lastId = m_entries.last().id;
    endInsertRows();
    if (m_entries.size() > maxRows) {
        const int excess = int(m_entries.size()) - maxRows;
        beginRemoveRows({}, 0, excess - 1);
        m_entries.remove(0, excess);
        endRemoveRows();
    }
    return {};
}

int AuditLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AuditLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const audit::Entry &entry = m_entries.at(index.row());
    if (role == IdRole)
        return entry.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return entry.at;
    case ActorColumn:
        return entry.actor;
    case KindColumn:
        return entry.kind;
    case SubjectColumn:
        return folderLabel(entry.subject);
    case DetailColumn:
        return QString::fromUtf8(QJsonDocument(entry.detail).toJson(QJsonDocument::Compact));
    }
    return {};
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time (UTC)");
    case ActorColumn:
        return tr("Actor");
    case KindColumn:
        return tr("Kind");
    case SubjectColumn:
        return tr("Subject");
    case DetailColumn:
        return tr("Detail");
    }
    return {};
}

} // namespace arizuko::models
