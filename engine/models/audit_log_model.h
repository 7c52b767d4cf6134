#pragma once

// The audit log filtered by kind, subject (a folder) and time, newest rows
// appended as poll() finds them, so a viewer stays live without re-reading.
// Both read on a worker (read() there, apply() or append() here).

#include "audit/audit_log.h"
#include "models/model_work.h"

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

    struct Page
    {
        QList<audit::Entry> entries;
        // Where poll() goes on from: the last entry's id, or with none the
        // newest id of the whole log, so a poll never re-reads it all.
        qint64 lastId = 0;
    };

    // Replaces the rows with the newest ones matching filter once they are
    // read; a read or poll still under way is dropped.
    void setFilter(const audit::Query &filter);
    // Appends rows written since the last read (by any process), in one
    // insert; nothing while a read is under way.
    void poll();
    const audit::Query &filter() const { return m_filter; }
    // A filter's `since` for the entries of the last `seconds`.
    static QString since(int seconds);

    // The newest entries matching query (any thread), for apply().
    static Result<Page> read(store::Store &store, const audit::Query &query);
    void apply(Page page);
    void append(Page page);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // After setFilter()'s rows are shown.
    void reloaded();
    void failed(const Error &error);

private:
    store::Store &m_store;
    LatestRead m_read;
    audit::Query m_filter;
    QList<audit::Entry> m_entries;
    qint64 m_lastId = 0;
};

} // namespace arizuko::models
