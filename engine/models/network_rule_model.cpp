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

Result<policy::NetworkRule> NetworkRuleModel::acceptedRule(policy::RuleKind kind,
                                                           const QString &host,
                                                           const QString &methods,
                                                           const QString &path)
{
    const Result<QString> target = policy::normalizeRuleTarget(host);
    if (!target)
        return target.error();
    const Result<policy::RequestMatch> match = policy::normalizeRequestMatch(methods, path);
    if (!match)
        return match.error();
    policy::NetworkRule rule;
    rule.target = *target;
    rule.kind = kind;
    rule.methods = match->methods;
    rule.path = match->path;
    return rule;
}

namespace {

Result<policy::AddedRule> addStoredRule(store::Store &store, const QString &folder,
                                        const policy::NetworkRule &wanted)
{
    return policy::Policy(store).network().add(folder, wanted.target, wanted.kind,
                                               NetworkRuleModel::actor.toString(), wanted.methods,
                                               wanted.path);
}

Result<QList<policy::NetworkRule>> removeStoredRule(store::Store &store, const QString &folder,
                                                    const policy::NetworkRule &rule)
{
    return policy::Policy(store).network().remove(folder, rule.target, rule.kind,
                                                  NetworkRuleModel::actor.toString(), rule.methods,
                                                  rule.path);
}

// Only the folder's own rules are changed here; `verb` says what the user
// would do in the rule's own folder instead.
Result<void> requireOwn(const policy::NetworkRule &rule, const QString &folder, const QString &verb)
{
    if (rule.folder == folder)
        return {};
    return makeError(QStringLiteral("desktop.inherited-rule"),
                     QStringLiteral("'%1' belongs to %2: %3 it there.")
                         .arg(policy::ruleText(rule), folderLabel(rule.folder), verb));
}

} // namespace

void NetworkRuleModel::add(const policy::NetworkRule &wanted,
                           std::function<void(Result<policy::AddedRule>)> done)
{
    changeThenReload(
        this, m_store,
        [folder = m_folder, wanted](store::Store &store) {
            return addStoredRule(store, folder, wanted);
        },
        std::move(done));
}

void NetworkRuleModel::replace(const policy::NetworkRule &old, const policy::NetworkRule &wanted,
                               std::function<void(Result<policy::AddedRule>)> done)
{
    if (const Result<void> own = requireOwn(old, m_folder, QStringLiteral("change")); !own) {
        done(own.error());
        return;
    }
    changeThenReload(
        this, m_store,
        [folder = m_folder, old, wanted](store::Store &store) -> Result<policy::AddedRule> {
            auto added = addStoredRule(store, folder, wanted);
            // Unchanged (the same row came back): nothing to remove.
            if (!added || added->rule.id == old.id)
                return added;
            const auto removed = removeStoredRule(store, folder, old);
            if (!removed)
                return makeError(removed.error().code,
                                 QStringLiteral("'%1' was added, but '%2' is still in force: %3")
                                     .arg(policy::ruleText(added->rule), policy::ruleText(old),
                                          removed.error().message));
            return added;
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
    if (const Result<void> own = requireOwn(rule, m_folder, QStringLiteral("remove")); !own) {
        done(own.error());
        return;
    }
    changeThenReload(
        this, m_store,
        [folder = m_folder, rule](store::Store &store) {
            return withoutValue(removeStoredRule(store, folder, rule));
        },
        std::move(done));
}

Result<policy::HostVerdict> NetworkRuleModel::test(const QString &host) const
{
    return policy::testHost(m_policy, m_folder, host);
}

Result<policy::RequestVerdict>
NetworkRuleModel::testRequest(const QString &method, const QString &host, const QString &path) const
{
    const QString name = method.trimmed();
    // One name, spelt as a rule's methods are: not a list and not '*'.
    if (!name.isEmpty()) {
        const Result<policy::RequestMatch> match =
            policy::normalizeRequestMatch(name, QStringLiteral("/"));
        if (!match || match->methods.contains(u',') || match->methods == u"*")
            return makeError(
                QStringLiteral("desktop.bad-method"),
                QStringLiteral("'%1' is not a method: write one name such as GET").arg(method));
    }
    return policy::testRequest(m_policy, m_folder, name, host, path);
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
