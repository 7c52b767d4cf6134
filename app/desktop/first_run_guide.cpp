#include "first_run_guide.h"

#include "engine/workspace.h"
#include "guest_image_panel.h"
#include "safe_text.h"

#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

QLabel *makeText(QWidget *parent, const QString &objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

} // namespace

FirstRunGuide::FirstRunGuide(engine::Workspace &workspace, turns::RunnerSettings settings,
                             QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_settings(std::move(settings))
    , m_libvirt(makeText(this, QStringLiteral("libvirtCheck")))
    , m_libvirtTodo(makeText(this, QStringLiteral("libvirtTodo")))
    , m_imageTodo(makeText(this, QStringLiteral("imageTodo")))
    , m_model(makeText(this, QStringLiteral("modelCheck")))
    , m_modelTodo(makeText(this, QStringLiteral("modelTodo")))
    , m_image(new GuestImagePanel(m_settings.guestImageDirectory, this))
    , m_recheck(new QPushButton(tr("Check &again"), this))
    , m_demo(new QPushButton(tr("Run a &demo turn"), this))
    , m_status(makeText(this, QStringLiteral("status")))
{
    setObjectName(QStringLiteral("firstRunGuide"));
    setWindowTitle(tr("Welcome to Arizuko Desktop"));
    auto *intro = new QLabel(tr("Each agent turn runs in its own throw-away virtual machine. Three "
                                "things are needed; this guide checks them and says what to do "
                                "for each one that is missing."),
                             this);
    intro->setWordWrap(true);

    auto *libvirtBox = new QGroupBox(tr("1. libvirt access"), this);
    auto *libvirtLayout = new QVBoxLayout(libvirtBox);
    libvirtLayout->addWidget(m_libvirt);
    libvirtLayout->addWidget(m_libvirtTodo);

    auto *imageBox = new QGroupBox(tr("2. The guest image"), this);
    auto *imageLayout = new QVBoxLayout(imageBox);
    imageLayout->addWidget(m_image);
    imageLayout->addWidget(m_imageTodo);

    auto *modelBox = new QGroupBox(tr("3. A model"), this);
    auto *modelLayout = new QVBoxLayout(modelBox);
    auto *openSecrets = new QPushButton(tr("Open &secrets…"), this);
    openSecrets->setObjectName(QStringLiteral("openSecrets"));
    modelLayout->addWidget(m_model);
    modelLayout->addWidget(m_modelTodo);
    modelLayout->addWidget(openSecrets, 0, Qt::AlignLeft);

    auto *demoBox = new QGroupBox(tr("4. Try it"), this);
    auto *demoLayout = new QVBoxLayout(demoBox);
    auto *demoText = new QLabel(
        tr("A demo turn runs the real agent in a real VM against the built-in demo model (no "
           "key, no network to a model): it runs a command, reaches an allowed host and is "
           "denied another. It runs in a new folder \"demo\" and shows in the main window."),
        this);
    demoText->setWordWrap(true);
    m_demo->setObjectName(QStringLiteral("runDemo"));
    m_demo->setEnabled(false);
    demoLayout->addWidget(demoText);
    demoLayout->addWidget(m_demo, 0, Qt::AlignLeft);

    m_recheck->setObjectName(QStringLiteral("recheck"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_recheck, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_recheck, &QPushButton::clicked, this, &FirstRunGuide::recheck);
    connect(m_demo, &QPushButton::clicked, this, &FirstRunGuide::startDemo);
    connect(openSecrets, &QPushButton::clicked, this, &FirstRunGuide::secretsEditorRequested);
    connect(m_image, &GuestImagePanel::statusChanged, this,
            [this](const host::GuestImageStatus &status) {
                m_imageTodo->setText(status.present
                                         ? tr("Ready.")
                                         : tr("To do: press Build guest image above, or run "
                                              "`arizukoctl image build` in a terminal."));
                m_demo->setEnabled(m_machineReady && status.present && !m_creatingDemo);
            });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(libvirtBox);
    layout->addWidget(imageBox);
    layout->addWidget(modelBox);
    layout->addWidget(demoBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 720);
    recheck();
}

void FirstRunGuide::recheck()
{
    if (m_checking)
        return;
    m_checking = true;
    m_recheck->setEnabled(false);
    m_libvirt->setText(tr("Checking %1…").arg(m_settings.libvirtUri));
    m_model->setText(tr("Checking…"));
    m_image->refresh();
    m_workspace.checkFirstRun(m_settings, this, [this](const turns::FirstRunCheck &check) {
        m_checking = false;
        showCheck(check);
    });
}

void FirstRunGuide::showCheck(const turns::FirstRunCheck &check)
{
    m_recheck->setEnabled(true);
    const host::LibvirtStatus &libvirt = check.machine.libvirt;
    m_machineReady = libvirt.reachable;
    if (libvirt.reachable) {
        m_libvirt->setText(
            tr("Ready: %1 answers (libvirt %2); turns run under %3 — %4")
                .arg(libvirt.uri, libvirt.version,
                     host::acceleratorName(check.machine.accelerator.accelerator).toUpper(),
                     check.machine.accelerator.reason));
        m_libvirtTodo->setText(QString());
    } else {
        m_libvirt->setText(
            tr("Missing: %1 does not answer: %2").arg(libvirt.uri, printable(libvirt.error, 300)));
        m_libvirtTodo->setText(
            tr("To do: %1.\nWhen it answers \"permission denied\": `sudo adduser $USER "
               "libvirt`, then log in again. Then press Check again.")
                .arg(libvirt.hint));
    }
    if (check.provider == turns::ModelProviderChoice::Demo) {
        m_model->setText(tr("Ready: the model provider is the offline demo model."));
        m_modelTodo->setText(tr("For real work, set a key (below) and choose another provider in "
                                "File → Settings."));
    } else if (!check.credentials.isEmpty()) {
        m_model->setText(tr("Ready: %1.").arg(check.credentials.join(QStringLiteral(", "))));
        m_modelTodo->setText(QString());
    } else {
        m_model->setText(check.credentialProblem.isEmpty()
                             ? tr("Missing: no Anthropic API key or OAuth token is set.")
                             : tr("Cannot tell: %1").arg(printable(check.credentialProblem, 300)));
        m_modelTodo->setText(
            tr("To do: press Open secrets… and set ANTHROPIC_API_KEY (or "
               "ANTHROPIC_OAUTH_TOKEN) for every folder, or run `arizukoctl secret set "
               "ANTHROPIC_API_KEY` and paste the key. The demo turn below needs neither."));
    }
    m_demo->setEnabled(m_machineReady && m_image->status().present && !m_creatingDemo);
    m_status->setText(m_machineReady && m_image->status().present && check.modelReady()
                          ? tr("Everything is ready.")
                          : tr("Some pieces are missing: see each To do."));
    emit checked(check);
}

void FirstRunGuide::startDemo()
{
    if (m_creatingDemo)
        return;
    m_creatingDemo = true;
    m_demo->setEnabled(false);
    m_status->setText(tr("Creating the demo folder…"));
    m_workspace.createDemoFolder(this, [this](const Result<QString> &folder) {
        m_creatingDemo = false;
        m_demo->setEnabled(m_machineReady && m_image->status().present);
        if (!folder) {
            m_status->setText(tr("Cannot create the demo folder: %1")
                                  .arg(printable(folder.error().message, 400)));
            return;
        }
        m_status->setText(
            tr("Demo turn asked for in folder %1; it shows in the main window.").arg(*folder));
        emit demoTurnRequested(*folder, turns::demoTopic);
    });
}

} // namespace arizuko::desktop
