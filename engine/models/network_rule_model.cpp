#include "models/network_rule_model.h"

#include "models/model_work.h"
#include "policy/egress_command_line.h"
#include "policy/host_name.h"
#include "policy/policy.h"

namespace arizuko::models {

QString folderLabel(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("'' (base)") : folder;
}

NetworkRuleModel::NetworkRuleModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
}

NetworkRuleModel::~NetworkRuleModel() = default;

void NetworkRuleModel::setFolder(const QString &folder)
{
    m_folder = folder;
    reload();
}

Result<policy::NetworkPolicy> NetworkRuleModel::read(store::Store &store, const QString &folder)
{
    return policy::Policy(store).network().resolve(folder);
}

void NetworkRuleModel::reload()
{
    m_read.start(
        this, m_store, [folder = m_folder](store::Store &store) { return read(store, folder); },
        [this](policy::NetworkPolicy resolved) { apply(std::move(resolved)); });
}

void NetworkRuleModel::apply(policy::NetworkPolicy policy)
{
    beginResetModel();
    m_policy = std::move(policy);
    endResetModel();
    emit reloaded();
}

Result<QString> NetworkRuleModel::acceptedForm(const QString &input)
{
    return policy::normalizeRuleTarget(input);
}

void NetworkRuleModel::add(const QString &host, policy::RuleKind kind,
                           std::function<void(Result<policy::AddedRule>)> done)
{
    changeThenReload(
        this, m_store,
        [folder = m_folder, host, kind](store::Store &store) {
            return policy::Policy(store).network().add(folder, host, kind, actor.toString());
        },
        std::move(done));
}

void NetworkRuleModel::removeRule(int row, std::function<void(Result<void>)> done)
{
    if (row < 0 || row >= m_policy.rules.size()) {
        done(makeError(QStringLiteral("desktop.no-row"), QStringLiteral("No rule is selected.")));
        return;
    }
    const policy::NetworkRule rule = m_policy.rules.at(row);
    if (rule.folder != m_folder) {
        done(makeError(QStringLiteral("desktop.inherited-rule"),
                       QStringLiteral("'%1' belongs to %2: remove it there.")
                           .arg(policy::ruleText(rule), folderLabel(rule.folder))));
        return;
    }
    changeThenReload(
        this, m_store,
        [folder = m_folder, rule](store::Store &store) {
            return withoutValue(policy::Policy(store).network().remove(
                folder, rule.target, rule.kind, actor.toString(), rule.methods, rule.path));
        },
        std::move(done));
}

Result<policy::HostVerdict> NetworkRuleModel::test(const QString &host) const
{
    return policy::testHost(m_policy, m_folder, host);
}

QStringList NetworkRuleModel::proxyArguments() const
{
    policy::EgressCommandLine options;
    options.listenAddress = QStringLiteral("<turn address>:0");
    options.client = QStringLiteral("<guest address>");
    options.allow = m_policy.allow;
    options.deny = m_policy.deny;
    options.allowAll = m_policy.allowAll;
    options.rules = policy::proxyRequestRules(m_policy);
    return policy::egressArguments(options);
}

int NetworkRuleModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_policy.rules.size());
}

int NetworkRuleModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NetworkRuleModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const policy::NetworkRule &rule = m_policy.rules.at(index.row());
    const bool own = rule.folder == m_folder;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KindColumn:
            return policy::ruleKindName(rule.kind);
        case MethodsColumn:
            return rule.methods;
        case HostColumn:
            return rule.target;
        case PathColumn:
            return rule.path;
        case FromColumn:
            return own ? tr("this folder") : tr("inherited from %1").arg(folderLabel(rule.folder));
        case ByColumn:
            return rule.createdBy;
        case CreatedColumn:
            return rule.createdAt;
        }
        return {};
    case Qt::ToolTipRole:
        return own ? tr("A rule of this folder; remove it here.")
                   : tr("Inherited from %1: change it there.").arg(folderLabel(rule.folder));
    case OwnRole:
        return own;
    case KindRole:
        return int(rule.kind);
    case TargetRole:
        return rule.target;
    }
    return {};
}

QVariant NetworkRuleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Rule");
    case MethodsColumn:
        return tr("Methods");
    case HostColumn:
        return tr("Host");
    case PathColumn:
        return tr("Path");
    case FromColumn:
        return tr("From");
    case ByColumn:
        return tr("By");
    case CreatedColumn:
        return tr("Created");
    }
    return {};
}

} // namespace arizuko::models
