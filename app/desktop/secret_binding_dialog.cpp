#include "secret_binding_dialog.h"

#include "policy/host_name.h"
#include "safe_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace arizuko::desktop {

SecretBindingDialog::SecretBindingDialog(const QString &name, const QString &folderLabel,
                                         const std::optional<secrets::SecretBinding> &current,
                                         QWidget *parent)
    : QDialog(parent)
    , m_hosts(new QLineEdit(this))
    , m_header(new QRadioButton(tr("In a &header:"), this))
    , m_template(new QLineEdit(this))
    , m_basic(new QRadioButton(tr("As HTTP Basic's &password (git over HTTPS)"), this))
    , m_validation(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("secretBindingDialog"));
    setWindowTitle(tr("Bind %1 of %2").arg(printable(name, 200), printable(folderLabel, 200)));
    m_hosts->setObjectName(QStringLiteral("bindHosts"));
    m_hosts->setAccessibleName(tr("Hosts the secret is bound to"));
    m_hosts->setPlaceholderText(tr("api.github.com, github.com"));
    m_header->setObjectName(QStringLiteral("bindHeader"));
    m_template->setObjectName(QStringLiteral("bindTemplate"));
    m_template->setAccessibleName(tr("Header template, {} where the secret goes"));
    m_template->setPlaceholderText(QStringLiteral("Authorization: Bearer {}"));
    m_basic->setObjectName(QStringLiteral("bindBasic"));
    m_validation->setObjectName(QStringLiteral("bindValidation"));
    m_validation->setWordWrap(true);
    m_validation->setTextFormat(Qt::PlainText);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Bind"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("bindOk"));

    if (current) {
        m_hosts->setText(current->hosts.join(QStringLiteral(", ")));
        if (!current->placement.basic)
            m_template->setText(secrets::placementText(current->placement));
    } else {
        m_template->setText(QStringLiteral("Authorization: Bearer {}"));
    }
    (current && current->placement.basic ? m_basic : m_header)->setChecked(true);

    auto *explanation = new QLabel(
        tr("A turn of a folder that sees %1 gets a placeholder under that name, never the "
           "value. The turn's proxy puts the value in requests to these hosts only, where "
           "you say; the placeholder sent anywhere else is blocked.")
            .arg(printable(name, 200)),
        this);
    explanation->setWordWrap(true);
    explanation->setTextFormat(Qt::PlainText);

    auto *form = new QFormLayout;
    form->addRow(tr("&Hosts:"), m_hosts);
    form->addRow(m_header, m_template);
    form->addRow(m_basic);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(explanation);
    layout->addLayout(form);
    layout->addWidget(m_validation);
    layout->addWidget(m_buttons);
    resize(560, sizeHint().height());

    connect(m_hosts, &QLineEdit::textChanged, this, &SecretBindingDialog::validate);
    connect(m_template, &QLineEdit::textChanged, this, &SecretBindingDialog::validate);
    connect(m_header, &QRadioButton::toggled, this, &SecretBindingDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

QStringList SecretBindingDialog::hosts() const
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return m_hosts->text().split(separators, Qt::SkipEmptyParts);
}

Result<secrets::SecretPlacement> SecretBindingDialog::placement() const
{
    if (m_basic->isChecked()) {
        secrets::SecretPlacement basic;
        basic.basic = true;
        return basic;
    }
    return secrets::parseHeaderTemplate(m_template->text());
}

void SecretBindingDialog::validate()
{
    m_template->setEnabled(m_header->isChecked());
    QString problem;
    const QStringList typed = hosts();
    if (typed.isEmpty())
        problem = tr("Name at least one host.");
    for (const QString &host : typed) {
        if (const Result<QString> target = policy::normalizeRuleTarget(host);
            !target && problem.isEmpty())
            problem = target.error().message;
    }
    if (const Result<secrets::SecretPlacement> where = placement(); !where && problem.isEmpty())
        problem = where.error().message;
    m_validation->setProperty("refused", !problem.isEmpty());
    m_validation->setText(problem.isEmpty()
                              ? tr("The proxy will put the value into requests to %1.")
                                    .arg(printable(typed.join(QStringLiteral(", ")), 400))
                              : tr("Refused: %1").arg(printable(problem, 400)));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace arizuko::desktop
