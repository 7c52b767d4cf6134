#pragma once

// The pieces every policy editor is built from, in one place so they look
// and behave the same: a read-only, row-selecting table and a folder chooser.

#include "core/result.h"

#include <QList>
#include <QString>

class QComboBox;
class QHBoxLayout;
class QTableView;
class QWidget;

#include <functional>
#include <utility>

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

// A viewer's filter row: each chooser after its label, whose mnemonic
// focuses it; the choosers share the row's width.
QHBoxLayout *labelledRow(QWidget *parent, const QList<std::pair<QString, QWidget *>> &fields);

// A "since" chooser's choices: any time, the last hour, 24 hours, 7 days,
// each with its seconds as data (0: any time).
void addSinceChoices(QComboBox *since);

} // namespace arizuko::desktop
