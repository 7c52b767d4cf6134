#pragma once

// The network rules that apply to one folder: its own (editable) and those it
// inherits (read-only, each naming its folder), with the answers the engine
// gives about them: a host test and the lists the next turn's proxy receives.

#include "core/actors.h"
#include "core/result.h"
#include "policy/network_rules.h"

#include <QAbstractTableModel>
#include <memory>

namespace arizuko::store {
class Store;
}
namespace arizuko::policy {
class Policy;
}

namespace arizuko::models {

class NetworkRuleModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { KindColumn, HostColumn, FromColumn, ByColumn, CreatedColumn, ColumnCount };
    enum DataRole { OwnRole = Qt::UserRole, KindRole, TargetRole };

    // The editor writes as this actor; the audit log names it.
    static constexpr QLatin1String actor = actors::gui;

    explicit NetworkRuleModel(store::Store &store, QObject *parent = nullptr);
    ~NetworkRuleModel() override;

    QString folder() const { return m_folder; }
    Result<void> setFolder(const QString &folder);
    // Re-reads the rules, e.g. when another process changed them.
    Result<void> reload();

    // What a typed host would be stored as, or why it cannot be a rule:
    // the engine's own validation (policy::normalizeRuleTarget).
    static Result<QString> acceptedForm(const QString &input);

    Result<policy::AddedRule> add(const QString &host, policy::RuleKind kind);
    // Only the folder's own rows can be removed.
    Result<void> removeRule(int row);
    // What the folder's turn proxy would do with host, and which rule decided.
    Result<policy::HostVerdict> test(const QString &host);
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

private:
    store::Store &m_store;
    std::unique_ptr<policy::Policy> m_engine;
    QString m_folder;
    policy::NetworkPolicy m_policy;
};

QString folderLabel(const QString &folder);

} // namespace arizuko::models
