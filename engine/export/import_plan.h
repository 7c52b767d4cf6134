#pragma once

// Import of an arizuko manifest into the desktop store, planned first: the
// rows added, changed and removed, scoped as arizuko's own apply scopes them
// (folder-scoped resources touch only the folders their rows name; acl,
// acl_membership and routes are replaced whole; absent keys are untouched).
// Applying writes the plan in one store transaction, or nothing.

#include "core/result.h"
#include "export/manifest_document.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::manifest {

struct PlannedRow
{
    enum class Kind
    {
        Add,
        Change,
        Remove
    };
    Kind kind = Kind::Add;
    QString resource;
    QString key; // arizuko's "a|b|" key
    Row row;     // the manifest's row (Add, Change) or the store's (Remove)
};

struct ImportPlan
{
    QList<PlannedRow> rows;
    // Resources, rows and fields the desktop does not model, each a sentence.
    QStringList ignored;
    // Checksum verdict and other facts worth showing before applying.
    QStringList notes;

    bool changesNothing() const { return rows.isEmpty(); }
};

// Reads, validates and plans against the store as it is now. Writes nothing.
Result<ImportPlan> planImport(store::Store &store, const QByteArray &manifest);

// Plans again inside one write transaction and applies that plan, so what is
// written is what the store held at commit time. All or nothing.
Result<ImportPlan> applyImport(store::Store &store, const QByteArray &manifest,
                               const QString &actor);

} // namespace arizuko::manifest
