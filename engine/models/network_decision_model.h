#pragma once

// One turn's proxy decisions, one row per request: time, host, port,
// allowed, denied or failed (and whether the user was asked while it
// waited, with the answer), the reason and the bytes it moved (filled in
// when the proxy reports the connection closed).

#include <QAbstractTableModel>
#include <QJsonObject>

namespace arizuko::models {

// How the proxy ended a request: let through; refused by the folder's
// policy (the host is not allowed, is denied, or is a private address) or
// by the person asked about it (denied, not answered, too many questions); or
// allowed and then failed (no address, no connection, a bad reply, a bad
// request). A failure is not a denial: a rule would not change it.
enum class EgressOutcome { Allowed, Refused, Failed };
EgressOutcome egressOutcome(const QString &decision, const QString &reason);
// The host is on no allow entry of the folder (refused at once, or asked
// about and not allowed).
bool onNoAllowEntry(const QString &reason);

class NetworkDecisionModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,
        HostColumn,
        PortColumn,
        DecisionColumn,
        ReasonColumn,
        BytesColumn,
        ColumnCount
    };
    // AllowableRole: refused because the folder does not allow the host, so
    // an allow rule for the folder would let the request through.
    // AskedRole: the request waited while the user was asked about it.
    enum DataRole
    {
        AllowableRole = Qt::UserRole,
        HostRole,
        AskedRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    void clear();
    // A proxy log line (a `network` event): a `decision` adds a row, a
    // `close` completes the latest open row for the same host and port.
    void addDecisions(const QList<QJsonObject> &lines);
    // Lines logged before all those added so far (a long turn's earlier
    // page): their rows go first, and a close already added that found no
    // row completes one of theirs.
    void prependDecisions(const QList<QJsonObject> &lines);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString time;
        QString host;
        int port = 0;
        bool allowed = false;
        EgressOutcome outcome = EgressOutcome::Refused;
        QString reason;
        bool asked = false;
        QString answer; // once, turn or deny; '' when none came
        qint64 bytesUp = -1;
        qint64 bytesDown = -1;
    };
    // A `close` line's figures.
    struct Close
    {
        QString host;
        int port = 0;
        qint64 bytesUp = 0;
        qint64 bytesDown = 0;
    };
    static Row decisionRow(const QJsonObject &line);
    static Close closeOf(const QJsonObject &line);
    // Completes the latest open row of rows[0, end) for the close's host
    // and port: its index, or -1.
    static qsizetype complete(QList<Row> &rows, qsizetype end, const Close &close);

    QList<Row> m_rows;
    // Closes, oldest first, that found no row: theirs may be on a page not
    // added yet.
    QList<Close> m_unmatched;
};

} // namespace arizuko::models
