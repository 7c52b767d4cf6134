// The saved settings: every field's check names the problem, hostile input
// is refused, a save with one bad value writes nothing, and what turns run
// with layers defaults < saved < environment.

#include "audit/audit_log.h"
#include "store/store.h"
#include "turns/runner_settings.h"
#include "turns/saved_settings.h"

#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

// Unsets the settings' variables for the test, restoring them after.
class CleanEnvironment
{
public:
    CleanEnvironment()
    {
        for (const turns::SettingDefinition &definition : turns::settingDefinitions()) {
            m_saved.insert(QByteArray(definition.environmentVariable),
                           qgetenv(definition.environmentVariable));
            qunsetenv(definition.environmentVariable);
        }
    }
    ~CleanEnvironment()
    {
        for (auto it = m_saved.cbegin(); it != m_saved.cend(); ++it) {
            if (it.value().isEmpty())
                qunsetenv(it.key().constData());
            else
                qputenv(it.key().constData(), it.value());
        }
    }

private:
    QMap<QByteArray, QByteArray> m_saved;
};

} // namespace

class SavedSettingsTest final : public QObject
{
    Q_OBJECT

private slots:
    void eachFieldNamesItsProblem_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("problem"); // empty: accepted

        QTest::newRow("uri ok") << turns::setting::libvirtUri << QStringLiteral("qemu:///system")
                                << QString();
        QTest::newRow("uri ssh") << turns::setting::libvirtUri
                                 << QStringLiteral("qemu+ssh://me@host/system") << QString();
        QTest::newRow("uri no scheme")
            << turns::setting::libvirtUri << QStringLiteral("/var/run/libvirt")
            << QStringLiteral("is not a libvirt URI");
        QTest::newRow("uri no path") << turns::setting::libvirtUri << QStringLiteral("qemu://")
                                     << QStringLiteral("is not a libvirt URI");
        QTest::newRow("accelerator") << turns::setting::accelerator << QStringLiteral("hvf")
                                     << QStringLiteral("write auto, kvm or tcg");
        QTest::newRow("accelerator ok")
            << turns::setting::accelerator << QStringLiteral("tcg") << QString();
        QTest::newRow("pool ok") << turns::setting::subnetPool << QStringLiteral("10.99.0.0/24")
                                 << QString();
        QTest::newRow("pool too big") << turns::setting::subnetPool << QStringLiteral("10.0.0.0/8")
                                      << QStringLiteral("is a /8; the pool must be a /16 to a /30");
        QTest::newRow("pool too small")
            << turns::setting::subnetPool << QStringLiteral("10.99.0.0/31")
            << QStringLiteral("is a /31");
        QTest::newRow("pool not cidr") << turns::setting::subnetPool << QStringLiteral("fd00::/64")
                                       << QStringLiteral("is not an IPv4 network in CIDR form");
        QTest::newRow("pool host bits")
            << turns::setting::subnetPool << QStringLiteral("10.213.0.1/16")
            << QStringLiteral("is not an IPv4 network in CIDR form");
        QTest::newRow("turns 0") << turns::setting::maxTurns << QStringLiteral("0")
                                 << QStringLiteral("is not a whole number of turns from 1 to 16");
        QTest::newRow("turns 17") << turns::setting::maxTurns << QStringLiteral("17")
                                  << QStringLiteral("from 1 to 16");
        QTest::newRow("turns word")
            << turns::setting::maxTurns << QStringLiteral("two") << QStringLiteral("from 1 to 16");
        QTest::newRow("turns ok") << turns::setting::maxTurns << QStringLiteral("16") << QString();
        QTest::newRow("deadline short") << turns::setting::turnDeadline << QStringLiteral("59")
                                        << QStringLiteral("of seconds from 60 to 86400");
        QTest::newRow("boot limit short") << turns::setting::bootLimit << QStringLiteral("9")
                                          << QStringLiteral("of seconds from 10 to 3600");
        QTest::newRow("boot limit long") << turns::setting::bootLimit << QStringLiteral("3601")
                                         << QStringLiteral("of seconds from 10 to 3600");
        QTest::newRow("boot limit ok")
            << turns::setting::bootLimit << QStringLiteral("30") << QString();
        QTest::newRow("provider") << turns::setting::modelProvider << QStringLiteral("openai")
                                  << QStringLiteral("write auto, api-key, oauth or demo");
        QTest::newRow("provider ok")
            << turns::setting::modelProvider << QStringLiteral("demo") << QString();
        QTest::newRow("warm start") << turns::setting::warmStart << QStringLiteral("yes")
                                    << QStringLiteral("write on or off");
        QTest::newRow("warm start ok")
            << turns::setting::warmStart << QStringLiteral("on") << QString();
        QTest::newRow("history include git")
            << turns::setting::historyIncludeGit << QStringLiteral("true")
            << QStringLiteral("is not a history-include-git choice: write on or off");
        QTest::newRow("history include git ok")
            << turns::setting::historyIncludeGit << QStringLiteral("on") << QString();
        QTest::newRow("turns per turn 0") << turns::setting::turnsPerTurn << QStringLiteral("0")
                                          << QStringLiteral("of turns from 1 to 100");
        QTest::newRow("turns per turn ok")
            << turns::setting::turnsPerTurn << QStringLiteral("3") << QString();
        QTest::newRow("turns per folder hour big")
            << turns::setting::turnsPerFolderHour << QStringLiteral("10001")
            << QStringLiteral("of turns from 1 to 10000");
        QTest::newRow("turns per folder hour ok")
            << turns::setting::turnsPerFolderHour << QStringLiteral("60") << QString();
        QTest::newRow("url ftp") << turns::setting::modelUrl
                                 << QStringLiteral("ftp://models.example.com")
                                 << QStringLiteral("is not an http(s) URL with a host");
        QTest::newRow("url no host") << turns::setting::modelUrl << QStringLiteral("https://")
                                     << QStringLiteral("is not an http(s) URL with a host");
        QTest::newRow("url password")
            << turns::setting::modelUrl << QStringLiteral("https://me:pw@example.com")
            << QStringLiteral("put the credential in the secret");
        QTest::newRow("url ok") << turns::setting::modelUrl
                                << QStringLiteral("http://127.0.0.1:8080/v1") << QString();
        QTest::newRow("model ok") << turns::setting::model << QStringLiteral("claude-sonnet-4-5")
                                  << QString();
        QTest::newRow("unknown key") << QStringLiteral("data-dir") << QStringLiteral("/tmp")
                                     << QStringLiteral("there is no setting 'data-dir'");

