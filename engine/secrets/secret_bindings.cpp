#include "secrets/secret_bindings.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "policy/host_name.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace arizuko::secrets {
namespace {

// As SecretStore keeps it: every secret today is a folder's.
const QString folderScope = QStringLiteral("folder");
const QString placeholderMark = QStringLiteral("{}");

Error badTemplate(const QString &text, const QString &why)
{
    return makeError(QStringLiteral("secrets.bad-template"),
                     QStringLiteral("'%1' is not a header template: %2 (as in 'Authorization: "
                                    "Bearer {}')")
                         .arg(text, why));
}

QString scopeName(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("every folder")
                            : QStringLiteral("folder '%1'").arg(folder);
}

SecretBinding bindingOf(const QSqlQuery &row)
{
    SecretBinding binding;
    binding.folder = row.value(0).toString();
    binding.key = row.value(1).toString();
    binding.hosts = row.value(2).toString().split(u',');
    binding.placement.header = row.value(3).toString();
    binding.placement.value = row.value(4).toString();
    binding.placement.basic = row.value(5).toInt() == 1;
    binding.createdAt = row.value(6).toString();
    return binding;
}

const QString selectBindings =
    QStringLiteral("SELECT scope_id, key, hosts, header, template, basic, created_at FROM "
                   "secret_bindings WHERE scope_kind = '%1'")
        .arg(folderScope);

} // namespace

Result<SecretPlacement> parseHeaderTemplate(const QString &text)
{
    const qsizetype colon = text.indexOf(u':');
    if (colon < 0)
        return badTemplate(text, QStringLiteral("no ':' after the header's name"));
    SecretPlacement placement;
    placement.header = text.left(colon).trimmed();
    placement.value = text.mid(colon + 1).trimmed();
    // RFC 9110's token: what a field name may be made of.
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"));
    if (!token.match(placement.header).hasMatch())
        return badTemplate(text, QStringLiteral("'%1' is not a header name").arg(placement.header));
    const QString lower = placement.header.toLower();
    static const QStringList framing = {
        QStringLiteral("host"),       QStringLiteral("content-length"),
        QStringLiteral("connection"), QStringLiteral("transfer-encoding"),
        QStringLiteral("upgrade"),    QStringLiteral("te"),
        QStringLiteral("trailer"),    QStringLiteral("keep-alive")};
    if (framing.contains(lower) || lower.startsWith(QLatin1String("proxy-")))
        return badTemplate(text, QStringLiteral("%1 says how the request travels, not who sends "
                                                "it")
                                     .arg(placement.header));
    if (placement.value.count(placeholderMark) != 1)
        return badTemplate(text, QStringLiteral("the value must hold '{}' exactly once, where "
                                                "the secret goes"));
    for (const QChar c : std::as_const(placement.value)) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c.unicode() > 0x7e)
            return badTemplate(text, QStringLiteral("the value may hold only printable ASCII"));
    }
    return placement;
}

QString placementText(const SecretPlacement &placement)
{
    return placement.basic ? QStringLiteral("basic")
                           : placement.header + QStringLiteral(": ") + placement.value;
}

SecretBindings::SecretBindings(store::Store &store, QString actor)
    : m_store(store)
    , m_actor(std::move(actor))
{}

