// Secret bindings on a real store: validated hosts and header templates,
// rebinding, unbinding, the audit log, a binding that goes with its secret
// and moves with its folder, and which bindings a folder's turn sees.

#include "audit/audit_log.h"
#include "folders/folders.h"
#include "secrets/folder_move.h"
#include "secrets/secret_bindings.h"
#include "secrets/secret_store.h"
#include "store/store.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace arizuko;
using namespace arizuko::secrets;

namespace {

const QString actor = QStringLiteral("user:test");

template<typename T>
QString why(const Result<T> &result)
{
    return result ? QString() : result.error().code + QStringLiteral(": ") + result.error().message;
}

SecretPlacement bearer()
{
    return SecretPlacement{false, QStringLiteral("Authorization"), QStringLiteral("Bearer {}")};
}

qint64 auditRows(const store::Store &store, const QString &kind)
{
    QSqlQuery query(store.database());
    query.prepare(QStringLiteral("SELECT count(*) FROM audit_log WHERE kind = ?"));
    query.addBindValue(kind);
    if (!query.exec() || !query.next())
        qFatal("cannot count audit rows");
    return query.value(0).toLongLong();
}

} // namespace

class SecretBindingsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<SecretStore> m_secrets;

    void set(const QString &folder, const QString &key)
    {
        const Result<void> stored = m_secrets->set({folder}, key, "value-of-" + key.toUtf8());
        QVERIFY2(stored, qPrintable(why(stored)));
    }

