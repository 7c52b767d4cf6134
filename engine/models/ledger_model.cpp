#include "models/ledger_model.h"

#include "ledger/ledger_format.h"

namespace arizuko::models {

LedgerModel::LedgerModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{}

Result<QList<LedgerModel::Row>> LedgerModel::read(store::Store &store,
                                                  const ledger::LedgerFilter &filter)
{
    Result<QList<ledger::LedgerEntry>> entries = ledger::Ledger(store).page(filter);
    if (!entries)
        return entries.error();
    QList<Row> rows;
    rows.reserve(entries->size());
    for (ledger::LedgerEntry &entry : *entries) {
        QStringList cells = ledger::ledgerTableRow(entry);
        rows.append({std::move(entry), std::move(cells)});
    }
    return rows;
}

void LedgerModel::setFilter(const ledger::LedgerFilter &filter)
{
    m_filter = filter;
    m_filter.oldestFirst = false;
    m_filter.afterId = 0;
    m_filter.beforeId = 0;
    m_filter.limit = pageRows;
    m_read.start(
        this, m_store, [query = m_filter](store::Store &store) { return read(store, query); },
        [this](QList<Row> rows) {
            beginResetModel();
            m_rows = std::move(rows);
            m_more = m_rows.size() == pageRows;
            endResetModel();
            emit reloaded();
        });
}

bool LedgerModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_more && !m_read.pending();
}

void LedgerModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    ledger::LedgerFilter query = m_filter;
    query.beforeId = m_rows.last().entry.id;
    m_read.start(
        this, m_store, [query](store::Store &store) { return read(store, query); },
        [this](QList<Row> rows) { append(std::move(rows)); });
}

void LedgerModel::append(QList<Row> rows)
{
    m_more = rows.size() == pageRows;
    if (!rows.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(rows.size()) - 1);
        m_rows += std::move(rows);
        endInsertRows();
    }
    emit pageAdded();
}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return row.cells.value(index.column());
    case Qt::ToolTipRole:
        // The whole turn id, where the cell shows its start.
        return index.column() == TurnColumn ? row.entry.turn : row.cells.value(index.column());
    case IdRole:
        return row.entry.id;
    case DecisionRole:
        return row.entry.decision;
    case HostRole:
        return row.entry.host;
    }
    return {};
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time (UTC)");
    case TurnColumn:
        return tr("Turn");
    case SourceColumn:
        return tr("Source");
    case MethodColumn:
        return tr("Method");
    case HostColumn:
        return tr("Host");
    case PathColumn:
        return tr("Path");
    case StatusColumn:
        return tr("Status");
    case DecisionColumn:
        return tr("Decision");
    case ReasonColumn:
        return tr("Reason");
    case RuleColumn:
        return tr("Rule");
    case UpColumn:
        return tr("Sent");
    case DownColumn:
        return tr("Received");
    case DurationColumn:
        return tr("ms");
    }
    return {};
}

} // namespace arizuko::models
