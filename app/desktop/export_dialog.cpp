#include "export_dialog.h"

#include "engine/workspace.h"
#include "export/script_writer.h"
#include "folders/folders.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

enum Format
{
    Manifest,
    Script
};

QString resourceLabel(const QString &resource)
{
    if (manifest::wholesaleResources().contains(resource))
        return QObject::tr("%1 (replaces the server's whole %1 table)").arg(resource);
    if (resource == QLatin1String("secrets"))
        return QObject::tr("secrets (names only, never values)");
    return resource;
}

} // namespace

ExportDialog::ExportDialog(engine::Workspace &workspace, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_folders(new QListWidget(this))
    , m_format(new QButtonGroup(this))
    , m_unrepresentable(new QComboBox(this))
    , m_warnings(new QLabel(this))
    , m_preview(new QPlainTextEdit(this))
    , m_leftOut(new QTreeWidget(this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Export to an arizuko server"));
    m_folders->setAccessibleName(tr("Folders to export"));
    m_folders->setToolTip(tr("Each checked folder is exported with its subfolders; none checked "
                             "exports every folder and the base rules."));

    auto *manifestFormat = new QRadioButton(tr("&Manifest (arizuko plan/apply)"), this);
    auto *scriptFormat = new QRadioButton(tr("&Script of arizuko commands"), this);
    manifestFormat->setChecked(true);
    m_format->addButton(manifestFormat, Manifest);
    m_format->addButton(scriptFormat, Script);

    auto *include = new QGroupBox(tr("Also export"), this);
    auto *includeLayout = new QVBoxLayout(include);
    for (const QString &resource : manifest::optionalResources()) {
        auto *box = new QCheckBox(resourceLabel(resource), include);
        box->setObjectName(QStringLiteral("include-") + resource);
        box->setProperty("resource", resource);
        includeLayout->addWidget(box);
        m_include << box;
    }

    m_unrepresentable->setAccessibleName(tr("Rows the server cannot hold"));
    m_unrepresentable->addItem(tr("Leave them out and list them"),
                               int(manifest::Unrepresentable::Omit));
    m_unrepresentable->addItem(tr("Refuse to export"), int(manifest::Unrepresentable::Refuse));

    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color: palette(highlight)"));
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setAccessibleName(tr("Preview of what will be written"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_leftOut->setObjectName(QStringLiteral("leftOut"));
    m_leftOut->setAccessibleName(tr("Rows left out"));
    m_leftOut->setHeaderLabels({tr("Resource"), tr("Row"), tr("Why")});
    m_leftOut->setRootIsDecorated(false);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_save = buttons->addButton(tr("&Save\u2026"), QDialogButtonBox::AcceptRole);
    m_copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::save);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(QString::fromUtf8(m_text)); });

    auto *choices = new QWidget(this);
    auto *form = new QFormLayout(choices);
    form->addRow(tr("&Folders:"), m_folders);
    auto *formats = new QHBoxLayout;
    formats->addWidget(manifestFormat);
    formats->addWidget(scriptFormat);
    form->addRow(tr("Format:"), formats);
    form->addRow(include);
    form->addRow(tr("&Unrepresentable rows:"), m_unrepresentable);
    auto *results = new QSplitter(Qt::Vertical, this);
    results->addWidget(m_preview);
    results->addWidget(m_leftOut);
    auto *split = new QSplitter(this);
    split->addWidget(choices);
    split->addWidget(results);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);
    layout->addWidget(m_warnings);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(960, 640);

    // Typing through the choices recomputes once, not per click.
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, &ExportDialog::refresh);
    const auto changed = [this] { m_debounce.start(); };
    connect(m_folders, &QListWidget::itemChanged, this, changed);
    connect(m_format, &QButtonGroup::idClicked, this, changed);
    for (QCheckBox *box : std::as_const(m_include))
        connect(box, &QCheckBox::toggled, this, changed);
    connect(m_unrepresentable, &QComboBox::currentIndexChanged, this, changed);

    loadFolders();
    refresh();
}

void ExportDialog::loadFolders()
{
    // None checked until they come: the first preview is of every folder,
    // as it is with none checked.
    m_workspace.listFolders(this, [this](const Result<QList<folders::Folder>> &folders) {
        if (!folders) {
            m_status->setText(folders.error().message);
            return;
        }
        const QSignalBlocker quiet(m_folders);
        for (const folders::Folder &folder : *folders) {
            auto *item = new QListWidgetItem(folder.path, m_folders);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
        }
    });
}

manifest::ExportOptions ExportDialog::options() const
{
    manifest::ExportOptions options;
    for (int row = 0; row < m_folders->count(); ++row) {
        if (m_folders->item(row)->checkState() == Qt::Checked)
            options.folders << m_folders->item(row)->text();
    }
    for (const QCheckBox *box : m_include) {
        if (box->isChecked())
            options.include << box->property("resource").toString();
    }
    options.unrepresentable =
        manifest::Unrepresentable(m_unrepresentable->currentData().toInt());
    return options;
}

void ExportDialog::refresh()
{
    if (m_computing) {
        m_pending = true;
        return;
    }
    m_computing = true;
    m_text.clear();
    m_save->setEnabled(false);
    m_copy->setEnabled(false);
    m_status->setText(tr("Reading the store\u2026"));
    const engine::Workspace::ExportWriter write =
        m_format->checkedId() == Script ? &manifest::scriptText : &manifest::manifestText;
    using Preview = Result<engine::Workspace::ExportPreview>;
    m_workspace.previewExport(options(), write, this, [this](const Preview &preview) {
        m_computing = false;
        if (std::exchange(m_pending, false))
            refresh();
        else if (!preview)
            showPreview(preview.error(), {});
        else
            showPreview(preview->projection, preview->text);
    });
}

void ExportDialog::showPreview(const Result<manifest::Projection> &result, const QByteArray &text)
{
    m_leftOut->clear();
    if (!result) {
        m_preview->setPlainText(QString());
        m_warnings->clear();
        m_status->setText(tr("Not exported: %1").arg(result.error().message));
        emit previewReady();
        return;
    }
    const manifest::Projection &projection = *result;
    for (const manifest::LeftOut &row : projection.leftOut)
        new QTreeWidgetItem(m_leftOut, {row.resource, row.row, row.reason});
    m_leftOut->setVisible(!projection.leftOut.isEmpty());
    m_warnings->setText(projection.warnings.join(QLatin1Char('\n')));
    m_text = text;
    m_preview->setPlainText(QString::fromUtf8(m_text));
    m_status->setText(projection.leftOut.isEmpty()
                          ? tr("Everything selected can be exported.")
                          : tr("%n row(s) have no server equivalent and are left out (listed "
                               "below).",
                               nullptr, int(projection.leftOut.size())));
    m_save->setEnabled(true);
    m_copy->setEnabled(true);
    emit previewReady();
}

void ExportDialog::save()
{
    const bool script = m_format->checkedId() == Script;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the export"),
        script ? QStringLiteral("arizuko-desktop.sh") : QStringLiteral("arizuko-desktop.yaml"),
        script ? tr("Shell scripts (*.sh)") : tr("Manifests (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    // Written whole or not at all.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_text) != m_text.size() || !file.commit()) {
        QMessageBox::warning(this, tr("Export not saved"),
                             tr("Could not write %1: %2").arg(path, file.errorString()));
        return;
    }
    if (script)
        QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    m_status->setText(tr("Saved to %1.").arg(path));
}

} // namespace arizuko::desktop
