#pragma once

// The egress ledger as a table, newest first: the rows a filter (a turn, a
// folder, every folder; a decision; a time) matches, read a page at a time
// on a worker by keyset paging (ledger::Ledger::page), the next page when
// the view scrolls to the end (fetchMore), so a million-row ledger costs
// the window what a page does.

#include "ledger/ledger.h"
#include "models/model_work.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace arizuko::models {

class LedgerModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The cells of ledger::ledgerTableRow, which arizukoctl's table prints.
    enum Column
    {
        TimeColumn,
        TurnColumn,
        SourceColumn,
        MethodColumn,
        HostColumn,
        PathColumn,
        StatusColumn,
        DecisionColumn,
        ReasonColumn,
        RuleColumn,
        UpColumn,
        DownColumn,
        DurationColumn,
        ColumnCount
    };
    enum DataRole
    {
        IdRole = Qt::UserRole,
        DecisionRole,
        HostRole
    };

    static constexpr int pageRows = 200;

    explicit LedgerModel(store::Store &store, QObject *parent = nullptr);

    struct Row
    {
        ledger::LedgerEntry entry;
        QStringList cells;
    };

    // Replaces the rows with the newest page matching filter (its paging
    // fields ignored) once read; a read still under way is dropped.
    void setFilter(const ledger::LedgerFilter &filter);
    const ledger::LedgerFilter &filter() const { return m_filter; }
    // A read is under way.
    bool loading() const { return m_read.pending(); }

    // The page of filter (any thread), its cells made there too.
    static Result<QList<Row>> read(store::Store &store, const ledger::LedgerFilter &filter);

    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // setFilter()'s first page is shown.
    void reloaded();
    // A later page is appended (fetchMore()).
    void pageAdded();
    void failed(const Error &error);

private:
    void append(QList<Row> rows);

    store::Store &m_store;
    LatestRead m_read;
    ledger::LedgerFilter m_filter;
    QList<Row> m_rows;
    // The last page was full: there may be older rows.
    bool m_more = false;
};

} // namespace arizuko::models
