#include "allowlist_editor.h"

#include "editor_widgets.h"
#include "engine/workspace.h"
#include "ledger/ledger.h"
#include "models/network_rule_model.h"
#include "safe_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

// Inherited rows in italics and the disabled colour: visibly not this
// folder's, so nobody looks for a way to edit them here.
class InheritedRowDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(models::NetworkRuleModel::OwnRole).toBool())
            return;
        option->font.setItalic(true);
        option->palette.setColor(QPalette::Text,
                                 option->palette.color(QPalette::Disabled, QPalette::Text));
    }
};

} // namespace

AllowlistEditor::AllowlistEditor(engine::Workspace &workspace, const QString &folder,
                                 QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_model(workspace.make<models::NetworkRuleModel>(this))
    , m_folder(new QComboBox(this))
    , m_table(
          makeReadOnlyTable(this, QStringLiteral("rules"), tr("Rules that apply to the folder")))
    , m_host(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_add(new QPushButton(tr("&Add rule"), this))
    , m_remove(new QPushButton(tr("&Remove rule"), this))
    , m_validation(new QLabel(this))
    , m_testHost(new QLineEdit(this))
    , m_verdict(new QLabel(this))
    , m_effective(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_unlisted(new QComboBox(this))
    , m_askTimeout(new QSpinBox(this))
    , m_retention(new QSpinBox(this))
{
    setWindowTitle(tr("Allowlist"));
    setObjectName(QStringLiteral("allowlistEditor"));

    m_folder->setObjectName(QStringLiteral("folder"));
    m_folder->setAccessibleName(tr("Folder"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new InheritedRowDelegate(m_table));

    m_host->setObjectName(QStringLiteral("host"));
    m_host->setAccessibleName(tr("Host to add"));
    m_host->setPlaceholderText(tr("github.com, *.example.org, 203.0.113.7"));
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->setAccessibleName(tr("Allow or deny"));
    m_kind->addItem(tr("Allow"), int(policy::RuleKind::Allow));
    m_kind->addItem(tr("Deny"), int(policy::RuleKind::Deny));
    m_add->setObjectName(QStringLiteral("add"));
    m_remove->setObjectName(QStringLiteral("remove"));
    m_validation->setObjectName(QStringLiteral("validation"));
    m_validation->setAccessibleName(tr("What the host will be stored as"));
    m_validation->setWordWrap(true);
    m_validation->setTextFormat(Qt::PlainText);

    m_testHost->setObjectName(QStringLiteral("testHost"));
    m_testHost->setAccessibleName(tr("Host to test"));
    m_testHost->setPlaceholderText(tr("api.github.com"));
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setAccessibleName(tr("What the proxy would do"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);

    m_effective->setObjectName(QStringLiteral("effective"));
    m_effective->setAccessibleName(tr("The next turn's proxy arguments"));
    m_effective->setReadOnly(true);
    m_effective->setFixedHeight(fontMetrics().lineSpacing() * 6);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto *top = new QFormLayout;
    top->addRow(tr("&Folder:"), m_folder);

    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_kind);
    addRow->addWidget(m_host, 1);
    addRow->addWidget(m_add);
    addRow->addWidget(m_remove);
    auto *hostLabel = new QLabel(tr("&Host:"), this);
    hostLabel->setBuddy(m_host);
    addRow->insertWidget(1, hostLabel);

    auto *testBox = new QGroupBox(tr("Test a host"), this);
    auto *testLayout = new QFormLayout(testBox);
    testLayout->addRow(tr("&Test host:"), m_testHost);
    testLayout->addRow(m_verdict);

    auto *effectiveBox = new QGroupBox(tr("The next turn's proxy starts with"), this);
    auto *effectiveLayout = new QVBoxLayout(effectiveBox);
    effectiveLayout->addWidget(m_effective);

    m_unlisted->setObjectName(QStringLiteral("unlisted"));
    m_unlisted->setAccessibleName(tr("What the folder's turns do with hosts on no allow entry"));
    m_unlisted->addItem(tr("Inherited"), QString());
    m_unlisted->addItem(tr("Deny at once"),
                        folders::unlistedHostsName(folders::UnlistedHosts::Deny));
    m_unlisted->addItem(tr("Ask while the request waits"),
                        folders::unlistedHostsName(folders::UnlistedHosts::Ask));
    m_askTimeout->setObjectName(QStringLiteral("askTimeout"));
    m_askTimeout->setAccessibleName(tr("Seconds a question waits before the request is denied"));
    // The minimum less one stands for "inherited".
    m_askTimeout->setRange(int(folders::minimumAskTimeout.count()) - 1,
                           int(folders::maximumAskTimeout.count()));
    m_askTimeout->setSpecialValueText(tr("Inherited"));
    m_askTimeout->setSuffix(tr(" s"));
    auto *unlistedBox = new QGroupBox(tr("Hosts on no allow entry"), this);
    auto *unlistedLayout = new QFormLayout(unlistedBox);
    unlistedLayout->addRow(tr("&Unlisted hosts:"), m_unlisted);
    unlistedLayout->addRow(tr("&Question timeout:"), m_askTimeout);

    m_retention->setObjectName(QStringLiteral("ledgerRetention"));
    m_retention->setAccessibleName(tr("Days the egress ledger keeps the folder's requests"));
    m_retention->setRange(1, ledger::maxRetentionDays);
    m_retention->setSuffix(tr(" days"));
    auto *ledgerBox = new QGroupBox(tr("Egress ledger"), this);
    auto *ledgerLayout = new QFormLayout(ledgerBox);
    ledgerLayout->addRow(tr("&Keep requests for:"), m_retention);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addLayout(addRow);
    layout->addWidget(m_validation);
    layout->addWidget(testBox);
    layout->addWidget(unlistedBox);
    layout->addWidget(ledgerBox);
    layout->addWidget(effectiveBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 680);

    connect(m_folder, &QComboBox::currentIndexChanged, this, &AllowlistEditor::selectFolder);
    connect(m_unlisted, &QComboBox::currentIndexChanged, this, &AllowlistEditor::saveUnlisted);
    connect(m_askTimeout, &QSpinBox::editingFinished, this, &AllowlistEditor::saveUnlisted);
    connect(m_retention, &QSpinBox::editingFinished, this, &AllowlistEditor::saveRetention);
    connect(m_host, &QLineEdit::textChanged, this, &AllowlistEditor::validate);
    connect(m_host, &QLineEdit::returnPressed, this, &AllowlistEditor::addRule);
    connect(m_add, &QPushButton::clicked, this, &AllowlistEditor::addRule);
    connect(m_remove, &QPushButton::clicked, this, &AllowlistEditor::removeRule);
    connect(m_testHost, &QLineEdit::textChanged, this, &AllowlistEditor::testHost);
    connect(m_model, &models::NetworkRuleModel::reloaded, this, [this] {
        m_table->resizeColumnsToContents();
        showEffective();
        testHost();
    });
    connect(m_model, &models::NetworkRuleModel::failed, this,
            [this](const Error &error) { setStatus(printable(error.message, 400), true); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        m_remove->setEnabled(current.isValid() &&
                             current.data(models::NetworkRuleModel::OwnRole).toBool());
    });
    // Another process (arizukoctl) changed rules, an egress grant or folders.
    connect(&workspace, &engine::Workspace::rulesChanged, this, &AllowlistEditor::reload);
    connect(&workspace, &engine::Workspace::grantsChanged, this, &AllowlistEditor::reload);
    connect(&workspace, &engine::Workspace::foldersChanged, this,
            [this] { loadFolders(m_model->folder()); });

    // The rules show (and an add goes to the folder) before the chooser is filled.
    m_model->setFolder(folder);
    loadFolders(folder);
    validate();
    loadUnlisted();
    loadRetention();
}

AllowlistEditor::~AllowlistEditor() = default;

void AllowlistEditor::loadFolders(const QString &select)
{
    fillFolderChooser(m_folder, m_workspace, models::folderLabel({}), select,
                      [this](const Result<void> &filled) {
                          if (!filled) {
                              setStatus(filled.error().message, true);
                              return;
                          }
                          selectFolder();
                      });
}

void AllowlistEditor::selectFolder()
{
    const QString folder = m_folder->currentData().toString();
    setWindowTitle(tr("Allowlist of %1").arg(printable(models::folderLabel(folder))));
    m_model->setFolder(folder);
    m_remove->setEnabled(false);
    loadUnlisted();
    loadRetention();
}

void AllowlistEditor::reload()
{
    m_model->reload();
    m_remove->setEnabled(false);
}

void AllowlistEditor::validate()
{
    const QString text = m_host->text();
    if (text.isEmpty()) {
        m_validation->setText(
            tr("Type a host name or an IP address; a name covers its subdomains."));
        m_add->setEnabled(false);
        return;
    }
    const Result<QString> accepted = models::NetworkRuleModel::acceptedForm(text);
    m_add->setEnabled(accepted && !m_adding);
    m_validation->setProperty("refused", !accepted);
    m_validation->setText(accepted
                              ? tr("Will be stored as %1").arg(*accepted)
                              : tr("Refused: %1").arg(printable(accepted.error().message, 400)));
}

void AllowlistEditor::addRule()
{
    if (m_adding)
        return;
    const auto kind = policy::RuleKind(m_kind->currentData().toInt());
    m_adding = true;
    m_add->setEnabled(false);
    // The engine validates again on write: the button's state is a hint, not a gate.
    m_model->add(m_host->text(), kind, [this, kind](const Result<policy::AddedRule> &added) {
        m_adding = false;
        if (!added) {
            setStatus(tr("Not added: %1").arg(printable(added.error().message, 400)), true);
            validate();
            return;
        }
        setStatus(added->created ? tr("Added %1 %2; it applies from the folder's next turn.")
                                       .arg(policy::ruleKindName(kind), added->rule.target)
                                 : tr("%1 %2 was already a rule of this folder.")
                                       .arg(policy::ruleKindName(kind), added->rule.target),
                  false);
        m_host->clear();
        validate();
    });
}

void AllowlistEditor::removeRule()
{
    const int row = m_table->currentIndex().row();
    const QString target = m_table->currentIndex().siblingAtColumn(0)
                               .data(models::NetworkRuleModel::TargetRole).toString();
    m_remove->setEnabled(false);
    m_model->removeRule(row, [this, target](const Result<void> &removed) {
        if (!removed) {
            setStatus(printable(removed.error().message, 400), true);
            m_remove->setEnabled(
                m_table->currentIndex().data(models::NetworkRuleModel::OwnRole).toBool());
            return;
        }
        setStatus(tr("Removed the rule for %1.").arg(target), false);
    });
}

void AllowlistEditor::testHost()
{
    const QString host = m_testHost->text();
    if (host.isEmpty()) {
        m_verdict->setText(tr("Type a host to see what this folder's proxy would do with it."));
        return;
    }
    const Result<policy::HostVerdict> verdict = m_model->test(host);
    if (!verdict) {
        m_verdict->setText(tr("Not a host: %1").arg(printable(verdict.error().message, 400)));
        return;
    }
    m_verdict->setText((verdict->allowed ? tr("ALLOWED %1: %2") : tr("DENIED %1: %2"))
                           .arg(verdict->host, printable(verdict->reason, 400)));
}

void AllowlistEditor::showEffective()
{
    const policy::NetworkPolicy &policy = m_model->effective();
    QString text =
        QStringLiteral("arizuko-egress %1\n").arg(m_model->proxyArguments().join(QLatin1Char(' ')));
    text +=
        tr("allow: %1\n")
            .arg(policy.allow.isEmpty() ? tr("(none)") : policy.allow.join(QStringLiteral(", ")));
    text += tr("deny: %1\n")
                .arg(policy.deny.isEmpty() ? tr("(none)") : policy.deny.join(QStringLiteral(", ")));
    text += policy.allowAll ? tr("every other host: allowed by the egress grant")
                            : tr("every other host: denied");
    m_effective->setPlainText(text);
}

void AllowlistEditor::loadUnlisted()
{
    const QString folder = m_model->folder();
    // The base '' has no row to hold it: every folder's default is deny.
    m_unlisted->setEnabled(false);
    m_askTimeout->setEnabled(false);
    if (folder.isEmpty())
        return;
    const quint64 load = ++m_unlistedLoads;
    m_workspace.ownNetworkSettings(
        folder, this, [this, folder, load](const Result<folders::NetworkSettings> &own) {
            if (load != m_unlistedLoads || folder != m_model->folder())
                return;
            if (!own) {
                setStatus(printable(own.error().message, 400), true);
                return;
            }
            m_loadingUnlisted = true;
            m_unlisted->setCurrentIndex(m_unlisted->findData(
                own->unlisted ? folders::unlistedHostsName(*own->unlisted) : QString()));
            m_askTimeout->setValue(own->askTimeout ? int(own->askTimeout->count())
                                                   : m_askTimeout->minimum());
            m_loadingUnlisted = false;
            m_unlisted->setEnabled(true);
            m_askTimeout->setEnabled(true);
        });
}

void AllowlistEditor::saveUnlisted()
{
    const QString folder = m_model->folder();
    if (m_loadingUnlisted || folder.isEmpty() || !m_unlisted->isEnabled())
        return;
    folders::NetworkSettings settings;
    settings.unlisted = folders::unlistedHostsFromName(m_unlisted->currentData().toString());
    if (m_askTimeout->value() != m_askTimeout->minimum())
        settings.askTimeout = std::chrono::seconds(m_askTimeout->value());
    m_workspace.setNetworkSettings(folder, settings, this, [this](const Result<void> &set) {
        if (!set)
            setStatus(printable(set.error().message, 400), true);
        else
            setStatus(tr("Saved; the folder's next turn starts with it."), false);
    });
}

void AllowlistEditor::loadRetention()
{
    const QString folder = m_model->folder();
    m_retention->setEnabled(false);
    // Only the newest load fills it, as for the unlisted hosts' setting.
    const quint64 load = ++m_retentionLoads;
    m_workspace.ledgerRetention(folder, this, [this, folder, load](const Result<int> &days) {
        if (load != m_retentionLoads || folder != m_model->folder())
            return;
        if (!days) {
            setStatus(printable(days.error().message, 400), true);
            return;
        }
        m_retentionStored = *days;
        m_retention->setValue(*days);
        m_retention->setEnabled(true);
    });
}

void AllowlistEditor::saveRetention()
{
    const QString folder = m_model->folder();
    const int days = m_retention->value();
    // Leaving the field unchanged is no change (and no audit entry).
    if (!m_retention->isEnabled() || days == m_retentionStored)
        return;
    m_retentionStored = days;
    m_workspace.setLedgerRetention(folder, days, this, [this](const Result<void> &set) {
        if (!set)
            setStatus(printable(set.error().message, 400), true);
        else
            setStatus(tr("Saved; older requests are deleted when the engine starts and after "
                         "turns end."),
                      false);
    });
}

void AllowlistEditor::setStatus(const QString &text, bool error)
{
    m_status->setProperty("error", error);
    m_status->setText(text);
}

} // namespace arizuko::desktop
