// The proxy's command line as the engine builds it: today's flags unchanged
// for a folder that denies hosts on no list, and the --ask flags (with the
// folder's name for denials) when it asks.

#include "policy/egress_command_line.h"

#include <QTest>

using namespace Qt::StringLiterals;
using arizuko::policy::egressArguments;
using arizuko::policy::EgressCommandLine;

class EgressCommandLineTest : public QObject
{
    Q_OBJECT

private slots:
    void denyingFolder();
    void askingFolder();
};

void EgressCommandLineTest::denyingFolder()
{
    EgressCommandLine line;
    line.listenAddress = QStringLiteral("10.213.0.1:0");
    line.client = QStringLiteral("10.213.0.2");
    line.allow = {QStringLiteral("github.com"), QStringLiteral("pypi.org")};
    QCOMPARE(egressArguments(line),
             QStringList({u"--listen"_s, u"10.213.0.1:0"_s, u"--client"_s, u"10.213.0.2"_s,
                          u"--drain-timeout"_s, u"1"_s, u"--allow"_s, u"github.com,pypi.org"_s,
                          u"--deny-private"_s}));
}

void EgressCommandLineTest::askingFolder()
{
    EgressCommandLine line;
    line.listenAddress = QStringLiteral("10.213.0.1:0");
    line.client = QStringLiteral("10.213.0.2");
    line.denyPrivate = false;
    line.folder = QStringLiteral("corp/eng");
    line.ask = true;
    line.askTimeoutSeconds = 90;
    line.askLimit = 5;
    QCOMPARE(egressArguments(line),
             QStringList({u"--listen"_s, u"10.213.0.1:0"_s, u"--client"_s, u"10.213.0.2"_s,
                          u"--drain-timeout"_s, u"1"_s, u"--folder"_s, u"corp/eng"_s, u"--ask"_s,
                          u"--ask-timeout"_s, u"90"_s, u"--ask-limit"_s, u"5"_s}));
}

QTEST_APPLESS_MAIN(EgressCommandLineTest)
#include "test_egress_command_line.moc"
