// The action lattice: `*` > `admin` > `interact`, `admin` > `mcp:<tool>`,
// `mcp:*` > `mcp:<tool>`, and nothing else implies anything.

#include "policy/action.h"

#include <QTest>

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

    QTest::newRow("* covers admin") << QStringLiteral("*") << QStringLiteral("admin") << true;
    QTest::newRow("* covers interact") << QStringLiteral("*") << QStringLiteral("interact") << true;
    QTest::newRow("* covers a tool") << QStringLiteral("*") << QStringLiteral("mcp:send") << true;
    QTest::newRow("* covers egress") << QStringLiteral("*") << QStringLiteral("egress") << true;
    QTest::newRow("admin covers interact")
        << QStringLiteral("admin") << QStringLiteral("interact") << true;
    QTest::newRow("admin covers a tool")
        << QStringLiteral("admin") << QStringLiteral("mcp:send_file") << true;
    QTest::newRow("admin covers mcp:*")
        << QStringLiteral("admin") << QStringLiteral("mcp:*") << true;
    QTest::newRow("admin does not cover egress")
        << QStringLiteral("admin") << QStringLiteral("egress") << false;
    QTest::newRow("admin does not cover *")
        << QStringLiteral("admin") << QStringLiteral("*") << false;
    QTest::newRow("interact covers itself")
        << QStringLiteral("interact") << QStringLiteral("interact") << true;
    QTest::newRow("interact does not cover admin")
        << QStringLiteral("interact") << QStringLiteral("admin") << false;
    QTest::newRow("interact does not cover a tool")
        << QStringLiteral("interact") << QStringLiteral("mcp:send") << false;
    QTest::newRow("mcp:* covers a tool")
        << QStringLiteral("mcp:*") << QStringLiteral("mcp:reply") << true;
    QTest::newRow("mcp:* does not cover interact")
        << QStringLiteral("mcp:*") << QStringLiteral("interact") << false;
    QTest::newRow("mcp:* does not cover admin")
        << QStringLiteral("mcp:*") << QStringLiteral("admin") << false;
    QTest::newRow("mcp:* does not cover a bare mcp:")
        << QStringLiteral("mcp:*") << QStringLiteral("mcp:") << false;
    QTest::newRow("a tool covers itself")
        << QStringLiteral("mcp:send") << QStringLiteral("mcp:send") << true;
    QTest::newRow("a tool is not a prefix")
        << QStringLiteral("mcp:send") << QStringLiteral("mcp:send_file") << false;
    QTest::newRow("a tool does not cover mcp:*")
        << QStringLiteral("mcp:send") << QStringLiteral("mcp:*") << false;
    // Connector operations: globs split at ':', never implied by admin or
    // mcp:*, and no secret in the guest is implied by anything.
    QTest::newRow("ext glob covers an operation")
        << QStringLiteral("ext:github:*:read") << QStringLiteral("ext:github:issues:read") << true;
    QTest::newRow("ext * stays in one segment")
        << QStringLiteral("ext:github:*") << QStringLiteral("ext:github:issues:read") << false;
    QTest::newRow("ext ** spans segments")
        << QStringLiteral("ext:github:**") << QStringLiteral("ext:github:issues:read") << true;
    QTest::newRow("ext service wildcard")
        << QStringLiteral("ext:*:issues:read") << QStringLiteral("ext:gitlab:issues:read") << true;
    QTest::newRow("ext other service")
        << QStringLiteral("ext:github:**") << QStringLiteral("ext:githubx:issues:read") << false;
    QTest::newRow("ext glob covers a narrower glob")
        << QStringLiteral("ext:github:**") << QStringLiteral("ext:github:*:read") << true;
    QTest::newRow("ext narrower glob does not cover a wider")
        << QStringLiteral("ext:github:*:read") << QStringLiteral("ext:github:**") << false;
    QTest::newRow("admin does not cover ext")
        << QStringLiteral("admin") << QStringLiteral("ext:github:issues:read") << false;
    QTest::newRow("mcp:* does not cover ext")
        << QStringLiteral("mcp:*") << QStringLiteral("ext:github:issues:read") << false;
    QTest::newRow("* covers ext") << QStringLiteral("*") << QStringLiteral("ext:a:b") << true;
    QTest::newRow("* does not cover shell:env")
        << QStringLiteral("*") << QStringLiteral("shell:env:GITHUB_TOKEN") << false;
    QTest::newRow("shell:env covers itself") << QStringLiteral("shell:env:GITHUB_TOKEN")
                                             << QStringLiteral("shell:env:GITHUB_TOKEN") << true;
    QTest::newRow("egress covers itself")
        << QStringLiteral("egress") << QStringLiteral("egress") << true;
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

    QTest::newRow("*") << QStringLiteral("*") << true;
    QTest::newRow("admin") << QStringLiteral("admin") << true;
    QTest::newRow("interact") << QStringLiteral("interact") << true;
    QTest::newRow("egress") << QStringLiteral("egress") << true;
    QTest::newRow("mcp:*") << QStringLiteral("mcp:*") << true;
    QTest::newRow("mcp:send_file") << QStringLiteral("mcp:send_file") << true;
    QTest::newRow("ext operation") << QStringLiteral("ext:github:issues:read") << true;
    QTest::newRow("ext glob") << QStringLiteral("ext:*:issues:read") << true;
    QTest::newRow("ext **") << QStringLiteral("ext:github:**") << true;
    QTest::newRow("ext upper-case") << QStringLiteral("ext:GitHub:read") << false;
    QTest::newRow("ext empty segment") << QStringLiteral("ext:github::read") << false;
    QTest::newRow("shell:env") << QStringLiteral("shell:env:GITHUB_TOKEN") << true;
    QTest::newRow("shell:env glob") << QStringLiteral("shell:env:*") << false;
    QTest::newRow("empty") << QStringLiteral("") << false;
    QTest::newRow("bare mcp:") << QStringLiteral("mcp:") << false;
    QTest::newRow("tool glob") << QStringLiteral("mcp:send*") << false;
    QTest::newRow("space") << QStringLiteral("mcp:send file") << false;
    QTest::newRow("upper-case word") << QStringLiteral("Admin") << false;
}

void ActionTest::validation()
{
    QFETCH(QString, action);
    QFETCH(bool, valid);
    const auto result = validateAction(action);
    QCOMPARE(result.ok(), valid);
    if (!valid)
        QVERIFY2(result.error().message.contains(QStringLiteral("mcp:<tool>")),
                 qPrintable(result.error().message));
}

QTEST_APPLESS_MAIN(ActionTest)
#include "test_action.moc"
