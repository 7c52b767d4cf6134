// Fuzzes what a hostile client controls: the request head, the host it names (against lists it
// does not control but the fuzzer does), chunked bodies and, via the upstream, response heads.
// Besides crashes, it traps on broken invariants that would let a request slip past the policy.

#include "forward_head.hpp"
#include "host_matcher.hpp"
#include "http_framing.hpp"
#include "request_head.hpp"
#include "request_rules.hpp"
#include "response_head.hpp"
#include "secret_bindings.hpp"
#include "value_scrubber.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace arizuko::egress;

void require(bool condition)
{
    if (!condition)
        __builtin_trap();
}

void fuzzRequestHead(std::string_view input)
{
    const auto head = parseRequestHead(input);
    if (!head)
        return;
    require(input.ends_with("\r\n\r\n"));
    if (head->form == TargetForm::Origin)
        return;
    require(head->port != 0);
    // The host a request names is already in the one spelling the lists use.
    const auto again = normalizeHost(head->host.text);
    require(again && *again == head->host);
    if (head->isConnect())
        return;
    // What goes upstream is itself a well-formed origin-form head with the same method and path.
    const std::string upstream = buildUpstreamRequestHead(head.value());
    const auto forwarded = parseRequestHead(upstream);
    require(forwarded && forwarded->form == TargetForm::Origin &&
            forwarded->method == head->method && forwarded->path == head->path);
    const auto framing = requestBodyFraming(head->fields);
    if (framing) {
        const auto forwardedFraming = requestBodyFraming(forwarded->fields);
        require(forwardedFraming && forwardedFraming->kind == framing->kind &&
                forwardedFraming->length == framing->length);
    }
}

// The first line, the second line and the rest; nothing without two newlines.
struct ThreeParts
{
    std::string_view first;
    std::string_view second;
    std::string_view rest;
};
std::optional<ThreeParts> splitThree(std::string_view input)
{
    const size_t first = input.find('\n');
    if (first == std::string_view::npos)
        return std::nullopt;
    const size_t second = input.find('\n', first + 1);
    if (second == std::string_view::npos)
        return std::nullopt;
    return ThreeParts{input.substr(0, first), input.substr(first + 1, second - first - 1),
                      input.substr(second + 1)};
}

// First line: allow entries; second: deny entries; rest: the requested host.
void fuzzHostMatcher(std::string_view input)
{
    const auto parts = splitThree(input);
    if (!parts)
        return;
    HostPolicy policy;
    const auto addAll = [](std::string_view list, HostList &hosts) {
        while (!list.empty()) {
            const size_t comma = list.find(',');
            if (auto entry = parseHostEntry(list.substr(0, comma)))
                hosts.add(entry.value());
            list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
        }
    };
    addAll(parts->first, policy.allowList());
    addAll(parts->second, policy.denyList());
    const auto host = parseRequestHost(parts->rest);
    if (!host)
        return;
    const HostVerdict verdict = policy.decide(host.value());
    // Deny wins in every mode, and allow-all never turns a denied host into an allowed one.
    if (policy.denyList().covers(host.value()))
        require(verdict == HostVerdict::Denied);
    policy.setAllowAll(true);
    require((policy.decide(host.value()) == HostVerdict::Denied) ==
            (verdict == HostVerdict::Denied));
    // A host always covers itself, and an IP literal nothing but itself.
    HostList self;
    self.add(host.value());
    require(self.covers(host.value()));
    if (host->isIpLiteral) {
        HostList parent;
        const size_t dot = host->text.find('.');
        if (dot != std::string::npos) {
            if (auto entry = parseHostEntry(host->text.substr(dot + 1));
                entry && !entry->isIpLiteral)
                parent.add(entry.value());
        }
        require(!parent.covers(host.value()));
    }
}

void fuzzChunked(std::string_view input)
{
    ChunkedDecoder whole;
    const size_t used = whole.feed(input);
    require(used <= input.size());
    ChunkedDecoder split;
    const size_t half = input.size() / 2;
    size_t splitUsed = split.feed(input.substr(0, half));
    if (splitUsed == half && !split.done() && !split.failed())
        splitUsed += split.feed(input.substr(half));
    require(whole.done() == split.done() && whole.failed() == split.failed());
    if (whole.done())
        require(used == splitUsed);
}

void fuzzResponseHead(std::string_view input)
{
    const auto head = parseResponseHead(input);
    if (!head)
        return;
    require(head->status >= 100 && head->status <= 999);
    const std::string forwarded = buildClientResponseHead(head.value(), false, false);
    const auto again = parseResponseHead(forwarded);
    require(again && again->status == head->status);
}

