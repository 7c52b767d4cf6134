// Which credential a turn's gateway gets: the nearest folder's secret
// wins over its parents' and the base's, the key before the OAuth token in
// auto mode, and no credential is a clear error, never an empty key.

#include "folders/folders.h"
#include "folders/model_settings.h"
#include "policy/policy.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "turns/model_provider.h"

#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace arizuko;
using turns::ModelProviderChoice;

class ModelProviderTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<secrets::SecretStore> m_secrets;

    gateway::ProviderSettings resolve(const QString &folder, ModelProviderChoice choice)
    {
        turns::ModelProviderRequest request;
        request.choice = choice;
        request.folder = folder;
        const auto provider = turns::resolveModelProvider(*m_store, request);
        if (!provider)
            qFatal("%s", qPrintable(provider.error().message));
        return *provider;
    }

private slots:
    void init()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        auto opened =
            store::Store::open(m_dir.filePath(QUuid::createUuid().toString(QUuid::WithoutBraces)));
        QVERIFY(opened);
        m_store = std::move(opened).value();
        auto secrets = secrets::SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(secrets);
        m_secrets = std::move(secrets).value();
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "other"})
            QVERIFY(folders.add(QString::fromLatin1(folder)));
    }

    void cleanup()
    {
        m_secrets.reset();
        m_store.reset();
    }

    void theNearestFolderWins()
    {
        QVERIFY(m_secrets->set({}, turns::apiKeySecret, "base-key"));
        QVERIFY(m_secrets->set({QStringLiteral("corp")}, turns::apiKeySecret, "corp-key"));
        QVERIFY(m_secrets->set({QStringLiteral("corp/eng/sre")}, turns::apiKeySecret, "sre-key"));
        QCOMPARE(resolve(QStringLiteral("corp/eng/sre"), ModelProviderChoice::Auto).credential,
                 QByteArray("sre-key"));
        QCOMPARE(resolve(QStringLiteral("corp/eng"), ModelProviderChoice::Auto).credential,
                 QByteArray("corp-key"));
        QCOMPARE(resolve(QStringLiteral("other"), ModelProviderChoice::Auto).credential,
                 QByteArray("base-key"));
        QCOMPARE(resolve(QStringLiteral("corp"), ModelProviderChoice::ApiKey).kind,
                 gateway::ProviderKind::AnthropicApiKey);
    }

    void autoTakesTheKeyBeforeTheToken()
    {
        QVERIFY(m_secrets->set({QStringLiteral("corp")}, turns::oauthTokenSecret, "corp-token"));
        const auto token = resolve(QStringLiteral("corp/eng"), ModelProviderChoice::Auto);
        QCOMPARE(token.kind, gateway::ProviderKind::OAuthToken);
        QCOMPARE(token.credential, QByteArray("corp-token"));
        // A key anywhere up the tree is preferred, even one farther away.
        QVERIFY(m_secrets->set({}, turns::apiKeySecret, "base-key"));
        QCOMPARE(resolve(QStringLiteral("corp/eng"), ModelProviderChoice::Auto).kind,
                 gateway::ProviderKind::AnthropicApiKey);
        QCOMPARE(resolve(QStringLiteral("corp/eng"), ModelProviderChoice::OAuth).credential,
                 QByteArray("corp-token"));
    }

    void codexGetsTheOpenAIKeyAndNoAnthropicOne()
    {
        QVERIFY(m_secrets->set({}, turns::apiKeySecret, "anthropic-key"));
        turns::ModelProviderRequest request;
        request.folder = QStringLiteral("corp/eng");
        request.api = gateway::ModelApi::OpenAIResponses;
        // An Anthropic key is not used for the OpenAI API.
        auto missing = turns::resolveModelProvider(*m_store, request);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, turns::noCredentialErrorCode);
        QVERIFY2(missing.error().message.contains(turns::openAIKeySecret),
                 qPrintable(missing.error().message));
        QVERIFY(m_secrets->set({QStringLiteral("corp")}, turns::openAIKeySecret, "sk-openai"));
        const auto provider = turns::resolveModelProvider(*m_store, request);
        QVERIFY(provider);
        QCOMPARE(provider->kind, gateway::ProviderKind::OpenAIApiKey);
        QCOMPARE(provider->credential, QByteArray("sk-openai"));
        QCOMPARE(provider->upstream, QUrl(QStringLiteral("https://api.openai.com")));
        request.choice = ModelProviderChoice::OAuth;
        QVERIFY(!turns::resolveModelProvider(*m_store, request));
    }

    void noCredentialIsAClearError()
    {
        turns::ModelProviderRequest request;
        request.folder = QStringLiteral("corp");
        const auto provider = turns::resolveModelProvider(*m_store, request);
        QVERIFY(!provider);
        QCOMPARE(provider.error().code, QStringLiteral("model.no-credential"));
        QVERIFY(provider.error().message.contains(turns::apiKeySecret));
        QVERIFY(provider.error().message.contains(QStringLiteral("demo")));
    }

    void aBadUpstreamUrlIsRefused()
    {
        QVERIFY(m_secrets->set({}, turns::apiKeySecret, "base-key"));
        turns::ModelProviderRequest request;
        request.folder = QStringLiteral("corp");
        request.upstreamUrl = QStringLiteral("ftp://example.test/");
        const auto provider = turns::resolveModelProvider(*m_store, request);
        QVERIFY(!provider);
        QCOMPARE(provider.error().code, QStringLiteral("model.bad-url"));
    }

    // What the folder lets its guest ask of the model reaches the gateway
    // with the provider: the nearest folder's models and web search, the
    // search limited to the folder's allowlist less what a deny touches.
    void theFoldersRequestPolicyComesWithTheProvider()
    {
        QVERIFY(m_secrets->set({}, turns::apiKeySecret, "base-key"));
        const gateway::RequestPolicy unset =
            resolve(QStringLiteral("corp/eng"), ModelProviderChoice::Auto).requests;
        QVERIFY(unset.models.isEmpty());
        QVERIFY(!unset.webSearch);

        const QString actor = QStringLiteral("user:test");
        folders::ModelSettings corp;
        corp.models = QStringList{QStringLiteral("claude-haiku-4-5")};
        corp.providerWebSearch = true;
        QVERIFY(folders::setModelSettings(*m_store, QStringLiteral("corp"), corp, actor));
        folders::ModelSettings eng;
        eng.models = QStringList{QStringLiteral("claude-sonnet-4*")};
        QVERIFY(folders::setModelSettings(*m_store, QStringLiteral("corp/eng"), eng, actor));
        policy::Policy policy(*m_store);
        for (const auto &[folder, host, kind] :
             {std::tuple{"corp", "example.com", policy::RuleKind::Allow},
              std::tuple{"corp", "docs.python.org", policy::RuleKind::Allow},
              std::tuple{"corp", "10.0.0.7", policy::RuleKind::Allow},
              std::tuple{"corp/eng", "python.org", policy::RuleKind::Allow},
              std::tuple{"corp/eng", "evil.python.org", policy::RuleKind::Deny}})
            QVERIFY(policy.network().add(QString::fromLatin1(folder), QString::fromLatin1(host),
                                         kind, actor));

        const gateway::RequestPolicy sre =
            resolve(QStringLiteral("corp/eng/sre"), ModelProviderChoice::Auto).requests;
        QCOMPARE(sre.models, QStringList{QStringLiteral("claude-sonnet-4*")});
        QVERIFY(sre.webSearch);
        QVERIFY(!sre.webSearchDomains.any);
        // python.org covers the denied evil.python.org, so it goes; the IP
        // literal is not a domain.
        QStringList domains = sre.webSearchDomains.domains;
        domains.sort();
        QCOMPARE(domains,
                 (QStringList{QStringLiteral("docs.python.org"), QStringLiteral("example.com")}));
        QCOMPARE(resolve(QStringLiteral("corp"), ModelProviderChoice::Auto).requests.models,
                 QStringList{QStringLiteral("claude-haiku-4-5")});
        QVERIFY(!resolve(QStringLiteral("other"), ModelProviderChoice::Auto).requests.webSearch);
    }
};

QTEST_GUILESS_MAIN(ModelProviderTest)
#include "test_model_provider.moc"
