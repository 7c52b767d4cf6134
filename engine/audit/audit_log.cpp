#include "audit/audit_log.h"

#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>

namespace arizuko::audit {

AuditLog::AuditLog(store::Store &store)
    : m_store(store)
{}

Result<store::WriteTransaction> AuditLog::beginWrite()
{
    return store::WriteTransaction::begin(m_store.database());
}

Result<qint64> AuditLog::record(const QString &actor, const QString &kind, const QString &subject,
                                const QJsonObject &detail)
{
    QSqlQuery insert(m_store.database());
    insert.prepare(QStringLiteral("INSERT INTO audit_log (at, actor, kind, subject, detail) "
                                  "VALUES (?, ?, ?, ?, ?)"));
    insert.addBindValue(store::nowTimestamp());
    insert.addBindValue(actor);
    insert.addBindValue(kind);
    // The base folder '' often arrives as a null QString (a default-built
    // one, as the window passes it), which QtSql would bind as NULL.
    insert.addBindValue(subject.isNull() ? QStringLiteral("") : subject);
    insert.addBindValue(QString::fromUtf8(QJsonDocument(detail).toJson(QJsonDocument::Compact)));
    if (!insert.exec())
        return makeError(QStringLiteral("audit.write"),
                         QStringLiteral("cannot write the audit entry '%1' for '%2': %3")
                             .arg(kind, subject, insert.lastError().text()));
    return insert.lastInsertId().toLongLong();
}

Result<QList<Entry>> AuditLog::query(const Query &filter) const
{
    QString where = QStringLiteral("WHERE id > ?");
    QVariantList values{filter.afterId};
    if (!filter.kind.isEmpty()) {
        // "<kind>" itself or "<kind>.<anything>" ('/' follows '.' in byte order).
        where += QStringLiteral(" AND (kind = ? OR (kind > ? AND kind < ?))");
        values << filter.kind << filter.kind + QLatin1Char('.') << filter.kind + QLatin1Char('/');
    }
    if (!filter.subject.isEmpty()) {
        where += QStringLiteral(" AND subject = ?");
        values << filter.subject;
    }
    if (!filter.since.isEmpty()) {
        // `at` is fixed-width UTC ISO-8601, so text order is time order.
        where += QStringLiteral(" AND at >= ?");
        values << filter.since;
    }
    values << std::max(filter.limit, 0);
    Result<QSqlQuery> select =
        store::execute(m_store.database(),
                       QStringLiteral("SELECT id, at, actor, kind, subject, detail FROM audit_log "
                                      "%1 ORDER BY id DESC LIMIT ?")
                           .arg(where),
                       values);
    if (!select)
        return makeError(
            QStringLiteral("audit.read"),
            QStringLiteral("cannot read the audit log: %1").arg(select.error().message));
    QList<Entry> entries;
    while (select->next()) {
        entries.append({select->value(0).toLongLong(), select->value(1).toString(),
                        select->value(2).toString(), select->value(3).toString(),
                        select->value(4).toString(),
                        QJsonDocument::fromJson(select->value(5).toString().toUtf8()).object()});
    }
    std::reverse(entries.begin(), entries.end());
    return entries;
}

} // namespace arizuko::audit
