// The bindings of secrets (--secrets-fd): parsing and its errors, substitution, the leak check.

#include "base64.hpp"
#include "host_name.hpp"
#include "secret_bindings.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

const std::string kTokenPlaceholder = "arizuko-placeholder-0123456789abcdef0123456789abcdef";
const std::string kGitPlaceholder = "arizuko-placeholder-fedcba9876543210fedcba9876543210";

std::string templateLine(const std::string &value = "tok-VALUE-1")
{
    return R"({"name":"TOKEN","placeholder":")" + kTokenPlaceholder + R"(","value_b64":")" +
           encodeBase64(value) +
           R"(","hosts":["api.github.com"],"header":"Authorization","template":"Bearer {}"})";
}

std::string basicLine()
{
    return R"({"name":"GIT_PASSWORD","placeholder":")" + kGitPlaceholder + R"(","value_b64":")" +
           encodeBase64("pass:word") + R"(","hosts":["*.example.test"],"basic":true})";
}

SecretBindings parsed(const std::string &lines)
{
    auto bindings = SecretBindings::parse(lines);
    EXPECT_TRUE(bindings.ok()) << (bindings.ok() ? "" : bindings.error());
    return bindings.ok() ? std::move(bindings.value()) : SecretBindings();
}

HostName host(std::string_view name)
{
    return *normalizeHost(name);
}

std::string fieldValue(const HeaderFields &fields, std::string_view name)
{
    for (const HeaderField &field : fields) {
        if (equalsIgnoringCase(field.name, name))
            return field.value;
    }
    return "<none>";
}

TEST(Base64, RoundTripsAndRefusesWhatIsNotCanonical)
{
    for (const std::string text : {"", "a", "ab", "abc", "abcd", "git:pass\xff\x01"}) {
        auto decoded = decodeBase64(encodeBase64(text));
        ASSERT_TRUE(decoded.ok()) << text;
        EXPECT_EQ(decoded.value(), text);
    }
    EXPECT_EQ(encodeBase64("git:x"), "Z2l0Ong=");
    for (const std::string_view bad : {"Z2l0Ong", "Z2l0Onh=", "Z2l0 Ong=", "Z2l0Ong=====", "!!!!"})
        EXPECT_FALSE(decodeBase64(bad).ok()) << bad;
}

TEST(SecretBindings, ParsesBothKindsAndSkipsBlankLines)
{
    const SecretBindings bindings = parsed(templateLine() + "\n\n" + basicLine() + "\n");
    ASSERT_EQ(bindings.size(), 2u);
    const SecretBinding &token = bindings.all()[0];
    EXPECT_EQ(token.name, "TOKEN");
    EXPECT_EQ(token.value, "tok-VALUE-1");
    EXPECT_FALSE(token.basic);
    EXPECT_EQ(token.header, "Authorization");
    EXPECT_EQ(token.prefix, "Bearer ");
    EXPECT_EQ(token.suffix, "");
    EXPECT_TRUE(bindings.all()[1].basic);
    EXPECT_EQ(bindings.boundTo(host("api.github.com")), &token);
    EXPECT_EQ(bindings.boundTo(host("github.com")), nullptr);
    EXPECT_EQ(bindings.boundTo(host("git.example.test")), &bindings.all()[1]);
    EXPECT_TRUE(parsed("").empty());
}

