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
using namespace Qt::StringLiterals;

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

        QTest::newRow("uri ok") << turns::setting::libvirtUri << u"qemu:///system"_s << QString();
        QTest::newRow("uri ssh") << turns::setting::libvirtUri << u"qemu+ssh://me@host/system"_s
                                 << QString();
        QTest::newRow("uri no scheme") << turns::setting::libvirtUri << u"/var/run/libvirt"_s
                                       << u"is not a libvirt URI"_s;
        QTest::newRow("uri no path") << turns::setting::libvirtUri << u"qemu://"_s
                                     << u"is not a libvirt URI"_s;
        QTest::newRow("accelerator") << turns::setting::accelerator << u"hvf"_s
                                     << u"write auto, kvm or tcg"_s;
        QTest::newRow("accelerator ok") << turns::setting::accelerator << u"tcg"_s << QString();
        QTest::newRow("pool ok") << turns::setting::subnetPool << u"10.99.0.0/24"_s << QString();
        QTest::newRow("pool too big") << turns::setting::subnetPool << u"10.0.0.0/8"_s
                                      << u"is a /8; the pool must be a /16 to a /30"_s;
        QTest::newRow("pool too small") << turns::setting::subnetPool << u"10.99.0.0/31"_s
                                        << u"is a /31"_s;
        QTest::newRow("pool not cidr") << turns::setting::subnetPool << u"fd00::/64"_s
                                       << u"is not an IPv4 network in CIDR form"_s;
        QTest::newRow("pool host bits") << turns::setting::subnetPool << u"10.213.0.1/16"_s
                                        << u"is not an IPv4 network in CIDR form"_s;
        QTest::newRow("turns 0") << turns::setting::maxTurns << u"0"_s
                                 << u"is not a whole number of turns from 1 to 16"_s;
        QTest::newRow("turns 17") << turns::setting::maxTurns << u"17"_s << u"from 1 to 16"_s;
        QTest::newRow("turns word") << turns::setting::maxTurns << u"two"_s << u"from 1 to 16"_s;
        QTest::newRow("turns ok") << turns::setting::maxTurns << u"16"_s << QString();
        QTest::newRow("deadline short") << turns::setting::turnDeadline << u"59"_s
                                        << u"of seconds from 60 to 86400"_s;
        QTest::newRow("provider") << turns::setting::modelProvider << u"openai"_s
                                  << u"write auto, api-key, oauth or demo"_s;
        QTest::newRow("provider ok") << turns::setting::modelProvider << u"demo"_s << QString();
        QTest::newRow("url ftp") << turns::setting::modelUrl << u"ftp://models.example.com"_s
                                 << u"is not an http(s) URL with a host"_s;
        QTest::newRow("url no host") << turns::setting::modelUrl << u"https://"_s
                                     << u"is not an http(s) URL with a host"_s;
        QTest::newRow("url password") << turns::setting::modelUrl << u"https://me:pw@example.com"_s
                                      << u"put the credential in the secret"_s;
        QTest::newRow("url ok") << turns::setting::modelUrl << u"http://127.0.0.1:8080/v1"_s
                                << QString();
        QTest::newRow("model ok") << turns::setting::model << u"claude-sonnet-4-5"_s << QString();
        QTest::newRow("unknown key") << u"data-dir"_s << u"/tmp"_s
                                     << u"there is no setting 'data-dir'"_s;

        // Hostile input, in every field.
        for (const turns::SettingDefinition &definition : turns::settingDefinitions()) {
            const QString &key = definition.key;
            QTest::addRow("%s long", qPrintable(key)) << key << QString(100000, u'a')
                                                      << u"is 100000 characters long"_s;
            QTest::addRow("%s nul", qPrintable(key)) << key << u"tcg\0x"_s
                                                     << u"invisible character U+0000"_s;
            QTest::addRow("%s control", qPrintable(key)) << key << u"qemu:///sys\u001btem"_s
                                                         << u"invisible character U+001B"_s;
            QTest::addRow("%s rtl", qPrintable(key)) << key << u"demo\u202Etxt.exe"_s
                                                     << u"invisible character U+202E"_s;
            QTest::addRow("%s sql", qPrintable(key)) << key << u"'; DROP TABLE settings; --"_s
                                                     << u"contains a space"_s;
            QTest::addRow("%s sql nospace", qPrintable(key))
                << key << u"x';DROP/**/TABLE/**/settings;--"_s << u"is not"_s;
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
        QVERIFY2(found, qPrintable(u"accepted: "_s + value.left(80)));
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
        QVERIFY(settings.save({{turns::setting::maxTurns, u"4"_s}}, u"test"_s));
        const Result<void> refused = settings.save({{turns::setting::maxTurns, u"8"_s},
                                                    {turns::setting::subnetPool, u"10.0.0.0/8"_s},
                                                    {turns::setting::model, u"a b"_s}},
                                                   u"test"_s);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, u"settings.invalid"_s);
        QVERIFY(refused.error().message.startsWith(u"nothing was saved: "_s));
        QVERIFY(refused.error().message.contains(u"'subnet-pool': '10.0.0.0/8' is a /8"_s));
        QVERIFY(refused.error().message.contains(u"'model':"_s));
        const auto loaded = settings.load();
        QVERIFY(loaded);
        QCOMPARE(*loaded, (turns::SettingValues{{turns::setting::maxTurns, u"4"_s}}));
    }

    void savesAreAuditedAndEmptyGoesBackToTheDefault()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        turns::SavedSettings settings(**store);
        QVERIFY(settings.save({{turns::setting::modelProvider, u"demo"_s},
                               {turns::setting::turnDeadline, u"600"_s}},
                              u"user:test"_s));
        QVERIFY(settings.save({{turns::setting::modelProvider, QString()}}, u"user:test"_s));
        QCOMPARE(*settings.load(), (turns::SettingValues{{turns::setting::turnDeadline, u"600"_s}}));
        const auto entries = audit::AuditLog(**store).query({u"settings"_s, {}, 0, 100, {}});
        QVERIFY(entries);
        QCOMPARE(entries->size(), 3);
        QCOMPARE(entries->last().subject, turns::setting::modelProvider);
        QCOMPARE(entries->last().detail.value(u"from"_s).toString(), u"demo"_s);
        QCOMPARE(entries->last().detail.value(u"to"_s).toString(), QString());
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
        QCOMPARE(runner->libvirtUri, u"qemu:///system"_s);
        QVERIFY(turns::SavedSettings(**store).save({{turns::setting::maxTurns, u"5"_s},
                                                    {turns::setting::subnetPool, u"10.99.0.0/24"_s},
                                                    {turns::setting::modelProvider, u"demo"_s}},
                                                   u"test"_s));
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(runner);
        QCOMPARE(runner->maxConcurrentTurns, 5);
        QCOMPARE(runner->subnetPool, u"10.99.0.0/24"_s);
        QCOMPARE(runner->modelProvider, turns::ModelProviderChoice::Demo);

        qputenv("ARIZUKO_MAX_TURNS", "3");
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(runner);
        QCOMPARE(runner->maxConcurrentTurns, 3);
        const auto effective = turns::effectiveSettings(*turns::SavedSettings(**store).load());
        const auto maxTurns = std::find_if(effective.cbegin(), effective.cend(), [](const auto &e) {
            return e.definition.key == turns::setting::maxTurns;
        });
        QCOMPARE(maxTurns->source, turns::SettingSource::Environment);
        QCOMPARE(maxTurns->savedValue, u"5"_s);

        qputenv("ARIZUKO_SUBNET_POOL", "10.213.0.1/16");
        runner = turns::RunnerSettings::load(**store);
        QVERIFY(!runner);
        QVERIFY2(runner.error().message.startsWith(u"ARIZUKO_SUBNET_POOL: '10.213.0.1/16'"_s),
                 qPrintable(runner.error().message));
    }
};

QTEST_GUILESS_MAIN(SavedSettingsTest)
#include "test_saved_settings.moc"
