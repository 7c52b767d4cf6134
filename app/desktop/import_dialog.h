#pragma once

// Import an arizuko manifest: the plan first (rows added, changed and
// removed, scoped as arizuko's apply scopes them, and what the desktop does
// not model), then one confirmed transaction. Planning and applying run on
// a worker.

#include "export/import_plan.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

class ImportDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ImportDialog(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Reads the file and plans it (also what Open… does after its chooser).
    void openFile(const QString &path);
    // Applies the shown plan; `confirmed` skips the question (tests).
    void apply(bool confirmed = false);

signals:
    void planned();
    void applied();

private:
    enum class Step
    {
        Plan,
        Apply
    };
    void finished(Step step, const Result<manifest::ImportPlan> &result);

    engine::Workspace &m_workspace;
    QLabel *m_file;
    QTreeWidget *m_rows;
    QPlainTextEdit *m_notes;
    QLabel *m_status;
    QPushButton *m_apply;
    QByteArray m_manifest;
    // A plan or an apply is on its way.
    bool m_busy = false;
};

} // namespace arizuko::desktop