TEST(SecretBindings, ErrorsNameTheLineAndTheProblemButNeverTheValue)
{
    const std::string good = templateLine();
    const std::string head = R"({"name":"X","placeholder":")" + kGitPlaceholder + R"(",)";
    const std::string value = R"("value_b64":")" + encodeBase64("hidden-value") + R"(",)";
    const struct
    {
        std::string lines;
        std::string message;
    } cases[] = {
        {good + "\n[1]", "line 2: not a JSON object"},
        {good + "\n{", "line 2: not a JSON object"},
        {head + value + R"("hosts":["a.test"],"basic":true,"basic":true})",
         "line 1: a member given twice"},
        {head + value + R"("hosts":["a.test"],"basic":true,"extra":1})",
         "line 1: unknown member \"extra\""},
        {R"({"name":"a b","placeholder":")" + kGitPlaceholder + R"(",)" + value +
             R"("hosts":["a.test"],"basic":true})",
         "line 1: \"name\""},
        {R"({"name":"X","placeholder":"arizuko-placeholder-0123",)" + value +
             R"("hosts":["a.test"],"basic":true})",
         "line 1: \"placeholder\""},
        {head + R"("value_b64":"aGk=","hosts":["a.test"],"basic":true})",
         "line 1: the value is not 4 to 8192 bytes long (secret X)"},
        {head + R"("value_b64":"not base64","hosts":["a.test"],"basic":true})",
         "\"value_b64\" is not base64"},
        {head + value + R"("hosts":[],"basic":true})", "\"hosts\" is not a non-empty array"},
        {head + value + R"("hosts":["bad host"],"basic":true})", "\"hosts\": 'bad host'"},
        {head + value + R"("hosts":["a.test"],"basic":false})", "\"basic\" is not true"},
        {head + value + R"("hosts":["a.test"]})", "neither \"basic\":true nor"},
        {head + value + R"("hosts":["a.test"],"basic":true,"header":"X"})", "both \"basic\""},
        {head + value + R"("hosts":["a.test"],"header":"X","template":"{}{}"})",
         "does not hold {} exactly once"},
        {head + value + R"("hosts":["a.test"],"header":"Bad Name","template":"{}"})",
         "\"header\" is not a header field name"},
        {head + value + R"("hosts":["a.test"],"header":"Content-Length","template":"{}"})",
         "a field the proxy writes itself"},
        {head + R"("value_b64":")" + encodeBase64("new\r\nline") +
             R"(","hosts":["a.test"],"header":"X","template":"{}"})",
         "no header field value"},
        {good + "\n" + good, "line 2: secret TOKEN is bound twice"},
        {good + "\n" + R"({"name":"OTHER","placeholder":")" + kTokenPlaceholder + R"(",)" + value +
             R"("hosts":["a.test"],"basic":true})",
         "line 2: secret OTHER has the placeholder of TOKEN"},
    };
    for (const auto &bad : cases) {
        const auto outcome = SecretBindings::parse(bad.lines);
        ASSERT_FALSE(outcome.ok()) << bad.lines;
        EXPECT_NE(outcome.error().find(bad.message), std::string::npos)
            << outcome.error() << " vs " << bad.message;
        EXPECT_EQ(outcome.error().find("hidden-value"), std::string::npos) << outcome.error();
    }
}

TEST(SecretBindings, SubstitutesTheTemplateOnlyWhenTheWholeValueMatches)
{
    const SecretBindings bindings = parsed(templateLine());
    HeaderFields fields{{"authorization", "Bearer " + kTokenPlaceholder},
                        {"X-Other", "Bearer " + kTokenPlaceholder},
                        {"Accept-Encoding", "gzip"},
                        {"accept-encoding", "br"}};
    bindings.substitute(host("api.github.com"), fields);
    EXPECT_EQ(fields[0].value, "Bearer tok-VALUE-1");
    EXPECT_EQ(fields[1].value, "Bearer " + kTokenPlaceholder);
    EXPECT_EQ(fieldValue(fields, "Accept-Encoding"), "identity");
    EXPECT_EQ(fields.size(), 3u);

    HeaderFields partial{{"Authorization", "Bearer " + kTokenPlaceholder + "x"},
                         {"Authorization", "token " + kTokenPlaceholder}};
    bindings.substitute(host("api.github.com"), partial);
    EXPECT_EQ(partial[0].value, "Bearer " + kTokenPlaceholder + "x");
    EXPECT_EQ(partial[1].value, "token " + kTokenPlaceholder);

    // Another host: nothing changes, not even Accept-Encoding.
    HeaderFields elsewhere{{"Authorization", "Bearer " + kTokenPlaceholder},
                           {"Accept-Encoding", "gzip"}};
    bindings.substitute(host("example.com"), elsewhere);
    EXPECT_EQ(elsewhere[0].value, "Bearer " + kTokenPlaceholder);
    EXPECT_EQ(elsewhere[1].value, "gzip");
}

TEST(SecretBindings, SubstitutesTheBasicPasswordKeepingTheUser)
{
    const SecretBindings bindings = parsed(basicLine());
    HeaderFields fields{{"Authorization", "Basic " + encodeBase64("git:" + kGitPlaceholder)}};
    bindings.substitute(host("git.example.test"), fields);
    EXPECT_EQ(fields[0].value, "Basic " + encodeBase64("git:pass:word"));
    HeaderFields lower{{"Authorization", "basic " + encodeBase64(":" + kGitPlaceholder)}};
    bindings.substitute(host("git.example.test"), lower);
    EXPECT_EQ(lower[0].value, "Basic " + encodeBase64(":pass:word"));
    // The placeholder as the user name, or a password that only holds it, stays.
    const std::string asUser = "Basic " + encodeBase64(kGitPlaceholder + ":x");
    const std::string inside = "Basic " + encodeBase64("git:" + kGitPlaceholder + "!");
    HeaderFields others{{"Authorization", asUser}, {"Authorization", inside}};
    bindings.substitute(host("git.example.test"), others);
    EXPECT_EQ(others[0].value, asUser);
    EXPECT_EQ(others[1].value, inside);
}

