#include "secrets/secret_store.h"

#include "audit/audit_log.h"
#include "secrets/cipher.h"
#include "folders/folder_names.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QRegularExpression>

namespace arizuko::secrets {
namespace {

const QString folderScope = QStringLiteral("folder");
constexpr qsizetype maxValueBytes = 64 * 1024;

// Binds a sealed value to its row: moved to another row, it does not open.
QByteArray associatedData(const SecretScope &scope, const QString &key)
{
    return "arizuko-secret\n" + folderScope.toUtf8() + '\n' + scope.folder.toUtf8() + '\n' +
           key.toUtf8();
}

// The scope_id column; a null QString would bind as SQL NULL.
QString scopeId(const SecretScope &scope)
{
    return scope.folder.isNull() ? QStringLiteral("") : scope.folder;
}

QString scopeName(const SecretScope &scope)
{
    return scope.folder.isEmpty() ? QStringLiteral("every folder")
                                  : QStringLiteral("folder '%1'").arg(scope.folder);
}

Error notFound(const SecretScope &scope, const QString &key)
{
    return makeError(QStringLiteral("secrets.not-found"),
                     QStringLiteral("no secret '%1' for %2").arg(key, scopeName(scope)));
}

} // namespace

SecretStore::SecretStore(store::Store &store, QString actor, KeyStoreChoice keyStore, KeyRing ring)
    : m_store(store)
    , m_actor(std::move(actor))
    , m_keyStore(std::move(keyStore.store))
    , m_keyStoreReason(std::move(keyStore.reason))
    , m_ring(std::move(ring))
{}

Result<std::unique_ptr<SecretStore>> SecretStore::open(store::Store &store, QString actor)
{
    Result<QSqlQuery> counted =
        store::execute(store.database(), QStringLiteral("SELECT count(*) FROM secrets"));
    if (!counted)
        return counted.error();
    counted->next();
    const bool sealedValuesExist = counted->value(0).toLongLong() > 0;

    Result<KeyStoreChoice> choice = chooseMasterKeyStore(store.dataDir(), sealedValuesExist);
    if (!choice)
        return choice.error();
    const QString where = choice->store->description();
    Result<KeyRing> ring =
        choice->store->update([&](const std::optional<KeyRing> &stored) -> Result<KeyRing> {
            if (stored)
                return *stored;
            if (sealedValuesExist)
                return makeError(
                    QStringLiteral("secrets.key-missing"),
                    QStringLiteral("secrets are stored, but %1 holds no master key; restore it")
                        .arg(where));
            return KeyRing::generate();
        });
    if (!ring)
        return ring.error();
    return std::unique_ptr<SecretStore>(new SecretStore(
        store, std::move(actor), std::move(choice).value(), std::move(ring).value()));
}

QString SecretStore::keyStoreDescription() const
{
    return QStringLiteral("%1; %2").arg(m_keyStore->description(), m_keyStoreReason);
}

Result<void> SecretStore::validateKey(const QString &key)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,127}$"));
    if (!name.match(key).hasMatch())
        return makeError(
            QStringLiteral("secrets.invalid-key"),
            QStringLiteral(
                "invalid secret name '%1': use letters, digits and '_', not starting with a "
                "digit, at most 128 characters (like an environment variable)")
                .arg(key));
    return {};
}

Result<void> SecretStore::checkScope(const SecretScope &scope) const
{
    if (scope.folder.isEmpty())
        return {};
    if (const Result<void> valid = folders::validateFolderPath(scope.folder); !valid)
        return valid;
    Result<QSqlQuery> found =
        store::execute(m_store.database(), QStringLiteral("SELECT 1 FROM groups WHERE folder = ?"),
                       {scope.folder});
    if (!found)
        return found.error();
    if (!found->next())
        return makeError(QStringLiteral("folder.not-found"),
                         QStringLiteral("folder '%1' does not exist").arg(scope.folder));
    return {};
}

