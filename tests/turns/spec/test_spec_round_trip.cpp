// The turn spec across the channel: what the host's writer
// (engine/turns/turn_spec.cpp, with each agent's own members) puts on the
// line, the guest's reader (engine/guest/turn_spec.cpp) reads back, member
// for member, for every agent kind; and a prestart the guest accepts for
// the turn the host then sends. Both sides are linked here, so a member
// renamed or retyped on one side fails this test, not a VM.

#include "agent/agent_profile.h"
#include "turn_spec.h" // the guest's (engine/guest)
#include "turns/agent_session.h"
#include "turns/turn_spec.h"

#include <QJsonDocument>
#include <QTest>
#include <algorithm>
#include <unistd.h>

using namespace arizuko;

namespace {

std::string text(const QString &string)
{
    return string.toStdString();
}

turns::TurnSpecPlace place()
{
    turns::TurnSpecPlace place;
    place.turnId = QStringLiteral("turn-0193-ü");
    place.folder = QStringLiteral("corp/eng");
    place.topic = QStringLiteral("release notes «draft»");
    place.subnet.range = {0x0AD50010, 30}; // 10.213.0.16/30
    place.proxyPort = 3128;
    place.gatewayPort = 4000;
    place.gatewayToken = "tok-\x01\x7f";
    place.skills = true;
    place.timeoutSeconds = 1800;
    place.environment = {{QStringLiteral("GITHUB_TOKEN"), QStringLiteral("ghp_\"quoted\"\n")},
                         {QStringLiteral("NPM_TOKEN"), QStringLiteral("npm-日本")}};
    place.inspectionCa = "-----BEGIN CERTIFICATE-----\nMIIBturn\n-----END CERTIFICATE-----\n";
    return place;
}

turns::AgentLaunch launch(bool newSession)
{
    turns::AgentLaunch launch;
    launch.prompt = QStringLiteral("Write \"notes\".\n\tThen stop. 😀");
    launch.model = QStringLiteral("claude-opus-4");
    launch.sessionId = QStringLiteral("0b4c2a1e-5f6d-4e3b-9a8c-7d6e5f4a3b2c");
    launch.newSession = newSession;
    launch.observedContext = QStringLiteral("[observed] a post\n");
    return launch;
}

} // namespace

class SpecRoundTripTest : public QObject
{
    Q_OBJECT

private slots:
    // Each kind has its line in the turns' table (agent_kinds.cpp): the
    // names go both ways, a conversation's is its profile's, and the
    // default kind is the default profile's.
    void everyKindHasItsLine()
    {
        for (const auto kind : {turns::AgentKind::Command, turns::AgentKind::Claude,
                                turns::AgentKind::Codex, turns::AgentKind::Pi}) {
            QVERIFY(turns::agentKindFromName(turns::agentKindName(kind)) == kind);
            if (const agent::AgentProfile *profile = turns::agentProfileOf(kind))
                QCOMPARE(turns::agentKindName(kind), QString(profile->name));
            else
                QCOMPARE(kind, turns::AgentKind::Command);
        }
        QCOMPARE(turns::agentProfileOf(turns::defaultAgentKind()), &agent::defaultAgentProfile());
        QVERIFY(!turns::agentKindFromName(QStringLiteral("gpt")));
    }

    void everyMemberArrives_data()
    {
        QTest::addColumn<turns::AgentKind>("kind");
        QTest::addColumn<bool>("newSession");
        QTest::newRow("command") << turns::AgentKind::Command << false;
        QTest::newRow("claude, new session") << turns::AgentKind::Claude << true;
        QTest::newRow("claude, resumed") << turns::AgentKind::Claude << false;
        QTest::newRow("codex") << turns::AgentKind::Codex << true;
        QTest::newRow("pi") << turns::AgentKind::Pi << false;
    }

