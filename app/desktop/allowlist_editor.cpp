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
#include <utility>

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
    , m_methods(new QLineEdit(this))
    , m_path(new QLineEdit(this))
    , m_add(new QPushButton(tr("&Add rule"), this))
    , m_edit(new QPushButton(tr("&Edit rule"), this))
    , m_remove(new QPushButton(tr("&Remove rule"), this))
    , m_validation(new QLabel(this))
    , m_testHost(new QLineEdit(this))
    , m_verdict(new QLabel(this))
    , m_requestMethod(new QComboBox(this))
    , m_requestHost(new QLineEdit(this))
    , m_requestPath(new QLineEdit(this))
    , m_requestVerdict(new QLabel(this))
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
    m_methods->setObjectName(QStringLiteral("methods"));
    m_methods->setAccessibleName(tr("Methods the rule covers"));
    m_methods->setPlaceholderText(tr("any; or GET,HEAD"));
    m_path->setObjectName(QStringLiteral("path"));
    m_path->setAccessibleName(tr("Path pattern the rule covers"));
    m_path->setPlaceholderText(tr("any; or /repos/acme/**"));
    m_add->setObjectName(QStringLiteral("add"));
    m_edit->setObjectName(QStringLiteral("edit"));
    m_edit->setEnabled(false);
    m_remove->setObjectName(QStringLiteral("remove"));
    m_validation->setObjectName(QStringLiteral("validation"));
    m_validation->setAccessibleName(tr("What the rule will be stored as"));
    m_validation->setWordWrap(true);
    m_validation->setTextFormat(Qt::PlainText);

    m_testHost->setObjectName(QStringLiteral("testHost"));
    m_testHost->setAccessibleName(tr("Host to test"));
    m_testHost->setPlaceholderText(tr("api.github.com"));
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setAccessibleName(tr("What the proxy would do"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);

    m_requestMethod->setObjectName(QStringLiteral("requestMethod"));
    m_requestMethod->setAccessibleName(tr("Method of the request to test"));
    m_requestMethod->setEditable(true);
    m_requestMethod->setInsertPolicy(QComboBox::NoInsert);
    m_requestMethod->addItems({QStringLiteral("GET"), QStringLiteral("HEAD"),
                               QStringLiteral("POST"), QStringLiteral("PUT"),
                               QStringLiteral("PATCH"), QStringLiteral("DELETE")});
    m_requestHost->setObjectName(QStringLiteral("requestHost"));
    m_requestHost->setAccessibleName(tr("Host of the request to test"));
    m_requestHost->setPlaceholderText(tr("api.github.com"));
    m_requestPath->setObjectName(QStringLiteral("requestPath"));
    m_requestPath->setAccessibleName(tr("Path of the request to test"));
    m_requestPath->setPlaceholderText(tr("/repos/acme/tool/pulls"));
    m_requestVerdict->setObjectName(QStringLiteral("requestVerdict"));
    m_requestVerdict->setAccessibleName(tr("What the proxy would do with the request"));
    m_requestVerdict->setWordWrap(true);
    m_requestVerdict->setTextFormat(Qt::PlainText);

    m_effective->setObjectName(QStringLiteral("effective"));
    m_effective->setAccessibleName(tr("The next turn's proxy arguments"));
    m_effective->setReadOnly(true);
    m_effective->setFixedHeight(fontMetrics().lineSpacing() * 6);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto *top = new QFormLayout;
    top->addRow(tr("&Folder:"), m_folder);

    // kind, methods, host, path: the order a rule is written in.
    auto *ruleRow = labelledRow(
        this, {{tr("&Methods:"), m_methods}, {tr("&Host:"), m_host}, {tr("&Path:"), m_path}});
    ruleRow->insertWidget(0, m_kind);
    ruleRow->setStretchFactor(m_methods, 1);
    ruleRow->setStretchFactor(m_host, 2);
    ruleRow->setStretchFactor(m_path, 2);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_validation, 1);
    buttonRow->addWidget(m_add);
    buttonRow->addWidget(m_edit);
    buttonRow->addWidget(m_remove);

    auto *testBox = new QGroupBox(tr("Test a host"), this);
    auto *testLayout = new QFormLayout(testBox);
    testLayout->addRow(tr("&Test host:"), m_testHost);
    testLayout->addRow(m_verdict);

    auto *requestBox = new QGroupBox(tr("Test a request"), this);
    auto *requestLayout = new QFormLayout(requestBox);
    requestLayout->addRow(tr("Metho&d:"), m_requestMethod);
    requestLayout->addRow(tr("Ho&st:"), m_requestHost);
    requestLayout->addRow(tr("Path &in the request:"), m_requestPath);
    requestLayout->addRow(m_requestVerdict);
    auto *testsRow = new QHBoxLayout;
    testsRow->addWidget(testBox, 1);
    testsRow->addWidget(requestBox, 1);

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

    // Tab walks the form in the order a rule is written, then the tests.
    const QList<QWidget *> tabOrder{m_kind,          m_methods,     m_host,       m_path,
                                    m_add,           m_edit,        m_remove,     m_testHost,
                                    m_requestMethod, m_requestHost, m_requestPath};
    for (qsizetype i = 1; i < tabOrder.size(); ++i)
        setTabOrder(tabOrder.at(i - 1), tabOrder.at(i));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addLayout(ruleRow);
    layout->addLayout(buttonRow);
    layout->addLayout(testsRow);
    auto *settingsRow = new QHBoxLayout;
    settingsRow->addWidget(unlistedBox, 2);
    settingsRow->addWidget(ledgerBox, 1);
    layout->addLayout(settingsRow);
    layout->addWidget(effectiveBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(960, 860);

    connect(m_folder, &QComboBox::currentIndexChanged, this, &AllowlistEditor::selectFolder);
    connect(m_unlisted, &QComboBox::currentIndexChanged, this, &AllowlistEditor::saveUnlisted);
    connect(m_askTimeout, &QSpinBox::editingFinished, this, &AllowlistEditor::saveUnlisted);
    connect(m_retention, &QSpinBox::editingFinished, this, &AllowlistEditor::saveRetention);
    for (QLineEdit *field : {m_methods, m_host, m_path}) {
        connect(field, &QLineEdit::textChanged, this, &AllowlistEditor::validate);
        connect(field, &QLineEdit::returnPressed, this, &AllowlistEditor::addRule);
    }
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AllowlistEditor::validate);
    connect(m_add, &QPushButton::clicked, this, &AllowlistEditor::addRule);
    connect(m_edit, &QPushButton::clicked, this, &AllowlistEditor::toggleEdit);
    connect(m_remove, &QPushButton::clicked, this, &AllowlistEditor::removeRule);
    connect(m_testHost, &QLineEdit::textChanged, this, &AllowlistEditor::testHost);
    connect(m_requestMethod, &QComboBox::currentTextChanged, this, &AllowlistEditor::testRequest);
    connect(m_requestHost, &QLineEdit::textChanged, this, &AllowlistEditor::testRequest);
    connect(m_requestPath, &QLineEdit::textChanged, this, &AllowlistEditor::testRequest);
    // A reload (after any change, also another process's) keeps the chosen
    // rule chosen, so a button pressed next acts on what the user chose.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const int row = m_table->currentIndex().row();
        m_chosenRule = row >= 0 && row < m_model->effective().rules.size()
                           ? m_model->effective().rules.at(row).id
                           : 0;
    });
    connect(m_model, &models::NetworkRuleModel::reloaded, this, [this] {
        const QList<policy::NetworkRule> &rules = m_model->effective().rules;
        for (qsizetype row = 0; m_chosenRule != 0 && row < rules.size(); ++row) {
            if (rules.at(row).id == m_chosenRule)
                m_table->selectRow(int(row));
        }
        m_table->resizeColumnsToContents();
        updateRowButtons();
        showEffective();
        testHost();
        testRequest();
    });
    connect(m_model, &models::NetworkRuleModel::failed, this,
            [this](const Error &error) { setStatus(printable(error.message, 400), true); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AllowlistEditor::updateRowButtons);
    // Another process (arizukoctl) changed rules, an egress grant or folders.
    connect(&workspace, &engine::Workspace::rulesChanged, this, &AllowlistEditor::reload);
    connect(&workspace, &engine::Workspace::grantsChanged, this, &AllowlistEditor::reload);
    connect(&workspace, &engine::Workspace::foldersChanged, this,
            [this] { loadFolders(m_model->folder()); });

    // The rules show (and an add goes to the folder) before the chooser is filled.
    m_model->setFolder(folder);
    loadFolders(folder);
    validate();
    testRequest();
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
    stopEditing();
    updateRowButtons();
    loadUnlisted();
    loadRetention();
}

