#include "policy/host_name.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace arizuko::policy {
namespace {

constexpr qsizetype kMaxLabelLength = 63;
constexpr qsizetype kMaxNameLength = 253;

QString acceptedForms()
{
    return u"a rule is a host name or an IP literal only, e.g. github.com (also covers "
           u"api.github.com), *.github.com (the same rule), 203.0.113.7 or 2001:db8::1"_s;
}

Error badHost(const QString &input, const QString &problem, const QString &suggestion = {})
{
    QString message = u"'%1' %2; %3"_s.arg(input, problem, acceptedForms());
    if (!suggestion.isEmpty())
        message += u"; did you mean '%1'?"_s.arg(suggestion);
    return makeError(u"policy.bad-host"_s, message);
}

bool looksLikeIpv4(QStringView text)
{
    for (const QChar c : text) {
        if (!c.isDigit() && c != u'.')
            return false;
    }
    return !text.isEmpty();
}

Result<QString> canonicalIpv6(const QString &input, const QString &literal)
{
    QHostAddress address;
    if (!address.setAddress(literal) || address.protocol() != QAbstractSocket::IPv6Protocol ||
        !address.scopeId().isEmpty())
        return badHost(input, u"is not a valid IPv6 address"_s);
    return address.toString();
}

Result<QString> canonicalIpv4(const QString &input, const QString &literal)
{
    static const QRegularExpression dottedQuad(
        u"^(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}$"_s);
    QHostAddress address;
    if (!dottedQuad.match(literal).hasMatch() || !address.setAddress(literal) ||
        address.protocol() != QAbstractSocket::IPv4Protocol)
        return badHost(input, u"is neither a host name nor a valid IPv4 address"_s);
    return address.toString();
}

Result<QString> canonicalName(const QString &input, const QString &name)
{
    const QStringList labels = name.split(u'.');
    for (const QString &label : labels) {
        if (label.isEmpty())
            return badHost(input, u"has an empty label (a leading, trailing or double dot)"_s);
    }
    const QString ace = QString::fromLatin1(QUrl::toAce(name)).toLower();
    const auto tooLong = [](const QString &label) { return label.size() > kMaxLabelLength; };
    static const QRegularExpression validLabel(u"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$"_s);
    const QStringList aceLabels = ace.split(u'.');
    if (std::any_of(labels.cbegin(), labels.cend(), tooLong) ||
        std::any_of(aceLabels.cbegin(), aceLabels.cend(), tooLong))
        return badHost(input, u"has a label longer than %1 characters"_s.arg(kMaxLabelLength));
    const bool labelsValid =
        !ace.isEmpty() && std::all_of(aceLabels.cbegin(), aceLabels.cend(), [](const QString &l) {
            return validLabel.match(l).hasMatch();
        });
    if (!labelsValid)
        return badHost(input, u"has a character a host name cannot hold (letters, digits, '-' "
                              u"inside a label, '_')"_s);
    if (ace.size() > kMaxNameLength)
        return badHost(input, u"is longer than %1 characters"_s.arg(kMaxNameLength));
    // No top-level domain is numeric: such a name is an address in another
    // notation (0x7f.0.0.1), which resolvers read as an IP and the proxy refuses.
    static const QRegularExpression numericLabel(u"^([0-9]+|0x[0-9a-f]+)$"_s);
    if (numericLabel.match(aceLabels.last()).hasMatch())
        return badHost(input, u"is an IP address in a numeric notation other than a dotted quad"_s);
    return ace;
}

enum class Wildcards
{
    StripLeading,
    Refuse
};

Result<QString> normalize(const QString &input, Wildcards wildcards)
{
    if (input.isEmpty())
        return badHost(input, u"is empty"_s);
    for (const QChar c : input) {
        if (c.isSpace())
            return badHost(input, u"contains a space"_s, input.simplified().section(u' ', 0, 0));
    }
    if (input.contains(u"://"_s)) {
        const QString host = QUrl(input).host();
        return badHost(input, u"is a URL"_s, host);
    }
    if (input.startsWith(u'[')) {
        static const QRegularExpression bracketed(u"^\\[([^\\]]*)\\](.*)$"_s);
        const auto match = bracketed.match(input);
        if (!match.hasMatch())
            return badHost(input, u"has an unclosed '['"_s);
        if (!match.captured(2).isEmpty())
            return badHost(input, u"carries a port or a path"_s, match.captured(1));
        return canonicalIpv6(input, match.captured(1));
    }
    if (input.contains(u'/'))
        return badHost(input, u"contains a path"_s, input.section(u'/', 0, 0));
    QString name = input;
    if (name == u"*")
        return badHost(input, u"is a bare '*': allowing every host comes only from the egress "
                              u"grant (arizukoctl grant add <folder> egress <folder>)"_s);
    if (wildcards == Wildcards::StripLeading && name.startsWith(u"*."_s))
        name = name.sliced(2);
    if (name.contains(u'*'))
        return badHost(input, u"has a '*' that is not a leading '*.'"_s);
    if (name.contains(u':')) {
        static const QRegularExpression withPort(u"^([^:]+):([0-9]*)$"_s);
        const auto match = withPort.match(name);
        if (match.hasMatch())
            return badHost(input, u"carries a port; rules apply to every port"_s,
                           match.captured(1));
        return canonicalIpv6(input, name);
    }
    if (name.endsWith(u'.'))
        name.chop(1);
    if (looksLikeIpv4(name))
        return canonicalIpv4(input, name);
    return canonicalName(input, name);
}

} // namespace

Result<QString> normalizeRuleTarget(const QString &input)
{
    return normalize(input, Wildcards::StripLeading);
}

Result<QString> normalizeRequestHost(const QString &input)
{
    return normalize(input, Wildcards::Refuse);
}

bool isIpLiteral(QStringView normalized)
{
    return normalized.contains(u':') || looksLikeIpv4(normalized);
}

bool ruleMatchesHost(QStringView rule, QStringView host)
{
    if (host == rule)
        return true;
    if (isIpLiteral(rule) || isIpLiteral(host) || !rule.contains(u'.'))
        return false;
    return host.size() > rule.size() && host.endsWith(rule) &&
           host[host.size() - rule.size() - 1] == u'.';
}

} // namespace arizuko::policy
