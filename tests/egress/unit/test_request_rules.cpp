// Rules by method and path (--rule): the path glob, parsing, the canonical path a rule is matched
// against, and the order of judgement (deny wins, no matching allow rule denies).

#include "request_rules.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

bool globMatches(std::string_view pattern, std::string_view path)
{
    auto glob = PathGlob::parse(pattern);
    EXPECT_TRUE(glob) << pattern << ": " << (glob ? "" : glob.error());
    return glob && glob->matches(path);
}

TEST(PathGlob, StarIsWithinOneSegment)
{
    EXPECT_TRUE(globMatches("/repos/*", "/repos/acme"));
    EXPECT_TRUE(globMatches("/repos/*.git", "/repos/widget.git"));
    EXPECT_TRUE(globMatches("/repos/a*e", "/repos/acme"));
    EXPECT_FALSE(globMatches("/repos/*", "/repos/acme/widget"));
    EXPECT_FALSE(globMatches("/repos/*", "/repos"));
    EXPECT_TRUE(globMatches("/repos/*", "/repos/"));
    EXPECT_FALSE(globMatches("/repos/*.git", "/repos/widget.gitx"));
    EXPECT_TRUE(globMatches("/exact", "/exact"));
    EXPECT_FALSE(globMatches("/exact", "/exact/"));
    EXPECT_FALSE(globMatches("/exact", "/Exact"));
}

TEST(PathGlob, DoubleStarIsAnyNumberOfSegments)
{
    EXPECT_TRUE(globMatches("/repos/acme/**", "/repos/acme"));
    EXPECT_TRUE(globMatches("/repos/acme/**", "/repos/acme/"));
    EXPECT_TRUE(globMatches("/repos/acme/**", "/repos/acme/widget/pulls/1"));
    EXPECT_FALSE(globMatches("/repos/acme/**", "/repos/acmex/widget"));
    EXPECT_FALSE(globMatches("/repos/acme/**", "/repos"));
    EXPECT_TRUE(globMatches("/**/git-receive-pack", "/git-receive-pack"));
    EXPECT_TRUE(globMatches("/**/git-receive-pack", "/acme/widget.git/git-receive-pack"));
    EXPECT_FALSE(globMatches("/**/git-receive-pack", "/acme/widget.git/git-upload-pack"));
    EXPECT_FALSE(globMatches("/**/git-receive-pack", "/acme/git-receive-pack/x"));
    EXPECT_TRUE(globMatches("/**", "/"));
    EXPECT_TRUE(globMatches("/**", "/anything/at/all"));
    EXPECT_TRUE(globMatches("/a/**/b/**/c", "/a/x/b/y/z/c"));
    EXPECT_FALSE(globMatches("/a/**/b/**/c", "/a/x/c"));
    EXPECT_FALSE(globMatches("/**", "relative"));
}

TEST(PathGlob, BadPatterns)
{
    for (const std::string_view bad :
         {"repos/**", "", "/a**", "/**b/c", "/a b", "/a?b", "/a#b", "/a\\b"})
        EXPECT_FALSE(PathGlob::parse(bad)) << bad;
}

TEST(RequestRule, Parses)
{
    auto rule = parseRequestRule("  allow   GET,HEAD  *.API.github.com  /repos/acme/** ");
    ASSERT_TRUE(rule) << rule.error();
    EXPECT_TRUE(rule->allow);
    EXPECT_EQ(rule->methods, (std::vector<std::string>{"GET", "HEAD"}));
    EXPECT_EQ(rule->text, "allow GET,HEAD *.API.github.com /repos/acme/**");
    EXPECT_TRUE(rule->matchesMethod("HEAD"));
    EXPECT_FALSE(rule->matchesMethod("get"));
    EXPECT_TRUE(rule->host.covers(*normalizeHost("api.github.com")));
    EXPECT_TRUE(rule->host.covers(*normalizeHost("x.api.github.com")));
    EXPECT_FALSE(rule->host.covers(*normalizeHost("github.com")));

    auto any = parseRequestRule("deny * github.com /**/git-receive-pack");
    ASSERT_TRUE(any) << any.error();
    EXPECT_FALSE(any->allow);
    EXPECT_TRUE(any->methods.empty());
    EXPECT_TRUE(any->matchesMethod("PROPFIND"));
}

