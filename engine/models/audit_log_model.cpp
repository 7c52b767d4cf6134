#include "models/audit_log_model.h"

#include "models/network_rule_model.h"
#include "store/timestamp.h"

#include <QJsonDocument>
#include <algorithm>

namespace arizuko::models {

AuditLogModel::AuditLogModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
}

Result<AuditLogModel::Page> AuditLogModel::read(store::Store &store, const audit::Query &query)
{
    const audit::AuditLog log(store);
    Result<QList<audit::Entry>> entries = log.query(query);
    if (!entries)
        return entries.error();
    Page page{std::move(*entries), 0};
    if (!page.entries.isEmpty()) {
        page.lastId = page.entries.last().id;
    } else if (query.afterId == 0) {
        // Nothing matched yet: start live updates after the newest row of all.
        audit::Query newest;
        newest.limit = 1;
        if (const auto last = log.query(newest); last && !last->isEmpty())
            page.lastId = last->last().id;
    }
    return page;
}

QString AuditLogModel::since(int seconds)
{
    return store::timestamp(QDateTime::currentDateTimeUtc().addSecs(-seconds));
}

void AuditLogModel::setFilter(const audit::Query &filter)
{
    m_filter = filter;
    m_filter.afterId = 0;
    m_filter.limit = maxRows;
    m_read.start(
        this, m_store, [query = m_filter](store::Store &store) { return read(store, query); },
        [this](Page page) { apply(std::move(page)); });
}

void AuditLogModel::apply(Page page)
{
    beginResetModel();
    m_entries = std::move(page.entries);
    m_lastId = page.lastId;
    endResetModel();
    emit reloaded();
}

void AuditLogModel::poll()
{
    if (m_read.pending())
        return;
    audit::Query query = m_filter;
    query.afterId = m_lastId;
    m_read.start(
        this, m_store, [query](store::Store &store) { return read(store, query); },
        [this](Page page) { append(std::move(page)); });
}

void AuditLogModel::append(Page page)
{
    if (page.entries.isEmpty()) {
        m_lastId = std::max(m_lastId, page.lastId);
        return;
    }
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(page.entries.size()) - 1);
    m_entries += page.entries;
    m_lastId = m_entries.last().id;
    endInsertRows();
    if (m_entries.size() > maxRows) {
        const int excess = int(m_entries.size()) - maxRows;
        beginRemoveRows({}, 0, excess - 1);
        m_entries.remove(0, excess);
        endRemoveRows();
    }
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