// First line: a rule (--rule); second: a method; rest: a request target inside an inspected
// connection. A canonical path has no segment a server could read otherwise, `deny * host /**`
// beside any rule denies everything to the host, and a literal pattern matches its own path.
void fuzzRules(std::string_view input)
{
    const auto parts = splitThree(input);
    if (!parts)
        return;
    const std::string_view method = parts->second;
    const auto path = canonicalRulePath(parts->rest);
    if (!path)
        return;
    const std::string &canonical = path.value();
    require(canonical.starts_with('/'));
    require(canonical.find("//") == std::string::npos);
    require(canonical.find("/./") == std::string::npos && !canonical.ends_with("/."));
    require(canonical.find("/../") == std::string::npos && !canonical.ends_with("/.."));
    require(canonical.find('\\') == std::string::npos);
    require(PathGlob::parse("/**")->matches(canonical));
    if (canonical.find('*') == std::string::npos) {
        if (const auto literal = PathGlob::parse(canonical))
            require(literal->matches(canonical));
    }
    auto rule = parseRequestRule(parts->first);
    if (!rule)
        return;
    RequestRules rules;
    rules.add(std::move(rule.value()));
    const HostName host = *normalizeHost("fuzz.example");
    const RuleJudgement before = rules.judge(method, host, canonical);
    require((before.reason == Reason::Allowed) == (!before.rule.empty() && before.rule[0] == 'a'));
    rules.add(parseRequestRule("deny * fuzz.example /**").value());
    require(rules.judge(method, host, canonical).reason == Reason::DeniedByRule);
}

} // namespace

// The bindings of secrets (--secrets-fd, written by the engine, but parsed strictly all the
// same): whatever parses substitutes only toward its hosts, and its values never survive a scrub.
void fuzzSecrets(std::string_view input)
{
    const auto bindings = SecretBindings::parse(input);
    if (!bindings)
        return;
    const ValueScrubber scrubber(bindings->scrubForms());
    for (const SecretBinding &binding : bindings->all()) {
        require(binding.value.size() >= 4 && !binding.placeholder.empty());
        std::string text = "<" + binding.value + ">" + binding.value;
        scrubber.scrub(text);
        require(text.find(binding.value) == std::string::npos &&
                text.size() == binding.value.size() * 2 + 2);
        HeaderFields fields{
            {binding.basic ? "Authorization" : binding.header,
             binding.basic ? "" : binding.prefix + binding.placeholder + binding.suffix}};
        const auto nowhere = normalizeHost("nowhere.invalid");
        if (nowhere && !binding.hosts.covers(*nowhere)) {
            HeaderFields untouched = fields;
            bindings->substitute(*nowhere, untouched);
            require(untouched.size() == fields.size() && untouched[0].value == fields[0].value);
        }
    }
}

// A response body streamed through the scrubber in two pieces: the same length, framed the
// same, and the form gone from its data.
void fuzzScrubbedBody(std::string_view input)
{
    if (input.size() < 2)
        return;
    const ValueScrubber scrubber({"s3cr3t", "c3Nj"});
    const size_t cut = static_cast<unsigned char>(input[0]) % input.size();
    const std::string_view body = input.substr(1);
    for (const auto kind : {BodyFraming::Kind::Chunked, BodyFraming::Kind::UntilClose}) {
        BodyReader reader({kind, 0});
        const size_t accepted = reader.feed(body);
        const std::string_view part = body.substr(0, accepted);
        BodyScrubber scrubbing(scrubber, {kind, 0});
        std::string out;
        scrubbing.feed(part.substr(0, std::min(cut, part.size())), out);
        scrubbing.feed(part.substr(std::min(cut, part.size())), out);
        scrubbing.finish(out);
        require(out.size() == part.size());
        BodyReader again({kind, 0});
        require(again.feed(out) == out.size() && again.done() == reader.done());
        if (kind == BodyFraming::Kind::UntilClose)
            require(out.find("s3cr3t") == std::string::npos);
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    if (const auto headEnd = findHeadEnd(input))
        fuzzRequestHead(input.substr(0, *headEnd));
    fuzzRequestHead(input);
    fuzzHostMatcher(input);
    fuzzChunked(input);
    fuzzResponseHead(input);
    fuzzRules(input);
    fuzzSecrets(input);
    fuzzScrubbedBody(input);
    return 0;
}