void AllowlistEditor::reload()
{
    m_model->reload();
    updateRowButtons();
}

Result<policy::NetworkRule> AllowlistEditor::typedRule() const
{
    return models::NetworkRuleModel::acceptedRule(policy::RuleKind(m_kind->currentData().toInt()),
                                                  m_host->text(), m_methods->text(),
                                                  m_path->text());
}

void AllowlistEditor::validate()
{
    if (m_host->text().isEmpty()) {
        m_validation->setProperty("refused", false);
        m_validation->setText(
            tr("Type a host name or an IP address; a name covers its subdomains. Methods or a "
               "path narrow the rule to those requests, and the host becomes inspected."));
        m_add->setEnabled(false);
        return;
    }
    const Result<policy::NetworkRule> accepted = typedRule();
    m_add->setEnabled(accepted && !m_adding);
    m_validation->setProperty("refused", !accepted);
    if (!accepted)
        m_validation->setText(tr("Refused: %1").arg(printable(accepted.error().message, 400)));
    else if (!accepted->isRequestRule())
        m_validation->setText(tr("Will be stored as %1").arg(accepted->target));
    else
        m_validation->setText(
            tr("Will be stored as %1 %2 %3: the rule covers those requests only, and the proxy "
               "inspects every request to %2.")
                .arg(accepted->methods, accepted->target, printable(accepted->path, 400)));
}

