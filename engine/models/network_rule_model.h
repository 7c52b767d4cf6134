#pragma once

// The network rules that apply to one folder: its own (editable) and those it
// inherits (read-only, each naming its folder), with the answers the engine
// gives about them: a host test and the lists the next turn's proxy receives.
// The store is read and written on a worker (read() there, apply() here);
// reloaded() or failed() says how a read ended, a change answers its `done`.

#include "core/actors.h"
#include "core/result.h"
#include "models/model_work.h"
#include "policy/network_rules.h"

#include <QAbstractTableModel>
#include <functional>

namespace arizuko::store {
class Store;
}

namespace arizuko::models {

class NetworkRuleModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Methods and path show a rule by method and path as narrow as it is
    // (empty for a host rule, which covers every request).
    enum Column
    {
        KindColumn,
        MethodsColumn,
        HostColumn,
        PathColumn,
        FromColumn,
        ByColumn,
        CreatedColumn,
        ColumnCount
    };
    enum DataRole { OwnRole = Qt::UserRole, KindRole, TargetRole };

    // The editor writes as this actor; the audit log names it.
    static constexpr QLatin1String actor = actors::gui;

    explicit NetworkRuleModel(store::Store &store, QObject *parent = nullptr);
    ~NetworkRuleModel() override;

    QString folder() const { return m_folder; }
    // Shows folder's rules once they are read.
    void setFolder(const QString &folder);
    // Re-reads the rules, e.g. when another process changed them.
    void reload();
    // The rules that apply to folder as stored now (any thread), for apply().
    static Result<policy::NetworkPolicy> read(store::Store &store, const QString &folder);
    void apply(policy::NetworkPolicy policy);

    // What a typed rule would be stored as (target, methods and path in
    // their stored form), or why it cannot be a rule: the engine's own
    // validation (policy::normalizeRuleTarget, policy::normalizeRequestMatch).
    static Result<policy::NetworkRule> acceptedRule(policy::RuleKind kind, const QString &host,
                                                    const QString &methods, const QString &path);

    // Adds a rule to the folder shown (no methods and no path: a host rule),
    // then reloads.
    void add(const policy::NetworkRule &wanted,
             std::function<void(Result<policy::AddedRule>)> done);
    // Puts `wanted` in place of the folder's own rule `old`: the new rule is
    // added first and the old one removed after, so a refused new rule
    // leaves the old one in force (the store has no single write for both).
    // An inherited `old` is refused at once, before anything is written.
    void replace(const policy::NetworkRule &old, const policy::NetworkRule &wanted,
                 std::function<void(Result<policy::AddedRule>)> done);
    // Only the folder's own rows can be removed: another row is refused at
    // once, through `done`, before anything is written.
    void removeRule(int row, std::function<void(Result<void>)> done);
    // What the folder's turn proxy would do with host, and which rule decided,
    // over the rules shown (no store read: it answers as the host is typed).
    Result<policy::HostVerdict> test(const QString &host) const;
    // The same for one request (policy::testRequest): method is one name
    // (GET when empty), path the request's path without query (/ when empty).
    Result<policy::RequestVerdict> testRequest(const QString &method, const QString &host,
                                               const QString &path) const;
    const policy::NetworkPolicy &effective() const { return m_policy; }
    // The rule options of the proxy's command line for the next turn, built by
    // the same function a turn uses to start it; listen address and client are
    // chosen per turn, so they are shown as placeholders.
    QStringList proxyArguments() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // After every successful reload: the effective lists may have changed too.
    void reloaded();
    void failed(const Error &error);

private:
    store::Store &m_store;
    LatestRead m_read;
    QString m_folder;
    policy::NetworkPolicy m_policy;
};

QString folderLabel(const QString &folder);

} // namespace arizuko::models
