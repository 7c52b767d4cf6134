#pragma once

// Export to an arizuko server: the folders, the resources that replace a
// server's whole table (each with its warning), what to do with rows the
// server cannot hold, and a live preview of exactly what will be written.
// The projection runs on a worker; the dialog never waits for the store.

#include "export/projection.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QTimer>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace arizuko::store {
class Store;
}

namespace arizuko::desktop {

class ExportDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(store::Store &store, QWidget *parent = nullptr);

    // What Save would write now (empty while a preview is computed or when
    // the export is refused).
    QByteArray previewText() const { return m_text; }

signals:
    void previewReady();

private:
    struct Preview
    {
        Result<manifest::Projection> projection;
        QByteArray text;
    };

    void loadFolders();
    manifest::ExportOptions options() const;
    void refresh();
    void showPreview();
    void save();

    store::Store &m_store;
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
    QFutureWatcher<Preview> m_watcher;
    QByteArray m_text;
    bool m_pending = false;
};

} // namespace arizuko::desktop
