// Scope, param and route globs: `*` stays within a segment, `**` spans segments,
// and globCovers never claims a containment that does not hold.

#include "policy/glob.h"

#include <QTest>

using namespace Qt::StringLiterals;
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
    QTest::newRow("exact") << u"a"_s << u"a"_s << true;
    QTest::newRow("exact is not a child") << u"a"_s << u"a/b"_s << false;
    QTest::newRow("exact is not a prefix") << u"a"_s << u"ab"_s << false;
    QTest::newRow("exact is not the parent") << u"a/b"_s << u"a"_s << false;
    QTest::newRow("children: direct child") << u"a/*"_s << u"a/b"_s << true;
    QTest::newRow("children: not itself") << u"a/*"_s << u"a"_s << false;
    QTest::newRow("children: not a grandchild") << u"a/*"_s << u"a/b/c"_s << false;
    QTest::newRow("children: not a sibling tree") << u"a/*"_s << u"ab/c"_s << false;
    QTest::newRow("subtree: itself") << u"a/**"_s << u"a"_s << true;
    QTest::newRow("subtree: child") << u"a/**"_s << u"a/b"_s << true;
    QTest::newRow("subtree: deep") << u"a/**"_s << u"a/b/c/d"_s << true;
    QTest::newRow("subtree: not a sibling") << u"a/**"_s << u"ab"_s << false;
    QTest::newRow("subtree: not a sibling's child") << u"a/**"_s << u"ab/c"_s << false;
    QTest::newRow("everything: top") << u"**"_s << u"corp"_s << true;
    QTest::newRow("everything: deep") << u"**"_s << u"corp/eng/sre"_s << true;
    QTest::newRow("everything: base") << u"**"_s << u""_s << true;
    // `**` inside a pattern and in-segment wildcards.
    QTest::newRow("middle ** zero segments") << u"a/**/z"_s << u"a/z"_s << true;
    QTest::newRow("middle ** many segments") << u"a/**/z"_s << u"a/b/c/z"_s << true;
    QTest::newRow("middle ** wrong end") << u"a/**/z"_s << u"a/b/c/y"_s << false;
    QTest::newRow("star within segment") << u"corp/e*"_s << u"corp/eng"_s << true;
    QTest::newRow("star does not cross /") << u"telegram:*"_s << u"telegram:user/1"_s << false;
    QTest::newRow("star matches within") << u"telegram:*"_s << u"telegram:42"_s << true;
    QTest::newRow("question mark one char") << u"v?"_s << u"v1"_s << true;
    QTest::newRow("question mark not two") << u"v?"_s << u"v12"_s << false;
    QTest::newRow("star backtracks") << u"*ab*cd"_s << u"xabyabzcd"_s << true;
    QTest::newRow("star backtracks and fails") << u"*ab*cd"_s << u"xabyabzc"_s << false;
    QTest::newRow("empty matches only empty") << u""_s << u"a"_s << false;
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

    QTest::newRow("everything covers a subtree") << u"**"_s << u"corp/**"_s << true;
    QTest::newRow("subtree covers itself") << u"corp/**"_s << u"corp/**"_s << true;
    QTest::newRow("subtree covers its root") << u"corp/**"_s << u"corp"_s << true;
    QTest::newRow("subtree covers children glob") << u"corp/**"_s << u"corp/*"_s << true;
    QTest::newRow("subtree covers a deeper subtree") << u"corp/**"_s << u"corp/eng/**"_s << true;
    QTest::newRow("subtree does not cover a sibling") << u"corp/**"_s << u"corpx"_s << false;
    QTest::newRow("subtree does not cover everything") << u"corp/**"_s << u"**"_s << false;
    QTest::newRow("children do not cover a subtree") << u"corp/*"_s << u"corp/**"_s << false;
    QTest::newRow("children cover one child") << u"corp/*"_s << u"corp/eng"_s << true;
    QTest::newRow("children cover a child glob") << u"corp/*"_s << u"corp/e*"_s << true;
    QTest::newRow("children do not cover the root") << u"corp/*"_s << u"corp"_s << false;
    QTest::newRow("exact covers only itself") << u"corp"_s << u"corp"_s << true;
    QTest::newRow("exact does not cover a glob") << u"corp"_s << u"corp/**"_s << false;
    QTest::newRow("partial glob not provable") << u"corp/e*"_s << u"corp/*"_s << false;
    QTest::newRow("param glob narrowed") << u"telegram:*"_s << u"telegram:42"_s << true;
    QTest::newRow("param glob widened") << u"telegram:42"_s << u"telegram:*"_s << false;
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
