// The Workspace's secrets, connectors and settings calls on a real store,
// as the window makes them: each answers on the asker's thread once its
// worker is done, and changes as the window's user (user:gui in the audit
// log); a change and the names after it come in one answer; a refused
// change says why and leaves the store as it was.

#include "audit/audit_log.h"
#include "core/actors.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/connector_overview.h"
#include "store/store.h"

#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <optional>

using namespace arizuko;
using engine::Workspace;

namespace {

// Asks `call(context, done)` and waits for its answer; nullopt when none
// came, or when it came at once (the work ran on the asker's thread) or on
// another thread than the asker's.
template<typename Answer, typename Call>
std::optional<Answer> answerOf(Call call)
{
    std::optional<Answer> answer;
    bool onAskersThread = false;
    QObject context;
    call(&context, [&](Answer given) {
        onAskersThread = QThread::currentThread() == context.thread();
        answer = std::move(given);
    });
    if (answer || !QTest::qWaitFor([&] { return answer.has_value(); }, 10000) || !onAskersThread)
        return std::nullopt;
    return answer;
}

bool holds(const Workspace::SecretNames &names, const QString &folder, const QString &key)
{
    if (!names.secrets)
        return false;
    for (const secrets::SecretInfo &secret : *names.secrets) {
        if (secret.folder == folder && secret.key == key)
            return true;
    }
    return false;
}

} // namespace

class WorkspaceSettingsTest final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<Workspace> m_workspace;

    QString lastActor(const QString &kind) const
    {
        const auto entries = audit::AuditLog(*m_store).query({kind, {}, 0, 1, {}});
        return entries && !entries->isEmpty() ? entries->last().actor : QString();
    }

private slots:
    void initTestCase()
    {
        // No desktop keyring in a test: the key file, as on a headless host.
        qputenv("ARIZUKO_KEY_STORE", "file");
        auto opened = store::Store::open(m_dir.path());
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
        m_store = std::move(*opened);
        QVERIFY(
            folders::Folders(*m_store, QStringLiteral("user:test")).add(QStringLiteral("corp")));
        m_workspace = std::make_unique<Workspace>(*m_store);
    }

    void cleanupTestCase()
    {
        m_workspace.reset();
        m_store.reset();
    }

    void secretsAreSetListedAndRemovedAsTheWindowsUser()
    {
        const auto listed = answerOf<Workspace::SecretNames>(
            [this](QObject *context, auto done) { m_workspace->listSecrets(context, done); });
        QVERIFY(listed);
        QVERIFY2(listed->keyStore.contains(QStringLiteral("key file")),
                 qPrintable(listed->keyStore));
        QVERIFY(listed->change);
        QVERIFY(listed->secrets && listed->secrets->isEmpty());

        const auto set = answerOf<Workspace::SecretNames>([this](QObject *context, auto done) {
            m_workspace->setSecret(QStringLiteral("corp"), QStringLiteral("GITHUB_TOKEN"),
                                   "value-1", context, done);
        });
        QVERIFY(set);
        QVERIFY2(set->change, qPrintable(set->change ? QString() : set->change.error().message));
        QVERIFY(holds(*set, QStringLiteral("corp"), QStringLiteral("GITHUB_TOKEN")));
        QCOMPARE(lastActor(QStringLiteral("secret")), QString(actors::gui));
        auto sealed = secrets::SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(sealed);
        QCOMPARE(*(*sealed)->get({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN")),
                 QByteArray("value-1"));

        const auto removed = answerOf<Workspace::SecretNames>([this](QObject *context, auto done) {
            m_workspace->removeSecret(QStringLiteral("corp"), QStringLiteral("GITHUB_TOKEN"),
                                      context, done);
        });
        QVERIFY(removed);
        QVERIFY(removed->change);
        QVERIFY(removed->secrets && removed->secrets->isEmpty());
    }

    void aRefusedSecretChangesNothing()
    {
        for (const auto &[folder, key] :
             {std::pair{QStringLiteral("corp"), QStringLiteral("1-NOT A NAME")},
              std::pair{QStringLiteral("no/such/folder"), QStringLiteral("TOKEN")}}) {
            const auto set = answerOf<Workspace::SecretNames>(
                [this, folder = folder, key = key](QObject *context, auto done) {
                    m_workspace->setSecret(folder, key, "sealed-7q", context, done);
                });
            QVERIFY(set);
            QVERIFY2(!set->change, qPrintable(key));
            QVERIFY(!set->change.error().message.isEmpty());
            QVERIFY(!set->change.error().message.contains(QStringLiteral("sealed-7q")));
            // The names after it come all the same: the list as it was.
            QVERIFY(set->secrets && set->secrets->isEmpty());
        }
    }

    void settingsAreSavedAllOrNothingAsTheWindowsUser()
    {
        using Values = Result<turns::SettingValues>;
        const auto load = [this] {
            return answerOf<Values>(
                [this](QObject *context, auto done) { m_workspace->loadSettings(context, done); });
        };
        const auto before = load();
        QVERIFY(before && *before);
        QVERIFY(!(*before)->contains(turns::setting::maxTurns));

        const auto saved = answerOf<Result<void>>([this](QObject *context, auto done) {
            m_workspace->saveSettings({{turns::setting::maxTurns, QStringLiteral("5")}}, context,
                                      done);
        });
        QVERIFY(saved && *saved);
        QCOMPARE(lastActor(QStringLiteral("settings")), QString(actors::gui));
        const auto after = load();
        QVERIFY(after && *after);
        QCOMPARE((*after)->value(turns::setting::maxTurns), QStringLiteral("5"));

        // One refused value: nothing of the save is written.
        const auto refused = answerOf<Result<void>>([this](QObject *context, auto done) {
            m_workspace->saveSettings({{turns::setting::model, QStringLiteral("other")},
                                       {turns::setting::maxTurns, QStringLiteral("999")}},
                                      context, done);
        });
        QVERIFY(refused && !*refused);
        QVERIFY2(refused->error().message.contains(turns::setting::maxTurns),
                 qPrintable(refused->error().message));
        const auto unchanged = load();
        QVERIFY(unchanged && *unchanged);
        QCOMPARE(**unchanged, **after);
    }

    void theConnectorsAreGatheredForAFolder()
    {
        const auto overview =
            answerOf<models::ConnectorOverview>([this](QObject *context, auto done) {
                m_workspace->gatherConnectors(QStringLiteral("corp"), context, done);
            });
        QVERIFY(overview);
        QCOMPARE(overview->folder, QStringLiteral("corp"));
        QVERIFY2(overview->problem.isEmpty(), qPrintable(overview->problem));
        bool github = false;
        for (const connectors::Connector &connector : overview->connectors)
            github = github || connector.service == QStringLiteral("github");
        QVERIFY(github);
        // Built in, GitHub reads GITHUB_TOKEN, which no folder holds here.
        QVERIFY(!overview->secretHolders.contains(QStringLiteral("GITHUB_TOKEN")));
        QVERIFY(!overview->scopes.isEmpty());
    }

    void theDataDirectoryIsTheStores() { QCOMPARE(m_workspace->dataDir(), m_store->dataDir()); }
};

QTEST_GUILESS_MAIN(WorkspaceSettingsTest)
#include "test_workspace_settings.moc"