void AllowlistEditor::addRule()
{
    if (m_adding)
        return;
    // The engine validates again on write: the button's state is a hint, not a
    // gate (a refusal here is shown as the engine's would be).
    const Result<policy::NetworkRule> wanted = typedRule();
    const bool replacing = m_editing.has_value();
    const auto finished = [this, replacing](const Result<policy::AddedRule> &added) {
        m_adding = false;
        if (!added) {
            setStatus((replacing ? tr("Not changed: %1") : tr("Not added: %1"))
                          .arg(printable(added.error().message, 400)),
                      true);
            validate();
            return;
        }
        const QString rule = printable(policy::ruleText(added->rule), 400);
        if (replacing)
            setStatus(tr("Changed to %1; it applies from the folder's next turn.").arg(rule),
                      false);
        else if (added->created)
            setStatus(tr("Added %1; it applies from the folder's next turn.").arg(rule), false);
        else
            setStatus(tr("%1 was already a rule of this folder.").arg(rule), false);
        stopEditing();
        for (QLineEdit *field : {m_methods, m_host, m_path})
            field->clear();
        validate();
    };
    if (!wanted) {
        finished(wanted.error());
        return;
    }
    m_adding = true;
    m_add->setEnabled(false);
    if (replacing)
        m_model->replace(*m_editing, *wanted, finished);
    else
        m_model->add(*wanted, finished);
}

void AllowlistEditor::toggleEdit()
{
    if (m_editing) {
        stopEditing();
        for (QLineEdit *field : {m_methods, m_host, m_path})
            field->clear();
        setStatus({}, false);
        return;
    }
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid() || !current.data(models::NetworkRuleModel::OwnRole).toBool())
        return;
    const policy::NetworkRule rule = m_model->effective().rules.at(current.row());
    m_editing = rule;
    m_kind->setCurrentIndex(m_kind->findData(int(rule.kind)));
    m_methods->setText(rule.methods);
    m_host->setText(rule.target);
    m_path->setText(rule.path);
    m_add->setText(tr("Sa&ve change"));
    m_edit->setText(tr("Ca&ncel edit"));
    updateRowButtons();
    setStatus(
        tr("Editing %1: change it above, then save.").arg(printable(policy::ruleText(rule), 400)),
        false);
    m_methods->setFocus();
}

void AllowlistEditor::stopEditing()
{
    m_editing.reset();
    m_add->setText(tr("&Add rule"));
    m_edit->setText(tr("&Edit rule"));
    updateRowButtons();
}

