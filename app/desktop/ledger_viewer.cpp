#include "ledger_viewer.h"

#include "editor_widgets.h"
#include "engine/workspace.h"
#include "ledger/ledger_export.h"
#include "models/ledger_model.h"
#include "models/network_rule_model.h"
#include "printable_delegate.h"
#include "safe_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

constexpr int progressIntervalMs = 100;

// The file dialog's formats, in the order of their name filters.
const QList<ledger::LedgerFormat> exportFormats{ledger::LedgerFormat::JsonLines,
                                                ledger::LedgerFormat::Ocsf};

} // namespace

LedgerViewer::LedgerViewer(engine::Workspace &workspace, const QString &turn,
                           const QString &turnName, const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_turn(turn)
    , m_folder(folder)
    , m_model(workspace.make<models::LedgerModel>(this))
    , m_scope(new QComboBox(this))
    , m_decision(new QComboBox(this))
    , m_since(new QComboBox(this))
    , m_table(makeReadOnlyTable(this, QStringLiteral("ledgerRows"), tr("Egress ledger requests")))
    , m_status(new QLabel(this))
    , m_export(new QPushButton(tr("E&xport\u2026"), this))
{
    setObjectName(QStringLiteral("ledgerViewer"));
    setWindowTitle(tr("Egress ledger"));
    m_scope->setObjectName(QStringLiteral("scope"));
    m_scope->setAccessibleName(tr("Whose requests"));
    m_scope->addItem(turn.isEmpty() ? tr("The shown turn (none)")
                                    : tr("The turn %1").arg(printable(turnName, 60)),
                     int(Scope::Turn));
    m_scope->addItem(tr("The folder %1").arg(printable(models::folderLabel(folder), 60)),
                     int(Scope::Folder));
    m_scope->addItem(tr("Every folder"), int(Scope::Everything));
    m_scope->setCurrentIndex(turn.isEmpty() ? 1 : 0);
    m_decision->setObjectName(QStringLiteral("decision"));
    m_decision->setAccessibleName(tr("Decision"));
    m_decision->addItem(tr("allowed and denied"), QString());
    m_decision->addItem(tr("allowed"), QStringLiteral("allow"));
    m_decision->addItem(tr("denied"), QStringLiteral("deny"));
    m_since->setObjectName(QStringLiteral("since"));
    m_since->setAccessibleName(tr("Since"));
    addSinceChoices(m_since);
    m_table->setModel(m_model);
    m_table->setItemDelegate(new PrintableDelegate(m_table));
    // Every column keeps the width it has: measuring them would read every
    // row of every page, on each page. Sized once, by the rows in view only
    // (Qt measures up to 1000 rows by default: 15 ms of the GUI thread for
    // a page of 200, tests/bench/window "(c)").
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setResizeContentsPrecision(0);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setAccessibleName(tr("Export the requests the filter shows to a file"));

    QHBoxLayout *filters = labelledRow(
        this, {{tr("&Of:"), m_scope}, {tr("&Decision:"), m_decision}, {tr("&Since:"), m_since}});
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(1100, 600);

    for (QComboBox *chooser : {m_scope, m_decision, m_since})
        connect(chooser, &QComboBox::currentIndexChanged, this, &LedgerViewer::applyFilter);
    connect(m_export, &QPushButton::clicked, this, &LedgerViewer::chooseExportFile);
    connect(m_model, &models::LedgerModel::reloaded, this, [this] {
        // Sized once, by the first page shown.
        if (m_model->rowCount() > 0 && !m_table->property("sized").toBool()) {
            m_table->resizeColumnsToContents();
            m_table->setProperty("sized", true);
        }
        showCount();
    });
    connect(m_model, &models::LedgerModel::pageAdded, this, &LedgerViewer::showCount);
    connect(m_model, &models::LedgerModel::failed, this,
            [this](const Error &error) { m_status->setText(printable(error.message, 400)); });
    m_progressTimer.setInterval(progressIntervalMs);
    connect(&m_progressTimer, &QTimer::timeout, this, &LedgerViewer::showExportProgress);
    applyFilter();
}

LedgerViewer::~LedgerViewer()
{
    // A running export stops at its next page; its file is not kept.
    if (m_exporting)
        m_exporting->cancel = true;
}

ledger::LedgerFilter LedgerViewer::filter() const
{
    ledger::LedgerFilter filter;
    switch (Scope(m_scope->currentData().toInt())) {
    case Scope::Turn:
        // No turn shown: a turn id no row has, so nothing shows.
        filter.turn = m_turn.isEmpty() ? QStringLiteral("-") : m_turn;
        break;
    case Scope::Folder:
        filter.folder = m_folder;
        break;
    case Scope::Everything:
        break;
    }
    filter.decision = m_decision->currentData().toString();
    if (const int seconds = m_since->currentData().toInt(); seconds > 0)
        filter.since = ledger::sinceTimestamp(QStringLiteral("%1s").arg(seconds),
                                              QDateTime::currentDateTimeUtc())
                           .value_or(QString());
    return filter;
}

void LedgerViewer::applyFilter()
{
    m_status->setText(tr("Reading\u2026"));
    m_model->setFilter(filter());
}

QString LedgerViewer::filterText() const
{
    return tr("%1, %2, %3")
        .arg(m_scope->currentText(), m_decision->currentText(), m_since->currentText());
}

void LedgerViewer::showCount()
{
    m_status->setText(m_model->canFetchMore({})
                          ? tr("The newest %n requests; older ones follow as you scroll down.",
                               nullptr, m_model->rowCount())
                          : tr("%n requests.", nullptr, m_model->rowCount()));
}

void LedgerViewer::chooseExportFile()
{
    if (m_exporting)
        return;
    auto *dialog = new QFileDialog(this, tr("Export the egress ledger: %1").arg(filterText()));
    dialog->setObjectName(QStringLiteral("ledgerExportFile"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    // The order of exportFormats.
    dialog->setNameFilters({tr("JSON Lines, schema arizuko.egress-ledger/1 (*.jsonl)"),
                            tr("OCSF events, one a line (*.ocsf.jsonl *.jsonl)")});
    dialog->setDefaultSuffix(QStringLiteral("jsonl"));
    dialog->selectFile(QStringLiteral("egress-ledger.jsonl"));
    connect(dialog, &QFileDialog::fileSelected, this, [this, dialog](const QString &path) {
        const qsizetype chosen = dialog->nameFilters().indexOf(dialog->selectedNameFilter());
        exportTo(path, exportFormats.value(chosen, ledger::LedgerFormat::JsonLines));
    });
    dialog->open();
}

void LedgerViewer::exportTo(const QString &path, ledger::LedgerFormat format)
{
    if (m_exporting)
        return;
    m_exporting = std::make_shared<ledger::ExportProgress>();
    m_export->setEnabled(false);
    m_progress = new QProgressDialog(
        tr("Exporting %1 to %2\u2026").arg(filterText(), printable(QDir::toNativeSeparators(path))),
        tr("Cancel"), 0, 0, this);
    m_progress->setObjectName(QStringLiteral("ledgerExportProgress"));
    auto *cancel = new QPushButton(tr("Cancel"), m_progress);
    cancel->setObjectName(QStringLiteral("cancelExport"));
    cancel->setAccessibleName(tr("Cancel the export; no file is left"));
    m_progress->setCancelButton(cancel);
    m_progress->setWindowTitle(tr("Export the egress ledger"));
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setMinimumDuration(0);
    connect(m_progress, &QProgressDialog::canceled, this,
            [exporting = m_exporting] { exporting->cancel = true; });
    m_progress->open();
    m_progressTimer.start();
    m_workspace.exportLedger(
        filter(), format, path, m_exporting, this,
        [this, path](const Result<qint64> &result) { finishExport(path, result); });
}

void LedgerViewer::showExportProgress()
{
    if (!m_exporting || !m_progress)
        return;
    const qint64 total = m_exporting->total;
    const qint64 written = m_exporting->written;
    if (total > 0) {
        // A bar counts in ints: a million rows fit, a billion in thousands.
        m_progress->setMaximum(int(std::min<qint64>(total, std::numeric_limits<int>::max())));
        m_progress->setValue(int(std::min<qint64>(written, m_progress->maximum())));
    }
}

void LedgerViewer::finishExport(const QString &path, const Result<qint64> &result)
{
    const bool cancelled = m_exporting->cancel;
    m_progressTimer.stop();
    m_exporting.reset();
    m_progress->deleteLater();
    m_progress = nullptr;
    m_export->setEnabled(true);
    QString message;
    if (result)
        message = tr("Exported %n requests to %1.", nullptr, int(*result))
                      .arg(QDir::toNativeSeparators(path));
    else if (cancelled)
        message =
            tr("The export was cancelled; %1 was not written.").arg(QDir::toNativeSeparators(path));
    else
        message = tr("The export failed: %1").arg(result.error().message);
    m_status->setText(printable(message, 600));
    emit exportFinished(bool(result), message);
}

} // namespace arizuko::desktop
