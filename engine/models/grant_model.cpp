#include "models/grant_model.h"

#include "models/model_work.h"
#include "policy/action.h"
#include "policy/policy.h"

namespace arizuko::models {

GrantModel::GrantModel(store::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
}

GrantModel::~GrantModel() = default;

void GrantModel::setFolder(const QString &folder)
{
    m_folder = folder;
    reload();
}

Result<QList<policy::Grant>> GrantModel::read(store::Store &store, const QString &folder)
{
    return policy::Policy(store).grants().list(folder);
}

void GrantModel::reload()
{
    m_read.start(
        this, m_store, [folder = m_folder](store::Store &store) { return read(store, folder); },
        [this](QList<policy::Grant> listed) { apply(std::move(listed)); });
}

void GrantModel::apply(QList<policy::Grant> grants)
{
    beginResetModel();
    m_grants = std::move(grants);
    endResetModel();
    emit reloaded();
}

Result<void> GrantModel::validate(const policy::Grant &grant)
{
    return policy::validateGrant(grant);
}

Result<policy::GrantParams> GrantModel::parseParams(const QString &text)
{
    policy::GrantParams params;
    for (const QString &pair : text.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals <= 0)
            return makeError(
                QStringLiteral("desktop.bad-params"),
                QStringLiteral("'%1' is not NAME=GLOB; write e.g. jid=telegram:*").arg(pair));
        params.insert(pair.first(equals), pair.sliced(equals + 1));
    }
    return params;
}

QString GrantModel::paramsText(const policy::GrantParams &params)
{
    QStringList pairs;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        pairs << it.key() + u'=' + it.value();
    return pairs.join(u' ');
}

QString GrantModel::broadReason(const policy::Grant &grant)
{
    if (grant.effect == policy::Effect::Deny)
        return {}; // a deny only ever takes away
    QStringList reasons;
    if (grant.action == u"*")
        reasons << tr("action * is every action, admin included");
    if (grant.action == policy::kEgressAction)
        reasons << tr("egress lets the turn reach every host the rules do not deny");
    if (grant.scope == u"**")
        reasons << tr("scope ** is every folder");
    if (grant.principal.contains(u'*'))
        reasons << tr("principal %1 is many folders").arg(grant.principal);
    if (const QString key = policy::shellEnvKey(grant.action); !key.isEmpty())
        reasons << shellEnvWarning(key);
    return reasons.join(u"; ");
}

QString GrantModel::shellEnvWarning(const QString &key)
{
    return tr("%1 enters the agent's environment in the guest: its value leaves the host's "
              "control (the agent can send it to any host the allowlist allows); a connector "
              "keeps the key on the host and calls the API for the agent")
        .arg(key);
}

void GrantModel::add(const policy::Grant &grant, std::function<void(Result<policy::Grant>)> done)
{
    changeThenReload(
        this, m_store,
        [grant](store::Store &store) {
            return policy::Policy(store).grants().add(grant, actor.toString());
        },
        std::move(done));
}

void GrantModel::removeGrant(int row, std::function<void(Result<void>)> done)
{
    if (row < 0 || row >= m_grants.size()) {
        done(makeError(QStringLiteral("desktop.no-row"), QStringLiteral("No grant is selected.")));
        return;
    }
    changeThenReload(
        this, m_store,
        [id = m_grants.at(row).id](store::Store &store) {
            return withoutValue(policy::Policy(store).grants().remove(id, actor.toString()));
        },
        std::move(done));
}

int GrantModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_grants.size());
}

int GrantModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GrantModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const policy::Grant &grant = m_grants.at(index.row());
    if (role == IdRole)
        return grant.id;
    if (role == Qt::ToolTipRole)
        return policy::describeGrant(grant);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case IdColumn:
        return grant.id;
    case EffectColumn:
        return policy::effectName(grant.effect);
    case PrincipalColumn:
        return grant.principal;
    case ActionColumn:
        return grant.action;
    case ScopeColumn:
        return grant.scope;
    case ParamsColumn:
        return paramsText(grant.params);
    case GrantOptionColumn:
        return grant.grantOption ? tr("yes") : tr("no");
    case GrantedByColumn:
        return grant.grantedBy;
    }
    return {};
}

QVariant GrantModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn:
        return tr("#");
    case EffectColumn:
        return tr("Effect");
    case PrincipalColumn:
        return tr("Principal");
    case ActionColumn:
        return tr("Action");
    case ScopeColumn:
        return tr("Scope");
    case ParamsColumn:
        return tr("Params");
    case GrantOptionColumn:
        return tr("May delegate");
    case GrantedByColumn:
        return tr("Granted by");
    }
    return {};
}

} // namespace arizuko::models