Result<void> SecretStore::set(const SecretScope &scope, const QString &key, const QByteArray &value)
{
    if (const Result<void> valid = validateKey(key); !valid)
        return valid;
    if (value.isEmpty())
        return makeError(QStringLiteral("secrets.empty"),
                         QStringLiteral("the value of secret '%1' is empty").arg(key));
    if (value.size() > maxValueBytes)
        return makeError(QStringLiteral("secrets.too-large"),
                         QStringLiteral("the value of secret '%1' is over %2 bytes")
                             .arg(key)
                             .arg(maxValueBytes));
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        const QSqlDatabase db = m_store.database();
        if (const Result<void> scoped = checkScope(scope); !scoped)
            return scoped;

        const Result<QByteArray> sealed =
            seal(m_ring.currentKey(), value, associatedData(scope, key));
        if (!sealed)
            return sealed.error();
        Result<QSqlQuery> previous = store::execute(
            db,
            QStringLiteral(
                "SELECT 1 FROM secrets WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
            {folderScope, scopeId(scope), key});
        if (!previous)
            return previous.error();
        const bool replaced = previous->next();
        if (const Result<QSqlQuery> written = store::execute(
                db,
                QStringLiteral(
                    "INSERT INTO secrets (scope_kind, scope_id, key, value, key_id, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope_kind, scope_id, key) DO UPDATE "
                    "SET "
                    "value = excluded.value, key_id = excluded.key_id, updated_at = "
                    "excluded.updated_at"),
                {folderScope, scopeId(scope), key, QString::fromLatin1(*sealed),
                 QString::fromLatin1(m_ring.currentId()), store::nowTimestamp()});
            !written)
            return written.error();
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("secret.set"), key,
                           {{QStringLiteral("folder"), scope.folder},
                            {QStringLiteral("key_id"), QString::fromLatin1(m_ring.currentId())},
                            {QStringLiteral("replaced"), replaced}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<QByteArray> SecretStore::keyFor(const QByteArray &keyId)
{
    if (!m_ring.contains(keyId)) {
        // Another process may have rotated since this one loaded the keys.
        const Result<std::optional<KeyRing>> reloaded = m_keyStore->load();
        if (reloaded && reloaded->has_value())
            m_ring = reloaded->value();
    }
    if (!m_ring.contains(keyId))
        return makeError(QStringLiteral("secrets.key-missing"),
                         QStringLiteral("the master key '%1' is not in %2")
                             .arg(QString::fromLatin1(keyId), m_keyStore->description()));
    return m_ring.key(keyId);
}

Result<QByteArray> SecretStore::get(const SecretScope &scope, const QString &key)
{
    Result<QSqlQuery> row = store::execute(
        m_store.database(),
        QStringLiteral(
            "SELECT value, key_id FROM secrets WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
        {folderScope, scopeId(scope), key});
    if (!row)
        return row.error();
    if (!row->next())
        return notFound(scope, key);
    const QByteArray sealed = row->value(0).toString().toLatin1();
    const Result<QByteArray> masterKey = keyFor(row->value(1).toString().toLatin1());
    if (!masterKey)
        return masterKey.error();
    Result<QByteArray> opened = unseal(*masterKey, sealed, associatedData(scope, key));
    if (!opened)
        return makeError(opened.error().code,
                         QStringLiteral("secret '%1' for %2: %3")
                             .arg(key, scopeName(scope), opened.error().message));
    return opened;
}

Result<void> SecretStore::moveFolder(const QString &from, const QString &to)
{
    const QSqlDatabase db = m_store.database();
    Result<QSqlQuery> rows = store::execute(
        db,
        QStringLiteral("SELECT scope_id, key, value, key_id FROM secrets WHERE scope_kind = ? AND "
                       "(scope_id = ? OR substr(scope_id, 1, length(?) + 1) = ? || '/')"),
        {folderScope, from, from, from});
    if (!rows)
        return rows.error();
    struct Row
    {
        QString folder;
        QString key;
        QByteArray sealed;
        QByteArray keyId;
    };
    QList<Row> found;
    while (rows->next())
        found.append({rows->value(0).toString(), rows->value(1).toString(),
                      rows->value(2).toString().toLatin1(), rows->value(3).toString().toLatin1()});
    for (const Row &row : found) {
        const Result<QByteArray> masterKey = keyFor(row.keyId);
        if (!masterKey)
            return masterKey.error();
        const Result<QByteArray> opened =
            unseal(*masterKey, row.sealed, associatedData(SecretScope{row.folder}, row.key));
        if (!opened)
            return makeError(
                opened.error().code,
                QStringLiteral("secret '%1' for %2: %3")
                    .arg(row.key, scopeName(SecretScope{row.folder}), opened.error().message));
        const SecretScope moved{to + row.folder.mid(from.size())};
        const Result<QByteArray> sealed =
            seal(m_ring.currentKey(), *opened, associatedData(moved, row.key));
        if (!sealed)
            return sealed.error();
        if (const Result<QSqlQuery> written = store::execute(
                db,
                QStringLiteral(
                    "UPDATE secrets SET scope_id = ?, value = ?, key_id = ?, updated_at = ? "
                    "WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
                {moved.folder, QString::fromLatin1(*sealed),
                 QString::fromLatin1(m_ring.currentId()), store::nowTimestamp(), folderScope,
                 row.folder, row.key});
            !written)
            return written.error();
    }
    return {};
}

Result<QList<SecretInfo>> SecretStore::list() const
{
    Result<QSqlQuery> rows =
        store::execute(m_store.database(),
                       QStringLiteral("SELECT scope_id, key, key_id, updated_at FROM secrets WHERE "
                                      "scope_kind = ? ORDER BY scope_id, key"),
                       {folderScope});
    if (!rows)
        return rows.error();
    QList<SecretInfo> secrets;
    while (rows->next())
        secrets.append({rows->value(0).toString(), rows->value(1).toString(),
                        rows->value(2).toString(), rows->value(3).toString()});
    return secrets;
}

Result<void> SecretStore::remove(const SecretScope &scope, const QString &key)
{
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        const QSqlDatabase db = m_store.database();
        Result<QSqlQuery> deleted = store::execute(
            db,
            QStringLiteral("DELETE FROM secrets WHERE scope_kind = ? AND scope_id = ? AND key = ?"),
            {folderScope, scopeId(scope), key});
        if (!deleted)
            return deleted.error();
        if (deleted->numRowsAffected() == 0)
            return notFound(scope, key);
        if (const Result<qint64> audited = log.record(m_actor, QStringLiteral("secret.rm"), key,
                                                      {{QStringLiteral("folder"), scope.folder}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<QString> SecretStore::rotateKey()
{
    const QByteArray previous = m_ring.currentId();
    Result<KeyRing> rotated =
        m_keyStore->update([](const std::optional<KeyRing> &stored) -> Result<KeyRing> {
            if (!stored)
                return makeError(QStringLiteral("secrets.key-missing"),
                                 QStringLiteral("the master keys disappeared"));
            KeyRing ring = *stored;
            if (const Result<QByteArray> id = ring.rotate(); !id)
                return id.error();
            return ring;
        });
    if (!rotated)
        return rotated.error();
    m_ring = std::move(rotated).value();
    const QString newId = QString::fromLatin1(m_ring.currentId());
    if (const Result<qint64> audited = audit::AuditLog(m_store).record(
            m_actor, QStringLiteral("secret.rotate-key"), newId,
            {{QStringLiteral("previous_key_id"), QString::fromLatin1(previous)},
             {QStringLiteral("key_store"), m_keyStore->description()}});
        !audited)
        return audited.error();
    return newId;
}

} // namespace arizuko::secrets
