#pragma once

// The audit log filtered by kind, subject (a folder) and time, newest rows
// appended as poll() finds them, so a viewer stays live without re-reading.

#include "audit/audit_log.h"

#include <QAbstractTableModel>

namespace arizuko::models {

class AuditLogModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { TimeColumn, ActorColumn, KindColumn, SubjectColumn, DetailColumn, ColumnCount };
    enum DataRole { IdRole = Qt::UserRole };

    // The newest this many matching rows are shown.
    static constexpr int maxRows = 1000;

    explicit AuditLogModel(store::Store &store, QObject *parent = nullptr);

    // Replaces the rows with the newest ones matching filter.
    Result<void> setFilter(const audit::Query &filter);
    // Appends rows written since the last read (by any process), in one insert.
    Result<void> poll();
    const audit::Query &filter() const { return m_filter; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    audit::AuditLog m_log;
    audit::Query m_filter;
    QList<audit::Entry> m_entries;
    qint64 m_lastId = 0;
};

} // namespace arizuko::models
