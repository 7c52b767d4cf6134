#include "tools/turn_tools.h"

#include "audit/audit_log.h"
#include "connectors/connector_broker.h"
#include "connectors/connector_catalogue.h"
#include "connectors/connector_request.h"
#include "core/actors.h"
#include "core/run_on_worker.h"
#include "folders/folder_names.h"
#include "folders/folders.h"
#include "policy/action.h"
#include "policy/call_params.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "store/store_work.h"
#include "store/timestamp.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonValue>
#include <atomic>

namespace arizuko::tools {
namespace {

const QString turnStartedKind = QStringLiteral("tools.turn-started");

std::atomic<ShellSecretsReadHook> shellSecretsReadHook{nullptr};

struct ShellSecrets
{
    QJsonObject environment;
    QStringList given;
    QStringList missing; // granted, but no folder up the tree holds it
};

// On a worker: each key's value for `folder`, from the nearest folder up
// the tree that holds it.
Result<ShellSecrets> readShellSecrets(store::Store &store, const QString &folder,
                                      const QStringList &keys)
{
    if (const ShellSecretsReadHook hook = shellSecretsReadHook)
        hook();
    auto secrets = secrets::SecretStore::open(store, actors::shellEnv);
    if (!secrets)
        return secrets.error();
    ShellSecrets read;
    for (const QString &key : keys) {
        const auto value = connectors::resolveFolderSecret(**secrets, folder, key);
        if (!value) {
            read.missing << key;
            continue;
        }
        read.environment.insert(key, QString::fromUtf8(*value));
        read.given << key;
    }
    return read;
}

bool isBelow(const QString &folder, const QString &ancestor)
{
    return folder.startsWith(ancestor + QLatin1Char('/'));
}

// The arguments as the tool will act on them: each string normalised once,
// by the same function the grants match with, so no spelling of a host
// (case, trailing dot, `*.`, spaces) decides differently from what is done.
Result<QJsonObject> normalizedArguments(const QJsonObject &arguments)
{
    QJsonObject normalized = arguments;
    for (auto it = normalized.begin(); it != normalized.end(); ++it) {
        if (!it.value().isString())
            continue;
        const auto value = policy::normalizeCallParam(it.key(), it.value().toString());
        if (!value)
            return value.error();
        it.value() = *value;
    }
    return normalized;
}

// The params of a connector operation that its service compares without case.
policy::CaseInsensitiveParams caseInsensitiveParams(const connectors::Operation *operation)
{
    policy::CaseInsensitiveParams names;
    if (!operation)
        return names;
    for (const connectors::Parameter &parameter : operation->parameters) {
        if (parameter.caseInsensitive)
            names.insert(parameter.name);
    }
    return names;
}

// A connector operation as the agent sees it: its description says that
// the host makes the call, to which service, and what it does.
ToolSpec connectorTool(const connectors::Connector &connector,
                       const connectors::Operation &operation)
{
    return {operation.tool,
            QStringLiteral("%1 (%2 %3 on %4, called by the host with the folder's key; the key "
                           "is never shown to you)")
                .arg(operation.description, QString::fromLatin1(operation.method), operation.path,
                     connector.baseUrl.host()),
            connectors::inputSchema(operation), ToolTarget::OwnFolder};
}

} // namespace

TurnTools::TurnTools(store::Store &store, TurnBinding binding, QueueTurn queue, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_policy(store)
    , m_binding(std::move(binding))
    , m_queue(std::move(queue))
    , m_startTurn([this](const TurnOrder &order) { return startTurn(order); })
    , m_connectors(std::make_unique<connectors::ConnectorCatalogue>(
          connectors::ConnectorCatalogue::load(store.dataDir())))
    , m_broker(new connectors::ConnectorBroker(store, this))
{
    connect(m_broker, &connectors::ConnectorBroker::called, this, &TurnTools::connectorCalled);
    for (const QString &error : m_connectors->errors())
        qWarning("connector definition left out: %s", qPrintable(error));
    for (const connectors::Connector &connector : m_connectors->connectors()) {
        for (const connectors::Operation &operation : connector.operations) {
            // A catalogue tool keeps its name: a connector cannot shadow it.
            if (!findTool(operation.tool))
                m_connectorTools << connectorTool(connector, operation);
        }
    }
}

TurnTools::~TurnTools() = default;

void setShellSecretsReadHook(ShellSecretsReadHook hook)
{
    shellSecretsReadHook = hook;
}

void TurnTools::readShellEnvironment(ShellEnvironmentRead read)
{
    const auto keys = grantedShellKeys();
    if (!keys) {
        auditShellEnvironmentFailure(keys.error());
        return read({});
    }
    if (keys->isEmpty())
        return read({});
    // The hold keeps the store open while the keyring makes the worker
    // wait, should the engine go meanwhile (store/store_work.h).
    const auto readSecrets = [hold = store::StoreWork(m_store), folder = m_binding.folder,
                              keys = *keys] {
        return readShellSecrets(hold.store(), folder, keys);
    };
    runOnWorker(
        this, readSecrets, [this, read = std::move(read)](const Result<ShellSecrets> &secrets) {
            if (!secrets) {
                auditShellEnvironmentFailure(secrets.error());
                return read({});
            }
            const QString &folder = m_binding.folder;
            // Nothing enters that the audit does not name.
            if (const auto recorded = audit::AuditLog(m_store).record(
                    folder, QStringLiteral("shell-env.granted"), folder,
                    {{QStringLiteral("turn"), m_binding.turnId},
                     {QStringLiteral("keys"), QJsonArray::fromStringList(secrets->given)},
                     {QStringLiteral("missing"), QJsonArray::fromStringList(secrets->missing)}});
                !recorded) {
                auditShellEnvironmentFailure(recorded.error());
                return read({});
            }
            read(secrets->environment);
        });
}

void TurnTools::auditShellEnvironmentFailure(const Error &error)
{
    if (const auto recorded = audit::AuditLog(m_store).record(
            m_binding.folder, QStringLiteral("shell-env.failed"), m_binding.folder,
            {{QStringLiteral("turn"), m_binding.turnId}, {QStringLiteral("error"), error.code}});
        !recorded)
        qWarning("shell-env.failed not audited: %s", qPrintable(recorded.error().message));
}

bool TurnTools::grantsShellEnvironment()
{
    const auto keys = grantedShellKeys();
    return !keys || !keys->isEmpty();
}

Result<QStringList> TurnTools::grantedShellKeys()
{
    const QString &folder = m_binding.folder;
    const auto rows = m_policy.grants().list(folder);
    if (!rows)
        return rows.error();
    QStringList keys;
    for (const policy::Grant &grant : *rows) {
        const QString key = policy::shellEnvKey(grant.action);
        if (key.isEmpty() || grant.effect != policy::Effect::Allow || keys.contains(key))
            continue;
        // A deny row, or an allow on another folder only, keeps it out.
        const auto decision =
            m_policy.grants().authorize(folder, QStringLiteral("shell:env:") + key, folder);
        if (!decision)
            return decision.error();
        if (decision->allowed)
            keys << key;
    }
    return keys;
}

const ToolSpec *TurnTools::spec(const QString &name) const
{
    if (const ToolSpec *tool = findTool(name))
        return tool;
    for (const ToolSpec &tool : m_connectorTools) {
        if (tool.name == name)
            return &tool;
    }
    return nullptr;
}

QString TurnTools::actionOf(const QString &name) const
{
    if (findTool(name))
        return toolAction(name);
    return m_connectors->find(name).operation->scope;
}

Result<QString> TurnTools::startTurn(const TurnOrder &order)
{
    if (m_turnsStarted >= m_binding.maxTurnsPerTurn)
        return makeError(QStringLiteral("tools.turns-per-turn"),
                         QStringLiteral("refused: this turn already started %1 turns, the most one "
                                        "turn may start (setting turns-per-turn); no further turn "
                                        "was queued")
                             .arg(m_turnsStarted));
    audit::AuditLog audit(m_store);
    audit::Query lastHour;
    lastHour.kind = turnStartedKind;
    lastHour.subject = m_binding.folder;
    lastHour.since = store::timestamp(QDateTime::currentDateTimeUtc().addSecs(-60 * 60));
    lastHour.limit = m_binding.maxTurnsPerFolderHour;
    const auto started = audit.query(lastHour);
    if (!started)
        return started.error();
    if (started->size() >= m_binding.maxTurnsPerFolderHour) {
        // The oldest of the newest `limit` entries frees the next place.
        const QDateTime freed =
            QDateTime::fromString(started->first().at, Qt::ISODateWithMs).addSecs(60 * 60);
        return makeError(
            QStringLiteral("tools.turns-per-folder-hour"),
            QStringLiteral("refused: the agents of %1 started %2 turns in the last hour, the most "
                           "a folder's agents may start (setting turns-per-folder-hour); no "
                           "further turn was queued, and none can be before %3")
                .arg(m_binding.folder)
                .arg(started->size())
                .arg(freed.toUTC().toString(Qt::ISODate)));
    }
    const auto queued = m_queue(order);
    if (!queued)
        return queued;
    ++m_turnsStarted;
    const QJsonObject detail{{QStringLiteral("turn"), *queued},
                             {QStringLiteral("by_turn"), m_binding.turnId},
                             {QStringLiteral("folder"), order.folder},
                             {QStringLiteral("topic"), order.topic},
                             {QStringLiteral("depth"), order.depth}};
    if (const auto counted =
            audit.record(m_binding.folder, turnStartedKind, m_binding.folder, detail);
        !counted)
        return makeError(QStringLiteral("tools.turn-not-counted"),
                         QStringLiteral("turn %1 was queued, but counting it against the caps "
                                        "failed: %2")
                             .arg(*queued, counted.error().message));
    return queued;
}

Result<QStringList> TurnTools::candidateScopes(const ToolSpec &tool)
{
    const QString &own = m_binding.folder;
    switch (tool.target) {
    case ToolTarget::OwnFolder:
        return QStringList{own};
    case ToolTarget::ParentFolder: {
        const QString parent = folders::parentFolder(own);
        return parent.isEmpty() ? QStringList{} : QStringList{parent};
    }
    case ToolTarget::Subfolder:
    case ToolTarget::OtherFolder:
        break;
    }
    const auto folders = folders::Folders(m_store, own).list();
    if (!folders)
        return folders.error();
    QStringList scopes;
    for (const folders::Folder &folder : *folders) {
        if (tool.target == ToolTarget::Subfolder ? isBelow(folder.path, own) : folder.path != own)
            scopes << folder.path;
    }
    return scopes;
}

Result<QList<const ToolSpec *>> TurnTools::listed()
{
    QList<const ToolSpec *> all;
    for (const ToolSpec &tool : toolCatalogue())
        all << &tool;
    for (const ToolSpec &tool : m_connectorTools)
        all << &tool;
    QList<const ToolSpec *> visible;
    for (const ToolSpec *toolPointer : std::as_const(all)) {
        const ToolSpec &tool = *toolPointer;
        const auto scopes = candidateScopes(tool);
        if (!scopes)
            return scopes.error();
        for (const QString &scope : *scopes) {
            const auto actions =
                m_policy.grants().effectiveActions(m_binding.folder, scope, {actionOf(tool.name)});
            if (!actions)
                return actions.error();
            if (!actions->isEmpty()) {
                visible << &tool;
                break;
            }
        }
    }
    return visible;
}

Result<QString> TurnTools::callScope(const ToolSpec &tool, const QJsonObject &arguments)
{
    const QString &own = m_binding.folder;
    switch (tool.target) {
    case ToolTarget::OwnFolder:
        return own;
    case ToolTarget::ParentFolder:
        if (folders::parentFolder(own).isEmpty())
            return makeError(QStringLiteral("tools.no-parent"),
                             QStringLiteral("%1 is a top-level folder: it has no parent").arg(own));
        return folders::parentFolder(own);
    case ToolTarget::Subfolder:
    case ToolTarget::OtherFolder:
        break;
    }
    const auto folder = stringArgument(arguments, QStringLiteral("folder"));
    if (!folder)
        return folder.error();
    if (const Result<void> valid = folders::validateFolderPath(*folder); !valid)
        return valid.error();
    if (tool.target == ToolTarget::Subfolder && !isBelow(*folder, own))
        return makeError(QStringLiteral("tools.not-below"),
                         QStringLiteral("%1 is not a folder below %2").arg(*folder, own));
    if (tool.target == ToolTarget::OtherFolder && *folder == own)
        return makeError(QStringLiteral("tools.own-folder"),
                         QStringLiteral("%1 is this turn's own folder").arg(own));
    const auto exists = folders::Folders(m_store, own).exists(*folder);
    if (!exists)
        return exists.error();
    if (!*exists)
        return makeError(QStringLiteral("tools.no-folder"),
                         QStringLiteral("there is no folder %1").arg(*folder));
    return *folder;
}

std::variant<QJsonObject, ToolOutcome> TurnTools::admit(const QString &name,
                                                        const QJsonObject &sent)
{
    const ToolSpec *tool = spec(name);
    if (!tool)
        return toolError(QStringLiteral("there is no tool named %1").arg(name));
    auto normalized = normalizedArguments(sent);
    if (!normalized)
        return toolError(normalized.error().message);
    // A connector's call is decided on the values its request will carry
    // (the number 7 whether sent as 7, 7.0 or "07").
    const connectors::Operation *operation =
        findTool(name) ? nullptr : m_connectors->find(name).operation;
    if (operation) {
        auto typed = connectors::typedArguments(*operation, *normalized);
        if (!typed)
            return toolError(typed.error().message);
        *normalized = std::move(*typed);
    }
    const QJsonObject &arguments = *normalized;
    const auto scope = callScope(*tool, arguments);
    if (!scope)
        return toolError(scope.error().message);
    // Grants can narrow a tool by its arguments ({"host": "*.github.com"});
    // the decision sees every one (the audit keeps only their names).
    const auto params = policy::callParamsOf(arguments);
    if (!params)
        return toolError(params.error().message);
    // The one place a tool call is allowed: live grants, audited.
    QElapsedTimer deciding;
    deciding.start();
    const auto decision = m_policy.grants().decide(m_binding.folder, actionOf(name), *scope,
                                                   *params, caseInsensitiveParams(operation));
    if (!decision)
        return toolError(QStringLiteral("refused: the grants could not be read: %1")
                             .arg(decision.error().message));
    emit callDecided(
        {{QStringLiteral("tool"), name},
         {QStringLiteral("scope"), *scope},
         {QStringLiteral("allowed"), decision->allowed},
         {QStringLiteral("reason"), decision->reason},
         {QStringLiteral("decide_us"), deciding.nsecsElapsed() / 1000},
         {QStringLiteral("grant"),
          decision->decidingGrant ? QJsonValue(decision->decidingGrant->id) : QJsonValue()}});
    if (!decision->allowed)
        return toolError(QStringLiteral("refused by the grants of %1: %2")
                             .arg(m_binding.folder, decision->reason));
    return arguments;
}

void TurnTools::call(const QString &name, const QJsonObject &sent, ToolFinished finished)
{
    const auto admitted = admit(name, sent);
    const connectors::CatalogueEntry connector =
        findTool(name) ? connectors::CatalogueEntry{} : m_connectors->find(name);
    if (const auto *refused = std::get_if<ToolOutcome>(&admitted)) {
        if (connector.operation)
            m_broker->recordRefused(connector, m_binding.folder, m_binding.turnId, refused->text);
        return finished(*refused);
    }
    const QJsonObject &arguments = std::get<QJsonObject>(admitted);
    if (connector.operation)
        return m_broker->call(connector, m_binding.folder, m_binding.turnId, arguments,
                              [finished](const connectors::ConnectorOutcome &outcome) {
                                  finished({outcome.text, outcome.isError});
                              });
    const ToolSpec &tool = *findTool(name);
    ToolContext context{m_store,
                        m_policy,
                        m_binding,
                        m_startTurn,
                        [this](const QJsonObject &message) { emit messagePosted(message); },
                        *this};
    if (tool.start)
        return tool.start(context, arguments, std::move(finished));
    finished(tool.run(context, arguments));
}

} // namespace arizuko::tools
