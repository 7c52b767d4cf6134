#pragma once

// The pieces every policy editor is built from, in one place so they look
// and behave the same: a read-only, row-selecting table and a folder chooser.

#include "core/result.h"

#include <QString>

class QComboBox;
class QTableView;
class QWidget;

#include <functional>

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

QTableView *makeReadOnlyTable(QWidget *parent, const QString &objectName,
                              const QString &accessibleName);

// Refills chooser with firstLabel (data: an empty folder) and every folder,
// read on a worker, selects `select` (or the first item) without emitting,
// and leaves `filled`, which runs once the chooser holds them (not at all
// when the chooser is gone first), to load what the selection shows.
void fillFolderChooser(QComboBox *chooser, engine::Workspace &workspace, const QString &firstLabel,
                       const QString &select, std::function<void(Result<void>)> filled);

} // namespace arizuko::desktop
