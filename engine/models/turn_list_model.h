#pragma once

// The turns of one topic, oldest first: state, prompt, times, tokens and
// cost. reload() reads the store again; rows that changed are signalled as
// changed, new turns as inserted, so a view does not jump.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QAbstractTableModel>

namespace arizuko::store {
class Store;
}

namespace arizuko::models {

class TurnListModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, StateColumn, PromptColumn, DurationColumn, CostColumn, ColumnCount };
    enum DataRole { IdRole = Qt::UserRole, StateRole, RecordRole };

    explicit TurnListModel(store::Store &store, QObject *parent = nullptr);

    void setTopic(const QString &folder, const QString &topic);
    Result<void> reload();
    const turns::TurnRecord &record(int row) const { return m_turns.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    store::Store &m_store;
    QString m_folder;
    QString m_topic;
    QList<turns::TurnRecord> m_turns;
};

// A turn state as the window shows it ("running", in the user's language);
// turns::turnStateName is the stored, untranslated name.
QString turnStateText(turns::TurnState state);
// "41.2 s", from a turn's queued and ended times (empty while it runs).
QString turnDuration(const turns::TurnRecord &record);
// "1,234 in · 56 out · $0.0031", from what the gateway counted.
QString turnUsage(const turns::TurnRecord &record);

} // namespace arizuko::models