        // Hostile input, in every field.
        for (const turns::SettingDefinition &definition : turns::settingDefinitions()) {
            const QString &key = definition.key;
            QTest::addRow("%s long", qPrintable(key))
                << key << QString(100000, u'a') << QStringLiteral("is 100000 characters long");
            QTest::addRow("%s nul", qPrintable(key))
                << key << QStringLiteral("tcg\0x") << QStringLiteral("invisible character U+0000");
            QTest::addRow("%s control", qPrintable(key))
                << key << QStringLiteral("qemu:///sys\u001btem")
                << QStringLiteral("invisible character U+001B");
            QTest::addRow("%s rtl", qPrintable(key))
                << key << QStringLiteral("demo\u202Etxt.exe")
                << QStringLiteral("invisible character U+202E");
            QTest::addRow("%s sql", qPrintable(key))
                << key << QStringLiteral("'; DROP TABLE settings; --")
                << QStringLiteral("contains a space");
            QTest::addRow("%s sql nospace", qPrintable(key))
                << key << QStringLiteral("x';DROP/**/TABLE/**/settings;--")
                << QStringLiteral("is not");
        }
    }

    void eachFieldNamesItsProblem()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, problem);
        const std::optional<QString> found = turns::settingProblem(key, value);
        if (problem.isEmpty()) {
            QVERIFY2(!found, qPrintable(found.value_or(QString())));
            return;
        }
        QVERIFY2(found, qPrintable(QStringLiteral("accepted: ") + value.left(80)));
        QVERIFY2(found->contains(problem), qPrintable(*found));
        // The message never carries the invisible character itself.
        QVERIFY(!found->contains(QChar(0x202E)) && !found->contains(QChar(0)));
        QVERIFY(found->size() < 400);
    }

    void aSaveWithOneBadValueWritesNothing()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        turns::SavedSettings settings(**store);
        QVERIFY(settings.save({{turns::setting::maxTurns, QStringLiteral("4")}},
                              QStringLiteral("test")));
        const Result<void> refused =
            settings.save({{turns::setting::maxTurns, QStringLiteral("8")},
                           {turns::setting::subnetPool, QStringLiteral("10.0.0.0/8")},
                           {turns::setting::model, QStringLiteral("a b")}},
                          QStringLiteral("test"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("settings.invalid"));
        QVERIFY(refused.error().message.startsWith(QStringLiteral("nothing was saved: ")));
        QVERIFY(refused.error().message.contains(
            QStringLiteral("'subnet-pool': '10.0.0.0/8' is a /8")));
        QVERIFY(refused.error().message.contains(QStringLiteral("'model':")));
        const auto loaded = settings.load();
        QVERIFY(loaded);
        QCOMPARE(*loaded, (turns::SettingValues{{turns::setting::maxTurns, QStringLiteral("4")}}));
    }

    void savesAreAuditedAndEmptyGoesBackToTheDefault()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        turns::SavedSettings settings(**store);
        QVERIFY(settings.save({{turns::setting::modelProvider, QStringLiteral("demo")},
                               {turns::setting::turnDeadline, QStringLiteral("600")}},
                              QStringLiteral("user:test")));
        QVERIFY(settings.save({{turns::setting::modelProvider, QString()}},
                              QStringLiteral("user:test")));
        QCOMPARE(*settings.load(),
                 (turns::SettingValues{{turns::setting::turnDeadline, QStringLiteral("600")}}));
        const auto entries =
            audit::AuditLog(**store).query({QStringLiteral("settings"), {}, 0, 100, {}});
        QVERIFY(entries);
        QCOMPARE(entries->size(), 3);
        QCOMPARE(entries->last().subject, turns::setting::modelProvider);
        QCOMPARE(entries->last().detail.value(QStringLiteral("from")).toString(),
                 QStringLiteral("demo"));
        QCOMPARE(entries->last().detail.value(QStringLiteral("to")).toString(), QString());
    }

    void defaultsThenSavedThenEnvironment()
    {
        const CleanEnvironment clean;
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        auto runner = turns::RunnerSettings::load(**store);
        QVERIFY(runner);
        QCOMPARE(runner->maxConcurrentTurns, 2);
        QCOMPARE(runner->libvirtUri, QStringLiteral("qemu:///system"));
        QCOMPARE(runner->maxTurnsPerTurn, 5);
        QCOMPARE(runner->maxTurnsPerFolderHour, 20);
        QVERIFY(turns::SavedSettings(**store).save(
            {{turns::setting::maxTurns, QStringLiteral("5")},
             {turns::setting::turnsPerTurn, QStringLiteral("2")},
             {turns::setting::turnsPerFolderHour, QStringLiteral("7")},
             {turns::setting::subnetPool, QStringLiteral("10.99.0.0/24")},
             {turns::setting::modelProvider, QStringLiteral("demo")}},
            QStringLiteral("test")));
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(runner);
        QCOMPARE(runner->maxConcurrentTurns, 5);
        QCOMPARE(runner->subnetPool, QStringLiteral("10.99.0.0/24"));
        QCOMPARE(runner->modelProvider, turns::ModelProviderChoice::Demo);
        QCOMPARE(runner->maxTurnsPerTurn, 2);
        QCOMPARE(runner->maxTurnsPerFolderHour, 7);

        qputenv("ARIZUKO_MAX_TURNS", "3");
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(runner);
        QCOMPARE(runner->maxConcurrentTurns, 3);
        const auto effective = turns::effectiveSettings(*turns::SavedSettings(**store).load());
        const auto maxTurns = std::find_if(effective.cbegin(), effective.cend(), [](const auto &e) {
            return e.definition.key == turns::setting::maxTurns;
        });
        QCOMPARE(maxTurns->source, turns::SettingSource::Environment);
        QCOMPARE(maxTurns->savedValue, QStringLiteral("5"));

        qputenv("ARIZUKO_SUBNET_POOL", "10.213.0.1/16");
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(!runner);
        QVERIFY2(runner.error().message.startsWith(
                     QStringLiteral("ARIZUKO_SUBNET_POOL: '10.213.0.1/16'")),
                 qPrintable(runner.error().message));
    }
};

QTEST_GUILESS_MAIN(SavedSettingsTest)
#include "test_saved_settings.moc"