    void everyMemberArrives()
    {
        QFETCH(turns::AgentKind, kind);
        QFETCH(bool, newSession);
        const turns::TurnSpecPlace where = place();
        const std::unique_ptr<turns::AgentSession> session =
            turns::makeAgentSession(kind, launch(newSession));
        const QJsonObject members = session->specMembers();
        QByteArray line = turns::turnSpecLine(members, where);
        QVERIFY(line.endsWith('\n'));
        line.chop(1);

        guest::TurnSpec spec;
        try {
            spec = guest::parseTurnSpec(std::string_view(line.constData(), line.size()));
        } catch (const guest::SpecError &error) {
            QFAIL(qPrintable(
                QStringLiteral("the guest refused the host's spec: %1\n%2")
                    .arg(QString::fromStdString(error.what()), QString::fromUtf8(line))));
        }

        QCOMPARE(spec.turnId, text(where.turnId));
        QCOMPARE(spec.folder, text(where.folder));
        QCOMPARE(spec.topic, text(where.topic));
        QCOMPARE(guest::agentName(spec.agent), text(turns::agentKindName(kind)));
        QCOMPARE(spec.prompt, text(members.value(QStringLiteral("prompt")).toString()));
        QCOMPARE(spec.command, text(members.value(QStringLiteral("command")).toString()));
        if (kind == turns::AgentKind::Command)
            QCOMPARE(spec.command, text(launch(newSession).prompt));
        else
            QVERIFY(spec.prompt.find(text(launch(newSession).prompt)) != std::string::npos);
        QCOMPARE(spec.sessionId, text(launch(newSession).sessionId));
        QCOMPARE(spec.sessionMode,
                 newSession ? guest::SessionMode::New : guest::SessionMode::Resume);
        QCOMPARE(spec.model, text(launch(newSession).model));
        QCOMPARE(spec.proxyUrl, std::string("http://10.213.0.17:3128"));
        QCOMPARE(spec.gatewayUrl, std::string("http://10.213.0.17:4000"));
        QCOMPARE(spec.gatewayToken, std::string(where.gatewayToken.constData()));
        QCOMPARE(spec.skills, true);
        QCOMPARE(spec.timeoutSeconds, std::int64_t{1800});
        QCOMPARE(spec.inspectCa, std::string(where.inspectionCa.constData()));
        QCOMPARE(spec.uid, std::uint32_t(::getuid()));
        QCOMPARE(spec.gid, std::uint32_t(::getgid()));
        QVERIFY(spec.network.has_value());
        QCOMPARE(guest::formatIpv4(spec.network->address), std::string("10.213.0.18"));
        QCOMPARE(spec.network->prefixLength, 30);
        QCOMPARE(guest::formatIpv4(spec.network->gateway), std::string("10.213.0.17"));
        auto environment = spec.environment;
        std::sort(environment.begin(), environment.end());
        const std::vector<std::pair<std::string, std::string>> expected{
            {"GITHUB_TOKEN", "ghp_\"quoted\"\n"}, {"NPM_TOKEN", "npm-日本"}};
        QCOMPARE(environment, expected);
        QCOMPARE(spec.prestarted, false);
        // A spare's started agent is only used when the spec asks for it.
        QVERIFY(!guest::prestartMismatch(spec, spec).empty());
    }

    // A spare's agent, started from the host's prestart message, is the one
    // the guest then finds fit for the turn the host sends it.
    void aPrestartFitsItsTurn_data()
    {
        QTest::addColumn<turns::AgentKind>("kind");
        QTest::newRow("claude") << turns::AgentKind::Claude;
        QTest::newRow("pi") << turns::AgentKind::Pi;
    }

    void aPrestartFitsItsTurn()
    {
        QFETCH(turns::AgentKind, kind);
        // What a started agent cannot take: skills and shell:env secrets are
        // read at its start (Turn::sendSpec then uses it only without them).
        turns::TurnSpecPlace where = place();
        where.skills = false;
        where.environment = {};
        where.inspectionCa = {};
        const turns::AgentLaunch started = launch(true);
        const QByteArray prestartLine =
            QJsonDocument(turns::prestartMessage({kind, started.model, started.sessionId}, where))
                .toJson(QJsonDocument::Compact);
        guest::TurnSpec prestart;
        try {
            prestart = guest::parsePrestart(
                std::string_view(prestartLine.constData(), prestartLine.size()));
        } catch (const guest::SpecError &error) {
            QFAIL(qPrintable(
                QStringLiteral("the guest refused the host's prestart: %1\n%2")
                    .arg(QString::fromStdString(error.what()), QString::fromUtf8(prestartLine))));
        }
        QVERIFY(prestart.prestarted);
        QCOMPARE(guest::agentName(prestart.agent), text(turns::agentKindName(kind)));
        QCOMPARE(prestart.sessionId, text(started.sessionId));

        where.prestarted = true;
        QByteArray turnLine =
            turns::turnSpecLine(turns::makeAgentSession(kind, started)->specMembers(), where);
        turnLine.chop(1);
        const guest::TurnSpec spec =
            guest::parseTurnSpec(std::string_view(turnLine.constData(), turnLine.size()));
        QCOMPARE(QString::fromStdString(guest::prestartMismatch(prestart, spec)), QString());

        turns::AgentLaunch otherModel = started;
        otherModel.model = QStringLiteral("claude-haiku-4");
        QByteArray otherLine =
            turns::turnSpecLine(turns::makeAgentSession(kind, otherModel)->specMembers(), where);
        otherLine.chop(1);
        QVERIFY(!guest::prestartMismatch(prestart, guest::parseTurnSpec(std::string_view(
                                                       otherLine.constData(), otherLine.size())))
                     .empty());
    }
};

QTEST_GUILESS_MAIN(SpecRoundTripTest)
#include "test_spec_round_trip.moc"