void AllowlistEditor::updateRowButtons()
{
    const QModelIndex current = m_table->currentIndex();
    const bool own = current.isValid() && current.data(models::NetworkRuleModel::OwnRole).toBool();
    m_remove->setEnabled(own && !m_editing);
    m_edit->setEnabled(own || m_editing);
}

void AllowlistEditor::removeRule()
{
    const int row = m_table->currentIndex().row();
    if (row < 0 || row >= m_model->effective().rules.size())
        return;
    const QString rule = printable(policy::ruleText(m_model->effective().rules.at(row)), 400);
    m_remove->setEnabled(false);
    m_model->removeRule(row, [this, rule](const Result<void> &removed) {
        if (!removed) {
            setStatus(printable(removed.error().message, 400), true);
            updateRowButtons();
            return;
        }
        setStatus(tr("Removed %1.").arg(rule), false);
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

void AllowlistEditor::testRequest()
{
    const QString host = m_requestHost->text();
    if (host.isEmpty()) {
        m_requestVerdict->setText(
            tr("Type a method, a host and a path to see whether this folder's proxy would let "
               "the request through, and which rule decides."));
        return;
    }
    const Result<policy::RequestVerdict> verdict =
        m_model->testRequest(m_requestMethod->currentText(), host, m_requestPath->text());
    if (!verdict) {
        m_requestVerdict->setText(
            tr("Not a request: %1").arg(printable(verdict.error().message, 400)));
        return;
    }
    QString decidedBy;
    if (verdict->decidingRule) {
        const policy::NetworkRule &rule = *verdict->decidingRule;
        const QString text = printable(policy::ruleText(rule), 400);
        decidedBy = rule.folder == m_model->folder()
                        ? tr("Decided by %1, a rule of this folder.").arg(text)
                        : tr("Decided by %1, inherited from %2.")
                              .arg(text, printable(models::folderLabel(rule.folder)));
    } else if (verdict->egressGrant) {
        decidedBy = tr("Decided by the folder's egress grant.");
    } else {
        decidedBy = tr("No rule allows it.");
    }
    const QString inspected =
        verdict->inspected
            ? tr("%1 is inspected: the proxy judges each request to it.").arg(verdict->host)
            : tr("%1 is not inspected: its allow and deny entries decide for the whole "
                 "connection.")
                  .arg(verdict->host);
    m_requestVerdict->setText(
        QStringList{verdict->allowed ? tr("ALLOWED") : tr("DENIED"), decidedBy, inspected,
                    tr("The proxy's reason: %1").arg(printable(verdict->reason, 400))}
            .join(QLatin1Char('\n')));
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
    // Another folder's setting is not changed while this one's is read; the
    // same folder's stays open to change (a save then supersedes the read).
    if (folder.isEmpty() || folder != m_unlistedFolder) {
        m_unlisted->setEnabled(false);
        m_askTimeout->setEnabled(false);
    }
    if (folder.isEmpty())
        return;
    // A read beside a save could see the store before it: read after it.
    if (m_unlistedSaves > 0) {
        m_unlistedReadAfterSave = true;
        return;
    }
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
            m_unlistedFolder = folder;
            m_unlisted->setEnabled(true);
            m_askTimeout->setEnabled(true);
        });
}

void AllowlistEditor::saveUnlisted()
{
    const QString folder = m_model->folder();
    if (m_loadingUnlisted || folder.isEmpty() || !m_unlisted->isEnabled())
        return;
    // A read still in flight predates this choice: it must not show the old one.
    ++m_unlistedLoads;
    folders::NetworkSettings settings;
    settings.unlisted = folders::unlistedHostsFromName(m_unlisted->currentData().toString());
    if (m_askTimeout->value() != m_askTimeout->minimum())
        settings.askTimeout = std::chrono::seconds(m_askTimeout->value());
    ++m_unlistedSaves;
    m_workspace.setNetworkSettings(folder, settings, this, [this](const Result<void> &set) {
        if (!set)
            setStatus(printable(set.error().message, 400), true);
        else
            setStatus(tr("Saved; the folder's next turn starts with it."), false);
        if (--m_unlistedSaves == 0 && std::exchange(m_unlistedReadAfterSave, false))
            loadUnlisted();
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
    ++m_retentionLoads; // as for the unlisted hosts' setting
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
