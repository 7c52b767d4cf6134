#include "routes_editor.h"

#include "editor_widgets.h"
#include "engine/workspace.h"
#include "models/route_model.h"
#include "safe_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace arizuko::desktop {

RoutesEditor::RoutesEditor(engine::Workspace &workspace, QWidget *parent)
    : QDialog(parent)
    , m_model(workspace.make<models::RouteModel>(this))
    , m_table(makeReadOnlyTable(this, QStringLiteral("routes"),
                                tr("Routes in the order they are tried; drag a row to move it")))
    , m_seq(new QSpinBox(this))
    , m_match(new QLineEdit(this))
    , m_target(new QLineEdit(this))
    , m_validation(new QLabel(this))
    , m_add(new QPushButton(tr("&Add route"), this))
    , m_remove(new QPushButton(tr("&Remove route"), this))
    , m_message(new QLineEdit(this))
    , m_verdict(new QLabel(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("routesEditor"));
    setWindowTitle(tr("Routes"));
    m_table->setModel(m_model);
    m_table->setDragEnabled(true);
    m_table->setAcceptDrops(true);
    m_table->setDropIndicatorShown(true);
    m_table->setDragDropMode(QAbstractItemView::InternalMove);
    m_table->setDefaultDropAction(Qt::MoveAction);
    m_table->setDragDropOverwriteMode(false);
    m_seq->setObjectName(QStringLiteral("seq"));
    m_seq->setAccessibleName(tr("Order"));
    m_seq->setRange(0, 1000000);
    m_seq->setValue(100);
    m_match->setObjectName(QStringLiteral("match"));
    m_match->setAccessibleName(tr("Match"));
    m_match->setPlaceholderText(tr("platform=telegram chat=team-*  (empty: every message)"));
    m_target->setObjectName(QStringLiteral("target"));
    m_target->setAccessibleName(tr("Target folder"));
    m_target->setPlaceholderText(tr("corp/eng or corp/eng#observe"));
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setAccessibleName(tr("Test message attributes"));
    m_message->setPlaceholderText(tr("platform=telegram chat=team-eng"));
    m_add->setObjectName(QStringLiteral("add"));
    m_remove->setObjectName(QStringLiteral("remove"));
    m_remove->setEnabled(false);
    for (QLabel *label : {m_validation, m_verdict, m_status}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
    }
    m_validation->setObjectName(QStringLiteral("validation"));
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_status->setObjectName(QStringLiteral("status"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Order:"), m_seq);
    form->addRow(tr("&Match:"), m_match);
    form->addRow(tr("&Folder:"), m_target);
    form->addRow(m_validation);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_add);
    buttonRow->addWidget(m_remove);
    buttonRow->addStretch();
    form->addRow(buttonRow);
    auto *formBox = new QGroupBox(tr("New route (lower order is tried first)"), this);
    formBox->setLayout(form);
    auto *testBox = new QGroupBox(tr("Test a message"), this);
    auto *testLayout = new QFormLayout(testBox);
    testLayout->addRow(tr("&Attributes:"), m_message);
    testLayout->addRow(m_verdict);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(formBox);
    layout->addWidget(testBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(820, 600);

    connect(m_match, &QLineEdit::textChanged, this, &RoutesEditor::validate);
    connect(m_target, &QLineEdit::textChanged, this, &RoutesEditor::validate);
    connect(m_add, &QPushButton::clicked, this, &RoutesEditor::addRoute);
    connect(m_remove, &QPushButton::clicked, this, &RoutesEditor::removeRoute);
    connect(m_message, &QLineEdit::textChanged, this, &RoutesEditor::testMessage);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_remove->setEnabled(false);
        m_table->resizeColumnsToContents();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_remove->setEnabled(m_table->currentIndex().isValid()); });
    connect(m_model, &models::RouteModel::moveRefused, this, [this](const QString &message) {
        m_status->setText(tr("Not moved: %1").arg(printable(message, 400)));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &RoutesEditor::testMessage);
    connect(m_model, &models::RouteModel::failed, this,
            [this](const Error &error) { m_status->setText(printable(error.message, 400)); });
    connect(&workspace, &engine::Workspace::routesChanged, m_model, &models::RouteModel::reload);
    m_model->reload();
    validate();
}

void RoutesEditor::validate()
{
    if (m_target->text().isEmpty()) {
        m_validation->setText(tr("Type the folder the matching messages go to."));
        m_add->setEnabled(false);
        return;
    }
    policy::Route route{0, m_seq->value(), m_match->text().simplified(), m_target->text()};
    QString error;
    if (const auto predicates = policy::parseRouteMatch(route.match); !predicates)
        error = predicates.error().message;
    else if (const auto split = policy::splitRouteTarget(route); !split)
        error = split.error().message;
    m_validation->setText(error.isEmpty() ? tr("Will add: order %1, %2 \u2192 %3")
                                                .arg(QString::number(route.seq),
                                                     route.match.isEmpty() ? tr("every message")
                                                                           : route.match,
                                                     route.target)
                                          : tr("Refused: %1").arg(printable(error, 400)));
    m_add->setEnabled(error.isEmpty() && !m_adding);
}

void RoutesEditor::addRoute()
{
    m_adding = true;
    m_add->setEnabled(false);
    m_model->add(m_seq->value(), m_match->text(), m_target->text(),
                 [this](const Result<policy::Route> &added) {
                     m_adding = false;
                     validate();
                     if (!added) {
                         m_status->setText(
                             tr("Not added: %1").arg(printable(added.error().message, 400)));
                         return;
                     }
                     m_status->setText(tr("Added route #%1.").arg(added->id));
                 });
}

void RoutesEditor::removeRoute()
{
    m_remove->setEnabled(false);
    m_model->removeRoute(m_table->currentIndex().row(), [this](const Result<void> &removed) {
        if (!removed) {
            m_status->setText(printable(removed.error().message, 400));
            m_remove->setEnabled(m_table->currentIndex().isValid());
            return;
        }
        m_status->setText(tr("Removed the route."));
    });
}

void RoutesEditor::testMessage()
{
    const Result<policy::MessageAttributes> attributes =
        models::RouteModel::parseAttributes(m_message->text());
    if (!attributes) {
        m_verdict->setText(tr("Not a message: %1").arg(printable(attributes.error().message, 400)));
        return;
    }
    const std::optional<policy::RouteMatch> winner = m_model->test(*attributes);
    if (!winner) {
        m_verdict->setText(tr("No route takes this message: it is not delivered to any folder."));
        return;
    }
    const policy::RouteMatch &found = *winner;
    m_verdict->setText(tr("Goes to %1%2 by route #%3 (order %4, the first whose predicates all "
                          "match); the table says why each earlier route did not.")
                           .arg(printable(found.folder),
                                found.observe ? tr(" (observe only)") : QString(),
                                QString::number(found.route.id), QString::number(found.route.seq)));
}

} // namespace arizuko::desktop
