#pragma once

// Export to an arizuko server: the folders, the resources that replace a
// server's whole table (each with its warning), what to do with rows the
// server cannot hold, and a live preview of exactly what will be written.
// The projection runs on a worker; the dialog never waits for the store.

#include "export/projection.h"

#include <QDialog>
#include <QTimer>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

class ExportDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(engine::Workspace &workspace, QWidget *parent = nullptr);

    // What Save would write now (empty while a preview is computed or when
    // the export is refused).
    QByteArray previewText() const { return m_text; }

signals:
    void previewReady();

private:
    void loadFolders();
    manifest::ExportOptions options() const;
    void refresh();
    void showPreview(const Result<manifest::Projection> &projection, const QByteArray &text);
    void save();

    engine::Workspace &m_workspace;
    QListWidget *m_folders;
    QButtonGroup *m_format;
    QList<QCheckBox *> m_include;
    QComboBox *m_unrepresentable;
    QLabel *m_warnings;
    QPlainTextEdit *m_preview;
    QTreeWidget *m_leftOut;
    QLabel *m_status;
    QPushButton *m_save;
    QPushButton *m_copy;
    QTimer m_debounce;
    QByteArray m_text;
    // A preview is on its way; another was asked for meanwhile.
    bool m_computing = false;
    bool m_pending = false;
};

} // namespace arizuko::desktop
