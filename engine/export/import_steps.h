#pragma once

// Internal to the import: checking a manifest's rows against what the
// desktop can hold (import_validation.cpp) and writing a plan
// (import_apply.cpp).

#include "core/result.h"
#include "export/import_plan.h"

#include <QSet>
#include <QSqlDatabase>

namespace arizuko::manifest {

// Checks every row of the resources the desktop models, in place: hosts are
// normalised, rows the desktop cannot hold are removed and listed in
// `plan.ignored`, every other problem refuses the import naming the row and
// field. `storeFolders`: the folders the store holds now.
Result<void> validateForDesktop(Document &document, const QSet<QString> &storeFolders,
                                ImportPlan &plan);

// Writes the plan's rows on `db`, which is inside the caller's transaction.
Result<void> writePlan(const QSqlDatabase &db, const Document &document, const ImportPlan &plan);

// The plan for one validated document against the store read on `db`.
Result<ImportPlan> diffWithStore(const QSqlDatabase &db, const Document &document, ImportPlan plan);

} // namespace arizuko::manifest
