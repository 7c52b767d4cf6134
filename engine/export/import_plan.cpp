#include "export/import_plan.h"

#include "audit/audit_log.h"
#include "export/import_steps.h"
#include "export/manifest_reader.h"
#include "export/read_snapshot.h"
#include "folders/folders.h"
#include "store/query.h"
#include "store/store.h"

#include <QJsonObject>

namespace arizuko::manifest {
namespace {

struct Planned
{
    Document document;
    ImportPlan plan;
};

Result<QSet<QString>> storeFolders(const QSqlDatabase &db)
{
    Result<QSqlQuery> rows = store::execute(db, QStringLiteral("SELECT folder FROM groups"));
    if (!rows)
        return rows.error();
    QSet<QString> folders;
    while (rows->next())
        folders.insert(rows->value(0).toString());
    return folders;
}

// Reads and checks the manifest and plans it against the store as `db` sees
// it; the caller holds whatever transaction it needs.
Result<Planned> planOn(const QSqlDatabase &db, const QByteArray &manifest)
{
    Result<QList<Document>> documents = readManifest(manifest);
    if (!documents)
        return documents.error();
    Planned planned;
    bool haveRoutd = false;
    for (const Document &document : *documents) {
        const bool routd = std::any_of(
            document.resources.cbegin(), document.resources.cend(),
            [](const auto &entry) { return findResource(entry.first)->subsystem == u"routd"; });
        if (!document.checksum.isEmpty() && !checksumMatches(document))
            return makeError(
                QStringLiteral("import.checksum"),
                QStringLiteral("document %1: checksum %2 does not match its content; the file was "
                               "changed after it was written")
                    .arg(QString::number(document.index + 1), document.checksum));
        if (!routd) {
            for (const auto &[name, rows] : document.resources)
                planned.plan.ignored.append(
                    QStringLiteral("%1: %2 row(s) not imported (the desktop does not "
                                   "model %1)")
                        .arg(name, QString::number(rows.size())));
            continue;
        }
        if (haveRoutd)
            return makeError(QStringLiteral("import.invalid"),
                             QStringLiteral("document %1: a second routd document; one "
                                            "file holds one")
                                 .arg(document.index + 1));
        haveRoutd = true;
        planned.document = document;
        planned.plan.notes.append(document.checksum.isEmpty()
                                      ? QStringLiteral("no checksum: the content is not verified")
                                      : QStringLiteral("checksum matches the content"));
    }
    if (!haveRoutd) {
        planned.plan.notes.append(QStringLiteral("no routd document: nothing to import"));
        return planned;
    }
    Result<QSet<QString>> folders = storeFolders(db);
    if (!folders)
        return folders.error();
    if (Result<void> valid = validateForDesktop(planned.document, *folders, planned.plan); !valid)
        return valid.error();
    Result<ImportPlan> plan = diffWithStore(db, planned.document, planned.plan);
    if (!plan)
        return plan.error();
    planned.plan = *plan;
    return planned;
}

QJsonObject counts(const ImportPlan &plan)
{
    int added = 0, changed = 0, removed = 0;
    for (const PlannedRow &row : plan.rows) {
        added += row.kind == PlannedRow::Kind::Add;
        changed += row.kind == PlannedRow::Kind::Change;
        removed += row.kind == PlannedRow::Kind::Remove;
    }
    return {{QStringLiteral("added"), added},
            {QStringLiteral("changed"), changed},
            {QStringLiteral("removed"), removed}};
}

} // namespace

Result<ImportPlan> planImport(store::Store &store, const QByteArray &manifest)
{
    Result<Planned> planned = inReadTransaction(
        store, [&manifest](const QSqlDatabase &db) { return planOn(db, manifest); });
    if (!planned)
        return planned.error();
    return planned->plan;
}

Result<ImportPlan> applyImport(store::Store &store, const QByteArray &manifest,
                               const QString &actor)
{
    audit::AuditLog log(store);
    Result<Planned> planned = log.writeAudited([&]() -> Result<Planned> {
        const QSqlDatabase db = store.database();
        Result<Planned> plannedHere = planOn(db, manifest);
        if (!plannedHere)
            return plannedHere.error();
        if (Result<void> written = writePlan(db, plannedHere->document, plannedHere->plan);
            !written)
            return written.error();
        QJsonObject detail = counts(plannedHere->plan);
        detail.insert(QStringLiteral("checksum"), plannedHere->document.checksum);
        if (const Result<qint64> audited = log.record(actor, QStringLiteral("import.apply"),
                                                      QStringLiteral("manifest"), detail);
            !audited)
            return audited.error();
        return plannedHere;
    });
    if (!planned)
        return planned.error();
    // Homes of new folders, as `folder add` makes them; after the commit, so
    // a refused import leaves no directory behind. One that cannot be made
    // now is made (or refused) by the folder's first turn.
    const folders::Folders folders(store, actor);
    for (const PlannedRow &row : planned->plan.rows) {
        if (row.kind != PlannedRow::Kind::Add || row.resource != u"groups")
            continue;
        const Result<folders::Home> home =
            folders.home(row.row.text(*findResource(row.resource), QStringLiteral("folder")));
        if (home)
            (void)folders::Folders::openHome(store.dataDir(), home->id);
    }
    return planned->plan;
}

} // namespace arizuko::manifest