TEST(RequestRule, BadRules)
{
    for (const std::string_view bad :
         {"", "allow", "allow GET a.com", "allow GET a.com /x extra", "permit GET a.com /x",
          "Allow GET a.com /x", "allow get a.com /x", "allow GET,,HEAD a.com /x",
          "allow GET, a.com /x", "allow GET bad_host! /x", "allow GET a.com x",
          "allow GET a.com /a**"})
        EXPECT_FALSE(parseRequestRule(bad)) << bad;
}

TEST(CanonicalRulePath, DecodesAndCutsTheQuery)
{
    EXPECT_EQ(canonicalRulePath("/repos/acme?x=1#f").value(), "/repos/acme");
    EXPECT_EQ(canonicalRulePath("/repos/%61cme").value(), "/repos/acme");
    EXPECT_EQ(canonicalRulePath("/a%2Fb").value(), "/a/b");
    EXPECT_EQ(canonicalRulePath("/").value(), "/");
    EXPECT_EQ(canonicalRulePath("/a/").value(), "/a/");
}

TEST(CanonicalRulePath, RefusesPathsAServerCouldReadOtherwise)
{
    for (const std::string_view bad :
         {"/a/../b", "/a/./b", "/a/..", "/a//b", "//a", "/a/%2e%2e/b", "/a/%2E/b", "/a%2F..%2Fb",
          "/a\\b", "/a%5Cb", "/a%00b", "/a%0Ab", "/a%", "/a%4", "/a%zz", "relative", "*"})
        EXPECT_FALSE(canonicalRulePath(bad)) << bad;
}

RequestRules rulesOf(std::initializer_list<std::string_view> texts)
{
    RequestRules rules;
    for (const std::string_view text : texts) {
        auto rule = parseRequestRule(text);
        EXPECT_TRUE(rule) << text;
        if (rule)
            rules.add(std::move(rule.value()));
    }
    return rules;
}

TEST(RequestRules, InspectsTheHostsTheyName)
{
    const RequestRules rules = rulesOf({"allow GET github.com /**", "deny * 10.0.0.1 /x"});
    EXPECT_TRUE(rules.inspects(*normalizeHost("github.com")));
    EXPECT_TRUE(rules.inspects(*normalizeHost("api.github.com")));
    EXPECT_FALSE(rules.inspects(*normalizeHost("evilgithub.com")));
    EXPECT_TRUE(rules.inspects(*normalizeHost("10.0.0.1")));
    EXPECT_FALSE(rules.inspects(*normalizeHost("10.0.0.2")));
}

TEST(RequestRules, DenyWinsAndNoMatchingAllowDenies)
{
    const RequestRules rules = rulesOf({
        "allow GET,HEAD api.github.com /repos/acme/**",
        "allow * github.com /acme/**",
        "deny POST github.com /**/git-receive-pack",
    });
    const HostName api = *normalizeHost("api.github.com");
    const HostName github = *normalizeHost("github.com");

    RuleJudgement judged = rules.judge("GET", api, "/repos/acme/widget");
    EXPECT_EQ(judged.reason, Reason::Allowed);
    EXPECT_EQ(judged.rule, "allow GET,HEAD api.github.com /repos/acme/**");

    // api.github.com is covered by the github.com rules too.
    judged = rules.judge("DELETE", api, "/repos/acme/widget");
    EXPECT_EQ(judged.reason, Reason::NoMatchingRule);
    EXPECT_EQ(judged.rule, "");

    judged = rules.judge("POST", github, "/acme/widget.git/git-upload-pack");
    EXPECT_EQ(judged.reason, Reason::Allowed);
    EXPECT_EQ(judged.rule, "allow * github.com /acme/**");

    judged = rules.judge("POST", github, "/acme/widget.git/git-receive-pack");
    EXPECT_EQ(judged.reason, Reason::DeniedByRule);
    EXPECT_EQ(judged.rule, "deny POST github.com /**/git-receive-pack");

    judged = rules.judge("GET", github, "/other/widget");
    EXPECT_EQ(judged.reason, Reason::NoMatchingRule);

    const std::string detail = ruleDenialDetail("POST", "github.com", "/a/git-receive-pack",
                                                rules.judge("POST", github, "/a/git-receive-pack"));
    EXPECT_NE(detail.find("'deny POST github.com /**/git-receive-pack'"), std::string::npos);
}

} // namespace
} // namespace arizuko::egress
