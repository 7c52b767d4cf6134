#pragma once

// The desktop store seen as an arizuko `routd` document for one export: the
// rows it carries, the rows it leaves out and why, and warnings about what
// applying it replaces. Both the manifest and the script are written from it.

#include "core/result.h"
#include "export/export_options.h"
#include "export/manifest_document.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::manifest {

// A store row with no server equivalent: "network_rules", "corp|github.com|"
// style key, and the reason in a sentence.
struct LeftOut
{
    QString resource;
    QString row;
    QString reason;
};

struct Projection
{
    ExportOptions options;
    Document document;
    QList<LeftOut> leftOut;
    QStringList warnings;
};

// Reads the store (one read transaction) and projects it. With
// Unrepresentable::Refuse, any row left out fails the export
// (export.unrepresentable) and the message lists every such row.
Result<Projection> project(store::Store &store, const ExportOptions &options);

// The canonical manifest of a projection, checksum included.
QByteArray manifestText(const Projection &projection);

} // namespace arizuko::manifest
