#pragma once

// arizuko's manifest resources (reference §1–2): every key a server export
// may hold, its row fields in emitted order, key fields and folder scope, so
// reading, writing and planning are driven by one table.

#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::manifest {

enum class FieldType
{
    String,
    Int,
    Bool,
    StringList,    // preserve_headers
    StringMap,     // asset_hashes
    StringListMap, // installed_packages.manifest
};

struct FieldSpec
{
    QString name;
    FieldType type = FieldType::String;
    bool always = false;  // written even when empty or zero
    bool stamped = false; // a server timestamp: plan ignores it
};

struct ResourceSpec
{
    QString name;
    QString subsystem; // routd or onbod
    QList<FieldSpec> fields;
    QStringList primaryKey;    // empty: every field (invites)
    QString scopeField;        // folder scope, empty: replaced wholesale
    bool neverRebuilt = false; // apply skips it (secrets, tokens, ...)

    qsizetype fieldIndex(const QString &field) const;
};

const QList<ResourceSpec> &catalogue();
const ResourceSpec *findResource(const QString &name);

// The resources this desktop holds a projection of.
const QStringList &desktopResources();

} // namespace arizuko::manifest