TEST(SecretBindings, FindsAPlaceholderOnItsWayToAnotherHost)
{
    const SecretBindings bindings = parsed(templateLine() + "\n" + basicLine());
    const HostName other = host("evil.example");
    const auto leak = [&](std::string_view target, HeaderFields fields) {
        const SecretBinding *found = bindings.leakInHead(other, target, fields);
        return found == nullptr ? std::string("none") : found->name;
    };
    EXPECT_EQ(leak("/", {{"Authorization", "Bearer " + kTokenPlaceholder}}), "TOKEN");
    EXPECT_EQ(leak("/x/" + kTokenPlaceholder, {}), "TOKEN");
    EXPECT_EQ(leak("/x?key=" + kGitPlaceholder, {}), "GIT_PASSWORD");
    EXPECT_EQ(leak("/x?key=%61rizuko" + kTokenPlaceholder.substr(7), {}), "TOKEN");
    EXPECT_EQ(leak("/", {{"Cookie", "a=%61" + kTokenPlaceholder.substr(1)}}), "TOKEN");
    EXPECT_EQ(leak("/", {{"Authorization", "Basic " + encodeBase64("u:" + kGitPlaceholder)}}),
              "GIT_PASSWORD");
    EXPECT_EQ(leak("/", {{"Authorization", "Basic " + encodeBase64(kTokenPlaceholder + ":p")}}),
              "TOKEN");
    EXPECT_EQ(leak("/plain", {{"Authorization", "Bearer arizuko-placeholder-0"}}), "none");
    // Toward its own host a placeholder is no leak; toward a host of the other secret it is.
    EXPECT_EQ(bindings.leakInHead(host("api.github.com"), "/" + kTokenPlaceholder, {}), nullptr);
    const SecretBinding *toGit =
        bindings.leakInHead(host("git.example.test"), "/" + kTokenPlaceholder, {});
    ASSERT_NE(toGit, nullptr);
    EXPECT_EQ(toGit->name, "TOKEN");
    EXPECT_EQ(bindings.leakInBody(other, "xx" + kGitPlaceholder + "yy")->name, "GIT_PASSWORD");
    EXPECT_EQ(bindings.leakInBody(other, "nothing here"), nullptr);
    EXPECT_NE(leakDenialDetail(*toGit, "git.example.test").find("TOKEN"), std::string::npos);
    EXPECT_EQ(leakDenialDetail(*toGit, "git.example.test").find(kTokenPlaceholder),
              std::string::npos);
}

TEST(SecretBindings, MasksPlaceholdersForTheLog)
{
    const SecretBindings bindings = parsed(templateLine());
    std::string path = "/a/" + kTokenPlaceholder + "/b/" + kTokenPlaceholder;
    bindings.maskPlaceholders(path);
    EXPECT_EQ(path, "/a/{TOKEN}/b/{TOKEN}");
}

TEST(SecretBindings, ScrubFormsCoverEachEncodingLongestFirst)
{
    const SecretBindings bindings = parsed(templateLine("a/b+c=d e"));
    const std::vector<std::string> forms = bindings.scrubForms();
    const auto has = [&](const std::string &form) {
        return std::find(forms.begin(), forms.end(), form) != forms.end();
    };
    EXPECT_TRUE(has("a/b+c=d e"));
    EXPECT_TRUE(has("a%2Fb%2Bc%3Dd%20e"));
    EXPECT_TRUE(has("a%2fb%2bc%3dd%20e"));
    EXPECT_TRUE(has("YS9iK2M9ZCBl"));
    // At every alignment inside a longer base64 text, e.g. user:value in Basic credentials.
    for (const std::string prefix : {"u:", "us:", "use:"}) {
        const std::string encoded = encodeBase64(prefix + "a/b+c=d e" + "!tail");
        EXPECT_TRUE(std::any_of(forms.begin(), forms.end(), [&](const std::string &form) {
            return form.size() >= 10 && encoded.find(form) != std::string::npos;
        })) << prefix;
    }
    for (size_t i = 1; i < forms.size(); ++i)
        EXPECT_GE(forms[i - 1].size(), forms[i].size());
}

} // namespace
} // namespace arizuko::egress
