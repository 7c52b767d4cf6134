// A turn's bound secrets on the engine's side (turns/bound_secrets.h): the
// placeholder's form and freshness, the guest's environment (the placeholder
// over any shell:env value of the same name), and the lines the proxy reads
// on its fd 4, in the contract's form.

#include "turns/bound_secrets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

BoundSecret bound(const QString &key, bool basic)
{
    secrets::SecretBinding binding;
    binding.key = key;
    binding.hosts = {QStringLiteral("api.example.com"), QStringLiteral("example.org")};
    binding.placement = basic ? secrets::SecretPlacement{true, {}, {}}
                              : secrets::SecretPlacement{false, QStringLiteral("Authorization"),
                                                         QStringLiteral("Bearer {}")};
    return {binding, "value-of-" + key.toUtf8(), makeSecretPlaceholder()};
}

} // namespace

class BoundSecretsTest : public QObject
{
    Q_OBJECT

private slots:
    void placeholdersAreFreshAndRecognisable()
    {
        const QRegularExpression form(QStringLiteral("^arizuko-placeholder-[0-9a-f]{32}$"));
        QSet<QString> seen;
        for (int i = 0; i < 1000; ++i) {
            const QString placeholder = makeSecretPlaceholder();
            QVERIFY2(form.match(placeholder).hasMatch(), qPrintable(placeholder));
            seen.insert(placeholder);
        }
        QCOMPARE(seen.size(), 1000);
    }

    void theGuestGetsThePlaceholderOverAShellEnvValue()
    {
        const BoundSecret token = bound(QStringLiteral("TOKEN"), false);
        // A shell:env grant read TOKEN's value and an unbound LAB_KEY.
        const QJsonObject shellEnvironment{
            {QStringLiteral("TOKEN"), QStringLiteral("value-of-TOKEN")},
            {QStringLiteral("LAB_KEY"), QStringLiteral("lab")}};
        const QJsonObject environment = withPlaceholders(shellEnvironment, {token});
        QCOMPARE(environment.value(QStringLiteral("TOKEN")).toString(), token.placeholder);
        QCOMPARE(environment.value(QStringLiteral("LAB_KEY")).toString(), QStringLiteral("lab"));
        QVERIFY(!QJsonDocument(environment).toJson().contains(token.value));
        // Bound but not granted: the placeholder all the same.
        QCOMPARE(withPlaceholders({}, {token}).value(QStringLiteral("TOKEN")).toString(),
                 token.placeholder);
    }

    void theProxysLinesFollowTheContract()
    {
        const BoundSecret header = bound(QStringLiteral("GITHUB_TOKEN"), false);
        const BoundSecret basic = bound(QStringLiteral("GIT_PASSWORD"), true);
        const QList<QByteArray> lines = egressSecretLines({header, basic}).split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.last().isEmpty());
        const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(first.keys(),
                 QStringList({QStringLiteral("header"), QStringLiteral("hosts"),
                              QStringLiteral("name"), QStringLiteral("placeholder"),
                              QStringLiteral("template"), QStringLiteral("value_b64")}));
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("GITHUB_TOKEN"));
        QCOMPARE(first.value(QStringLiteral("placeholder")).toString(), header.placeholder);
        QCOMPARE(
            QByteArray::fromBase64(first.value(QStringLiteral("value_b64")).toString().toLatin1()),
            header.value);
        QCOMPARE(first.value(QStringLiteral("hosts")).toArray(),
                 QJsonArray({QStringLiteral("api.example.com"), QStringLiteral("example.org")}));
        QCOMPARE(first.value(QStringLiteral("header")).toString(), QStringLiteral("Authorization"));
        QCOMPARE(first.value(QStringLiteral("template")).toString(), QStringLiteral("Bearer {}"));
        const QJsonObject second = QJsonDocument::fromJson(lines[1]).object();
        QVERIFY(second.value(QStringLiteral("basic")).toBool());
        QVERIFY(!second.contains(QStringLiteral("header")) &&
                !second.contains(QStringLiteral("template")));
        QCOMPARE(boundSecretHosts({header, basic}),
                 QStringList({QStringLiteral("api.example.com"), QStringLiteral("example.org")}));
    }
};

QTEST_GUILESS_MAIN(BoundSecretsTest)
#include "test_bound_secrets.moc"