private slots:
    void init()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        auto opened =
            store::Store::open(m_dir.filePath(QUuid::createUuid().toString(QUuid::WithoutBraces)));
        QVERIFY(opened);
        m_store = std::move(opened).value();
        auto secrets = SecretStore::open(*m_store, actor);
        QVERIFY2(secrets, qPrintable(why(secrets)));
        m_secrets = std::move(secrets).value();
        QVERIFY(folders::Folders(*m_store, actor).add(QStringLiteral("corp")));
        QVERIFY(folders::Folders(*m_store, actor).add(QStringLiteral("corp/web")));
    }

    void cleanup()
    {
        m_secrets.reset();
        m_store.reset();
    }

    void headerTemplatesAreValidated()
    {
        const auto good = parseHeaderTemplate(QStringLiteral(" Authorization :  Bearer {} "));
        QVERIFY2(good, qPrintable(why(good)));
        QCOMPARE(good->header, QStringLiteral("Authorization"));
        QCOMPARE(good->value, QStringLiteral("Bearer {}"));
        QCOMPARE(placementText(*good), QStringLiteral("Authorization: Bearer {}"));
        QVERIFY(parseHeaderTemplate(QStringLiteral("X-Api-Key: {}")));

        const struct
        {
            const char *text;
            const char *says;
        } bad[] = {
            {"Authorization Bearer {}", "no ':'"},
            {"Author ization: Bearer {}", "is not a header name"},
            {": Bearer {}", "is not a header name"},
            {"Authorization: Bearer", "exactly once"},
            {"Authorization: {}{}", "exactly once"},
            {"Host: {}", "how the request travels"},
            {"Proxy-Authorization: Basic {}", "how the request travels"},
            {"Content-Length: {}", "how the request travels"},
            {"Authorization: Bearer {}\r\nX-Other: 1", "printable ASCII"},
        };
        for (const auto &[text, says] : bad) {
            const auto parsed = parseHeaderTemplate(QString::fromLatin1(text));
            QVERIFY2(!parsed, text);
            QCOMPARE(parsed.error().code, QStringLiteral("secrets.bad-template"));
            QVERIFY2(parsed.error().message.contains(QLatin1String(says)),
                     qPrintable(parsed.error().message));
        }
    }

    void bindRebindListUnbindAudited()
    {
        set(QStringLiteral("corp"), QStringLiteral("GITHUB_TOKEN"));
        SecretBindings bindings(*m_store, actor);
        const auto bound = bindings.bind({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN"),
                                         {QStringLiteral("API.GitHub.com."),
                                          QStringLiteral("*.githubusercontent.com"),
                                          QStringLiteral("api.github.com")},
                                         bearer());
        QVERIFY2(bound, qPrintable(why(bound)));
        // Normalised as allow entries are, duplicates dropped.
        QCOMPARE(bound->hosts, QStringList({QStringLiteral("api.github.com"),
                                            QStringLiteral("githubusercontent.com")}));
        auto listed = bindings.list();
        QVERIFY2(listed, qPrintable(why(listed)));
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first(), *bound);
        QCOMPARE(auditRows(*m_store, QStringLiteral("secret.bind")), 1);

        // Binding again replaces: now Basic, one host.
        const auto rebound =
            bindings.bind({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN"),
                          {QStringLiteral("git.example.test")}, SecretPlacement{true, {}, {}});
        QVERIFY2(rebound, qPrintable(why(rebound)));
        listed = bindings.list();
        QCOMPARE(listed->size(), 1);
        QVERIFY(listed->first().placement.basic);
        QCOMPARE(listed->first().hosts, QStringList{QStringLiteral("git.example.test")});
        QCOMPARE(placementText(listed->first().placement), QStringLiteral("basic"));

        const Result<void> unbound =
            bindings.unbind({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN"));
        QVERIFY2(unbound, qPrintable(why(unbound)));
        QCOMPARE(bindings.list()->size(), 0);
        QCOMPARE(auditRows(*m_store, QStringLiteral("secret.unbind")), 1);
        const Result<void> again =
            bindings.unbind({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN"));
        QVERIFY(!again);
        QCOMPARE(again.error().code, QStringLiteral("secrets.not-bound"));
        // The secret itself stays.
        QVERIFY(m_secrets->get({QStringLiteral("corp")}, QStringLiteral("GITHUB_TOKEN")));
    }

    void badBindingsAreRefusedAndWriteNothing()
    {
        set({}, QStringLiteral("TOKEN"));
        SecretBindings bindings(*m_store, actor);
        const auto missing = bindings.bind({QStringLiteral("corp")}, QStringLiteral("TOKEN"),
                                           {QStringLiteral("api.example.com")}, bearer());
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("secrets.not-found"));
        QVERIFY(missing.error().message.contains(QLatin1String("folder 'corp'")));
        const auto noHost = bindings.bind({}, QStringLiteral("TOKEN"), {}, bearer());
        QVERIFY(!noHost);
        QCOMPARE(noHost.error().code, QStringLiteral("secrets.no-host"));
        const auto badHost = bindings.bind({}, QStringLiteral("TOKEN"),
                                           {QStringLiteral("https://api.example.com/")}, bearer());
        QVERIFY(!badHost);
        const auto badTemplate = bindings.bind(
            {}, QStringLiteral("TOKEN"), {QStringLiteral("api.example.com")},
            SecretPlacement{false, QStringLiteral("Authorization"), QStringLiteral("Bearer")});
        QVERIFY(!badTemplate);
        QCOMPARE(badTemplate.error().code, QStringLiteral("secrets.bad-template"));
        QCOMPARE(bindings.list()->size(), 0);
        QCOMPARE(auditRows(*m_store, QStringLiteral("secret.bind")), 0);
    }

    void aBindingGoesWithItsSecretAndMovesWithItsFolder()
    {
        set(QStringLiteral("corp/web"), QStringLiteral("NPM_TOKEN"));
        set(QStringLiteral("corp/web"), QStringLiteral("OTHER"));
        SecretBindings bindings(*m_store, actor);
        QVERIFY(bindings.bind({QStringLiteral("corp/web")}, QStringLiteral("NPM_TOKEN"),
                              {QStringLiteral("registry.npmjs.org")}, bearer()));
        QVERIFY(bindings.bind({QStringLiteral("corp/web")}, QStringLiteral("OTHER"),
                              {QStringLiteral("example.com")}, bearer()));

        const auto moved =
            moveFolder(*m_store, actor, QStringLiteral("corp"), QStringLiteral("acme"));
        QVERIFY2(moved, qPrintable(why(moved)));
        auto listed = bindings.list();
        QCOMPARE(listed->size(), 2);
        QCOMPARE(listed->first().folder, QStringLiteral("acme/web"));
        QCOMPARE(listed->first().key, QStringLiteral("NPM_TOKEN"));

        auto secrets = SecretStore::open(*m_store, actor);
        QVERIFY(secrets);
        QVERIFY((*secrets)->remove({QStringLiteral("acme/web")}, QStringLiteral("NPM_TOKEN")));
        listed = bindings.list();
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first().key, QStringLiteral("OTHER"));
    }

    void aTurnSeesTheBindingOfTheNearestSecret()
    {
        // TOKEN: bound at the base, shadowed unbound in corp; KEY: bound in
        // corp; ONLY_WEB: bound in corp/web, which corp does not see.
        set({}, QStringLiteral("TOKEN"));
        set(QStringLiteral("corp"), QStringLiteral("TOKEN"));
        set(QStringLiteral("corp"), QStringLiteral("KEY"));
        set(QStringLiteral("corp/web"), QStringLiteral("ONLY_WEB"));
        SecretBindings bindings(*m_store, actor);
        QVERIFY(
            bindings.bind({}, QStringLiteral("TOKEN"), {QStringLiteral("a.example")}, bearer()));
        QVERIFY(bindings.bind({QStringLiteral("corp")}, QStringLiteral("KEY"),
                              {QStringLiteral("b.example")}, bearer()));
        QVERIFY(bindings.bind({QStringLiteral("corp/web")}, QStringLiteral("ONLY_WEB"),
                              {QStringLiteral("c.example")}, bearer()));

        const auto names = [&](const QString &folder) {
            const auto visible = bindings.visibleFrom(folder);
            if (!visible)
                qFatal("visibleFrom: %s", qPrintable(why(visible)));
            QStringList keys;
            for (const SecretBinding &binding : *visible)
                keys << binding.folder + u'/' + binding.key;
            keys.sort();
            return keys;
        };
        QCOMPARE(names(QStringLiteral("elsewhere")), QStringList{QStringLiteral("/TOKEN")});
        QCOMPARE(names(QStringLiteral("corp")), QStringList{QStringLiteral("corp/KEY")});
        QCOMPARE(names(QStringLiteral("corp/web")),
                 QStringList({QStringLiteral("corp/KEY"), QStringLiteral("corp/web/ONLY_WEB")}));
    }
};

QTEST_GUILESS_MAIN(SecretBindingsTest)
#include "test_secret_bindings.moc"
