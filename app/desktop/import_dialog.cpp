#include "import_dialog.h"

#include "engine/workspace.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

// The engine refuses larger manifests anyway; the dialog does not read more.
constexpr qint64 maxManifestBytes = 4 * 1024 * 1024;

QString kindName(manifest::PlannedRow::Kind kind)
{
    switch (kind) {
    case manifest::PlannedRow::Kind::Add:
        return QObject::tr("add");
    case manifest::PlannedRow::Kind::Change:
        return QObject::tr("change");
    case manifest::PlannedRow::Kind::Remove:
        return QObject::tr("remove");
    }
    return {};
}

} // namespace

ImportDialog::ImportDialog(engine::Workspace &workspace, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_file(new QLabel(tr("No manifest chosen."), this))
    , m_rows(new QTreeWidget(this))
    , m_notes(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Import from an arizuko manifest"));
    m_rows->setObjectName(QStringLiteral("plan"));
    m_rows->setAccessibleName(tr("Planned changes"));
    m_rows->setHeaderLabels({tr("Change"), tr("Resource"), tr("Row")});
    m_rows->setRootIsDecorated(false);
    m_notes->setObjectName(QStringLiteral("notes"));
    m_notes->setAccessibleName(tr("Notes and what the desktop does not import"));
    m_notes->setReadOnly(true);
    m_notes->setMaximumHeight(120);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *open = buttons->addButton(tr("&Open\u2026"), QDialogButtonBox::ActionRole);
    m_apply = buttons->addButton(tr("&Apply"), QDialogButtonBox::AcceptRole);
    m_apply->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a manifest"), QString(),
                                                          tr("Manifests (*.yaml *.yml)"));
        if (!path.isEmpty())
            openFile(path);
    });
    connect(m_apply, &QPushButton::clicked, this, [this] { apply(); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_file);
    layout->addWidget(m_rows);
    layout->addWidget(m_notes);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(800, 560);
}

void ImportDialog::openFile(const QString &path)
{
    if (m_busy)
        return;
    m_rows->clear();
    m_notes->clear();
    m_apply->setEnabled(false);
    m_file->setText(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        emit planned();
        return;
    }
    m_manifest = file.read(maxManifestBytes + 1);
    m_status->setText(tr("Planning\u2026"));
    m_busy = true;
    m_workspace.planImport(m_manifest, this, [this](const Result<manifest::ImportPlan> &plan) {
        finished(Step::Plan, plan);
    });
}

void ImportDialog::apply(bool confirmed)
{
    if (m_busy || m_manifest.isEmpty())
        return;
    if (!confirmed &&
        QMessageBox::question(this, tr("Apply the import?"),
                              tr("Write the %n planned change(s) to this desktop's store? "
                                 "They are written together or not at all.",
                                 nullptr, m_rows->topLevelItemCount())) != QMessageBox::Yes)
        return;
    m_apply->setEnabled(false);
    m_status->setText(tr("Applying\u2026"));
    m_busy = true;
    m_workspace.applyImport(m_manifest, this, [this](const Result<manifest::ImportPlan> &plan) {
        finished(Step::Apply, plan);
    });
}

void ImportDialog::finished(Step step, const Result<manifest::ImportPlan> &result)
{
    m_busy = false;
    if (!result) {
        // Nothing was written: a refused manifest or a failed transaction.
        m_status->setText(tr("Refused: %1").arg(result.error().message));
        step == Step::Plan ? emit planned() : emit applied();
        return;
    }
    if (step == Step::Apply) {
        m_status->setText(tr("Applied %n change(s).", nullptr, int(result->rows.size())));
        emit applied();
        return;
    }
    for (const manifest::PlannedRow &row : result->rows)
        new QTreeWidgetItem(m_rows, {kindName(row.kind), row.resource, row.key});
    m_notes->setPlainText((result->notes + result->ignored).join(QLatin1Char('\n')));
    m_status->setText(result->changesNothing()
                          ? tr("The store already holds everything in this manifest.")
                          : tr("%n change(s) planned. Nothing is written until you apply.",
                               nullptr, int(result->rows.size())));
    m_apply->setEnabled(!result->changesNothing());
    emit planned();
}

} // namespace arizuko::desktop
