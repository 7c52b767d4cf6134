// The action lattice: `*` > `admin` > `interact`, `admin` > `mcp:<tool>`,
// `mcp:*` > `mcp:<tool>`, and nothing else implies anything.

#include "policy/action.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace arizuko::policy;

class ActionTest : public QObject
{
    Q_OBJECT

private slots:
    void covers_data();
    void covers();
    void validation_data();
    void validation();
};

void ActionTest::covers_data()
{
    QTest::addColumn<QString>("granted");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<bool>("expected");

    QTest::newRow("* covers admin") << u"*"_s << u"admin"_s << true;
    QTest::newRow("* covers interact") << u"*"_s << u"interact"_s << true;
    QTest::newRow("* covers a tool") << u"*"_s << u"mcp:send"_s << true;
    QTest::newRow("* covers egress") << u"*"_s << u"egress"_s << true;
    QTest::newRow("admin covers interact") << u"admin"_s << u"interact"_s << true;
    QTest::newRow("admin covers a tool") << u"admin"_s << u"mcp:send_file"_s << true;
    QTest::newRow("admin covers mcp:*") << u"admin"_s << u"mcp:*"_s << true;
    QTest::newRow("admin does not cover egress") << u"admin"_s << u"egress"_s << false;
    QTest::newRow("admin does not cover *") << u"admin"_s << u"*"_s << false;
    QTest::newRow("interact covers itself") << u"interact"_s << u"interact"_s << true;
    QTest::newRow("interact does not cover admin") << u"interact"_s << u"admin"_s << false;
    QTest::newRow("interact does not cover a tool") << u"interact"_s << u"mcp:send"_s << false;
    QTest::newRow("mcp:* covers a tool") << u"mcp:*"_s << u"mcp:reply"_s << true;
    QTest::newRow("mcp:* does not cover interact") << u"mcp:*"_s << u"interact"_s << false;
    QTest::newRow("mcp:* does not cover admin") << u"mcp:*"_s << u"admin"_s << false;
    QTest::newRow("mcp:* does not cover a bare mcp:") << u"mcp:*"_s << u"mcp:"_s << false;
    QTest::newRow("a tool covers itself") << u"mcp:send"_s << u"mcp:send"_s << true;
    QTest::newRow("a tool is not a prefix") << u"mcp:send"_s << u"mcp:send_file"_s << false;
    QTest::newRow("a tool does not cover mcp:*") << u"mcp:send"_s << u"mcp:*"_s << false;
    QTest::newRow("egress covers itself") << u"egress"_s << u"egress"_s << true;
}

void ActionTest::covers()
{
    QFETCH(QString, granted);
    QFETCH(QString, requested);
    QFETCH(bool, expected);
    QCOMPARE(actionCovers(granted, requested), expected);
}

void ActionTest::validation_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<bool>("valid");

    QTest::newRow("*") << u"*"_s << true;
    QTest::newRow("admin") << u"admin"_s << true;
    QTest::newRow("interact") << u"interact"_s << true;
    QTest::newRow("egress") << u"egress"_s << true;
    QTest::newRow("mcp:*") << u"mcp:*"_s << true;
    QTest::newRow("mcp:send_file") << u"mcp:send_file"_s << true;
    QTest::newRow("empty") << u""_s << false;
    QTest::newRow("bare mcp:") << u"mcp:"_s << false;
    QTest::newRow("tool glob") << u"mcp:send*"_s << false;
    QTest::newRow("space") << u"mcp:send file"_s << false;
    QTest::newRow("upper-case word") << u"Admin"_s << false;
}

void ActionTest::validation()
{
    QFETCH(QString, action);
    QFETCH(bool, valid);
    const auto result = validateAction(action);
    QCOMPARE(result.ok(), valid);
    if (!valid)
        QVERIFY2(result.error().message.contains(u"mcp:<tool>"_s),
                 qPrintable(result.error().message));
}

QTEST_APPLESS_MAIN(ActionTest)
#include "test_action.moc"
