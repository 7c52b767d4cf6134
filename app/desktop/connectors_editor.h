#pragma once

// The connectors the host knows (built in and the user's, with where each
// comes from and every definition file left out, by file and line), each
// operation with its grant scope and whether the chosen folder's agent sees
// it and why (the grants editor's reasoning), the secrets a connector reads
// and whether the folder has them (names only), and "Try": one read (GET)
// operation made by the host on the engine thread, its status shown here.
// Everything it reads runs on a worker; nothing waits on the GUI thread.

#include "models/connector_overview.h"

#include <QDialog>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace arizuko::models {
class ConnectorListModel;
class ConnectorOperationModel;
} // namespace arizuko::models
namespace arizuko::engine {
class Engine;
class Workspace;
} // namespace arizuko::engine

namespace arizuko::desktop {

class ConnectorsEditor final : public QDialog
{
    Q_OBJECT

public:
    ConnectorsEditor(engine::Workspace &workspace, engine::Engine &engine, const QString &folder,
                     QWidget *parent = nullptr);

    models::ConnectorListModel *connectors() const { return m_connectors; }
    models::ConnectorOperationModel *operations() const { return m_operations; }
    const models::ConnectorOverview &overview() const { return m_overview; }
    bool isLoading() const { return m_loading; }

signals:
    // A worker's overview is shown.
    void loaded();
    // A Try's answer is shown.
    void tried();
    // "Set secret…": the secrets editor, ready for `name` in `folder`.
    void secretsEditorRequested(const QString &folder, const QString &name);

private:
    void loadFolders(const QString &select);
    void reload();
    void showOverview(const models::ConnectorOverview &overview);
    void selectConnector();
    void selectOperation();
    void showFields(const connectors::Operation *operation);
    void setTabChain(const QList<QWidget *> &widgets);
    QString tryHint(const connectors::Operation *operation) const;
    void tryOperation();
    void showTried(const QString &folder, const QString &tool, const QString &text, bool isError);
    QString currentFolder() const;
    QString currentService() const;

    engine::Workspace &m_workspace;
    engine::Engine &m_engine;
    models::ConnectorListModel *m_connectors;
    models::ConnectorOperationModel *m_operations;
    models::ConnectorOverview m_overview;
    // One read at a time; a change meanwhile is read once it is done. None
    // starts before the folder chooser holds the folders.
    bool m_loading = false;
    bool m_reloadPending = false;
    bool m_foldersShown = false;
    QString m_foldersProblem; // why the folders cannot be listed, or empty
    QComboBox *m_folder;
    QTableView *m_connectorView;
    QLabel *m_errors;
    QLabel *m_secret;
    QPushButton *m_setSecret;
    QLabel *m_operationsTitle;
    QTableView *m_operationView;
    QGroupBox *m_tryBox;
    QFormLayout *m_parameters;
    QList<QLineEdit *> m_values;
    // What the fields were made from (see fieldSpec), and whether the
    // overview is being shown again, when the rows are chosen in steps.
    QStringList m_fieldSpec;
    bool m_restoringSelection = false;
    QPushButton *m_try;
    // Try, its answer and Close: in the tab chain after the fields.
    QList<QWidget *> m_tabAfterFields;
    QLabel *m_tryStatus;
    QPlainTextEdit *m_tryOutput;
    QString m_trying; // the tool of the Try in flight, or empty
    QLabel *m_status;
};

} // namespace arizuko::desktop