Result<SecretBinding> SecretBindings::bind(const SecretScope &scope, const QString &key,
                                           const QStringList &hosts,
                                           const SecretPlacement &placement)
{
    SecretBinding binding{scope.folder.isNull() ? QStringLiteral("") : scope.folder,
                          key,
                          {},
                          placement,
                          store::nowTimestamp()};
    if (hosts.isEmpty())
        return makeError(QStringLiteral("secrets.no-host"),
                         QStringLiteral("bind secret '%1' to at least one host").arg(key));
    for (const QString &host : hosts) {
        const Result<QString> target = policy::normalizeRuleTarget(host);
        if (!target)
            return target.error();
        if (!binding.hosts.contains(*target))
            binding.hosts << *target;
    }
    if (!placement.basic) {
        const Result<SecretPlacement> checked =
            parseHeaderTemplate(placement.header + u':' + placement.value);
        if (!checked)
            return checked.error();
        binding.placement = *checked;
    } else {
        // Empty, not null: a null QString binds as SQL NULL.
        binding.placement = SecretPlacement{true, QStringLiteral(""), QStringLiteral("")};
    }
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<SecretBinding> {
        const QSqlDatabase db = m_store.database();
        Result<QSqlQuery> secret = store::execute(
            db,
            QStringLiteral(
                "SELECT 1 FROM secrets WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
            {folderScope, binding.folder, key});
        if (!secret)
            return secret.error();
        if (!secret->next())
            return makeError(QStringLiteral("secrets.not-found"),
                             QStringLiteral("no secret '%1' for %2 to bind (arizukoctl secret "
                                            "set %1 first)")
                                 .arg(key, scopeName(binding.folder)));
        if (const Result<QSqlQuery> written = store::execute(
                db,
                QStringLiteral(
                    "INSERT INTO secret_bindings (scope_kind, scope_id, key, hosts, header, "
                    "template, basic, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (scope_kind, scope_id, key) DO UPDATE SET hosts = "
                    "excluded.hosts, header = excluded.header, template = excluded.template, "
                    "basic = excluded.basic, created_at = excluded.created_at, created_by = "
                    "excluded.created_by"),
                {folderScope, binding.folder, key, binding.hosts.join(u','),
                 binding.placement.header, binding.placement.value, binding.placement.basic ? 1 : 0,
                 binding.createdAt, m_actor});
            !written)
            return written.error();
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("secret.bind"), key,
                           {{QStringLiteral("folder"), binding.folder},
                            {QStringLiteral("hosts"), QJsonArray::fromStringList(binding.hosts)},
                            {QStringLiteral("placement"), placementText(binding.placement)}});
            !audited)
            return audited.error();
        return binding;
    });
}

Result<void> SecretBindings::unbind(const SecretScope &scope, const QString &key)
{
    const QString folder = scope.folder.isNull() ? QStringLiteral("") : scope.folder;
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        Result<QSqlQuery> deleted = store::execute(
            m_store.database(),
            QStringLiteral(
                "DELETE FROM secret_bindings WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
            {folderScope, folder, key});
        if (!deleted)
            return deleted.error();
        if (deleted->numRowsAffected() == 0)
            return makeError(
                QStringLiteral("secrets.not-bound"),
                QStringLiteral("secret '%1' for %2 is not bound").arg(key, scopeName(folder)));
        if (const Result<qint64> audited = log.record(m_actor, QStringLiteral("secret.unbind"), key,
                                                      {{QStringLiteral("folder"), folder}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<QList<SecretBinding>> SecretBindings::list() const
{
    Result<QSqlQuery> rows = store::execute(
        m_store.database(), selectBindings + QStringLiteral(" ORDER BY scope_id, key"));
    if (!rows)
        return rows.error();
    QList<SecretBinding> bindings;
    while (rows->next())
        bindings << bindingOf(*rows);
    return bindings;
}

Result<QList<SecretBinding>> SecretBindings::visibleFrom(const QString &folder) const
{
    // Nearest first: the first folder that holds a name decides it.
    const QStringList places = folders::folderAndAncestors(folder);
    Result<QSqlQuery> rows =
        store::execute(m_store.database(),
                       QStringLiteral("SELECT s.scope_id, s.key, b.scope_id IS NOT NULL FROM "
                                      "secrets s LEFT JOIN secret_bindings b USING (scope_kind, "
                                      "scope_id, key) WHERE s.scope_kind = ?"),
                       {folderScope});
    if (!rows)
        return rows.error();
    QHash<QString, std::pair<qsizetype, bool>> nearest; // name: (depth index, bound)
    while (rows->next()) {
        const qsizetype at = places.indexOf(rows->value(0).toString());
        if (at < 0)
            continue;
        const QString key = rows->value(1).toString();
        const auto known = nearest.constFind(key);
        if (known == nearest.cend() || at < known->first)
            nearest.insert(key, {at, rows->value(2).toBool()});
    }
    const Result<QList<SecretBinding>> all = list();
    if (!all)
        return all.error();
    QList<SecretBinding> visible;
    for (const SecretBinding &binding : *all) {
        const auto found = nearest.constFind(binding.key);
        if (found != nearest.cend() && found->second && places.at(found->first) == binding.folder)
            visible << binding;
    }
    return visible;
}

} // namespace arizuko::secrets
