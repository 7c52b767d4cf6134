// Scope, param and route globs: `*` stays within a segment, `**` spans segments,
// and globCovers never claims a containment that does not hold.

#include "policy/glob.h"

#include <QTest>

using arizuko::policy::globCovers;
using arizuko::policy::globMatches;

class GlobTest : public QObject
{
    Q_OBJECT

private slots:
    void matches_data();
    void matches();
    void covers_data();
    void covers();
};

void GlobTest::matches_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("expected");

    // Scope globs of the issue: a, a/*, a/**, **.
    QTest::newRow("exact") << QStringLiteral("a") << QStringLiteral("a") << true;
    QTest::newRow("exact is not a child") << QStringLiteral("a") << QStringLiteral("a/b") << false;
    QTest::newRow("exact is not a prefix") << QStringLiteral("a") << QStringLiteral("ab") << false;
    QTest::newRow("exact is not the parent")
        << QStringLiteral("a/b") << QStringLiteral("a") << false;
    QTest::newRow("children: direct child")
        << QStringLiteral("a/*") << QStringLiteral("a/b") << true;
    QTest::newRow("children: not itself") << QStringLiteral("a/*") << QStringLiteral("a") << false;
    QTest::newRow("children: not a grandchild")
        << QStringLiteral("a/*") << QStringLiteral("a/b/c") << false;
    QTest::newRow("children: not a sibling tree")
        << QStringLiteral("a/*") << QStringLiteral("ab/c") << false;
    QTest::newRow("subtree: itself") << QStringLiteral("a/**") << QStringLiteral("a") << true;
    QTest::newRow("subtree: child") << QStringLiteral("a/**") << QStringLiteral("a/b") << true;
    QTest::newRow("subtree: deep") << QStringLiteral("a/**") << QStringLiteral("a/b/c/d") << true;
    QTest::newRow("subtree: not a sibling")
        << QStringLiteral("a/**") << QStringLiteral("ab") << false;
    QTest::newRow("subtree: not a sibling's child")
        << QStringLiteral("a/**") << QStringLiteral("ab/c") << false;
    QTest::newRow("everything: top") << QStringLiteral("**") << QStringLiteral("corp") << true;
    QTest::newRow("everything: deep")
        << QStringLiteral("**") << QStringLiteral("corp/eng/sre") << true;
    QTest::newRow("everything: base") << QStringLiteral("**") << QStringLiteral("") << true;
    // `**` inside a pattern and in-segment wildcards.
    QTest::newRow("middle ** zero segments")
        << QStringLiteral("a/**/z") << QStringLiteral("a/z") << true;
    QTest::newRow("middle ** many segments")
        << QStringLiteral("a/**/z") << QStringLiteral("a/b/c/z") << true;
    QTest::newRow("middle ** wrong end")
        << QStringLiteral("a/**/z") << QStringLiteral("a/b/c/y") << false;
    QTest::newRow("star within segment")
        << QStringLiteral("corp/e*") << QStringLiteral("corp/eng") << true;
    QTest::newRow("star does not cross /")
        << QStringLiteral("telegram:*") << QStringLiteral("telegram:user/1") << false;
    QTest::newRow("star matches within")
        << QStringLiteral("telegram:*") << QStringLiteral("telegram:42") << true;
    QTest::newRow("question mark one char") << QStringLiteral("v?") << QStringLiteral("v1") << true;
    QTest::newRow("question mark not two")
        << QStringLiteral("v?") << QStringLiteral("v12") << false;
    QTest::newRow("star backtracks")
        << QStringLiteral("*ab*cd") << QStringLiteral("xabyabzcd") << true;
    QTest::newRow("star backtracks and fails")
        << QStringLiteral("*ab*cd") << QStringLiteral("xabyabzc") << false;
    QTest::newRow("empty matches only empty") << QStringLiteral("") << QStringLiteral("a") << false;
}

void GlobTest::matches()
{
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, expected);
    QCOMPARE(globMatches(pattern, text), expected);
}

void GlobTest::covers_data()
{
    QTest::addColumn<QString>("outer");
    QTest::addColumn<QString>("inner");
    QTest::addColumn<bool>("expected");

    QTest::newRow("everything covers a subtree")
        << QStringLiteral("**") << QStringLiteral("corp/**") << true;
    QTest::newRow("subtree covers itself")
        << QStringLiteral("corp/**") << QStringLiteral("corp/**") << true;
    QTest::newRow("subtree covers its root")
        << QStringLiteral("corp/**") << QStringLiteral("corp") << true;
    QTest::newRow("subtree covers children glob")
        << QStringLiteral("corp/**") << QStringLiteral("corp/*") << true;
    QTest::newRow("subtree covers a deeper subtree")
        << QStringLiteral("corp/**") << QStringLiteral("corp/eng/**") << true;
    QTest::newRow("subtree does not cover a sibling")
        << QStringLiteral("corp/**") << QStringLiteral("corpx") << false;
    QTest::newRow("subtree does not cover everything")
        << QStringLiteral("corp/**") << QStringLiteral("**") << false;
    QTest::newRow("children do not cover a subtree")
        << QStringLiteral("corp/*") << QStringLiteral("corp/**") << false;
    QTest::newRow("children cover one child")
        << QStringLiteral("corp/*") << QStringLiteral("corp/eng") << true;
    QTest::newRow("children cover a child glob")
        << QStringLiteral("corp/*") << QStringLiteral("corp/e*") << true;
    QTest::newRow("children do not cover the root")
        << QStringLiteral("corp/*") << QStringLiteral("corp") << false;
    QTest::newRow("exact covers only itself")
        << QStringLiteral("corp") << QStringLiteral("corp") << true;
    QTest::newRow("exact does not cover a glob")
        << QStringLiteral("corp") << QStringLiteral("corp/**") << false;
    QTest::newRow("partial glob not provable")
        << QStringLiteral("corp/e*") << QStringLiteral("corp/*") << false;
    QTest::newRow("param glob narrowed")
        << QStringLiteral("telegram:*") << QStringLiteral("telegram:42") << true;
    QTest::newRow("param glob widened")
        << QStringLiteral("telegram:42") << QStringLiteral("telegram:*") << false;
}

void GlobTest::covers()
{
    QFETCH(QString, outer);
    QFETCH(QString, inner);
    QFETCH(bool, expected);
    QCOMPARE(globCovers(outer, inner), expected);
}

QTEST_APPLESS_MAIN(GlobTest)
#include "test_glob.moc"
