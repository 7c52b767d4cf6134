#include "policy/host_name.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>

namespace arizuko::policy {
namespace {

constexpr qsizetype kMaxLabelLength = 63;
constexpr qsizetype kMaxNameLength = 253;

QString acceptedForms()
{
    return QStringLiteral(
        "a rule is a host name or an IP literal only, e.g. github.com (also covers "
        "api.github.com), *.github.com (the same rule), 203.0.113.7 or 2001:db8::1");
}

Error badHost(const QString &input, const QString &problem, const QString &suggestion = {})
{
    QString message = QStringLiteral("'%1' %2; %3").arg(input, problem, acceptedForms());
    if (!suggestion.isEmpty())
        message += QStringLiteral("; did you mean '%1'?").arg(suggestion);
    return makeError(QStringLiteral("policy.bad-host"), message);
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
        return badHost(input, QStringLiteral("is not a valid IPv6 address"));
    return address.toString();
}

Result<QString> canonicalIpv4(const QString &input, const QString &literal)
{
    static const QRegularExpression dottedQuad(
        QStringLiteral("^(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}$"));
    QHostAddress address;
    if (!dottedQuad.match(literal).hasMatch() || !address.setAddress(literal) ||
        address.protocol() != QAbstractSocket::IPv4Protocol)
        return badHost(input, QStringLiteral("is neither a host name nor a valid IPv4 address"));
    return address.toString();
}

Result<QString> canonicalName(const QString &input, const QString &name)
{
    const QStringList labels = name.split(u'.');
    for (const QString &label : labels) {
        if (label.isEmpty())
            return badHost(
                input, QStringLiteral("has an empty label (a leading, trailing or double dot)"));
    }
    const QString ace = QString::fromLatin1(QUrl::toAce(name)).toLower();
    const auto tooLong = [](const QString &label) { return label.size() > kMaxLabelLength; };
    static const QRegularExpression validLabel(
        QStringLiteral("^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$"));
    const QStringList aceLabels = ace.split(u'.');
    if (std::any_of(labels.cbegin(), labels.cend(), tooLong) ||
        std::any_of(aceLabels.cbegin(), aceLabels.cend(), tooLong))
        return badHost(
            input, QStringLiteral("has a label longer than %1 characters").arg(kMaxLabelLength));
    const bool labelsValid =
        !ace.isEmpty() && std::all_of(aceLabels.cbegin(), aceLabels.cend(), [](const QString &l) {
            return validLabel.match(l).hasMatch();
        });
    if (!labelsValid)
        return badHost(
            input, QStringLiteral("has a character a host name cannot hold (letters, digits, '-' "
                                  "inside a label, '_')"));
    if (ace.size() > kMaxNameLength)
        return badHost(input, QStringLiteral("is longer than %1 characters").arg(kMaxNameLength));
    // No top-level domain is numeric: such a name is an address in another
    // notation (0x7f.0.0.1), which resolvers read as an IP and the proxy refuses.
    static const QRegularExpression numericLabel(QStringLiteral("^([0-9]+|0x[0-9a-f]+)$"));
    if (numericLabel.match(aceLabels.last()).hasMatch())
        return badHost(
            input,
            QStringLiteral("is an IP address in a numeric notation other than a dotted quad"));
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
        return badHost(input, QStringLiteral("is empty"));
    for (const QChar c : input) {
        if (c.isSpace())
            return badHost(input, QStringLiteral("contains a space"),
                           input.simplified().section(u' ', 0, 0));
    }
    if (input.contains(QStringLiteral("://"))) {
        const QString host = QUrl(input).host();
        return badHost(input, QStringLiteral("is a URL"), host);
    }
    if (input.startsWith(u'[')) {
        static const QRegularExpression bracketed(QStringLiteral("^\\[([^\\]]*)\\](.*)$"));
        const auto match = bracketed.match(input);
        if (!match.hasMatch())
            return badHost(input, QStringLiteral("has an unclosed '['"));
        if (!match.captured(2).isEmpty())
            return badHost(input, QStringLiteral("carries a port or a path"), match.captured(1));
        return canonicalIpv6(input, match.captured(1));
    }
    if (input.contains(u'/'))
        return badHost(input, QStringLiteral("contains a path"), input.section(u'/', 0, 0));
    QString name = input;
    if (name == u"*")
        return badHost(
            input, QStringLiteral("is a bare '*': allowing every host comes only from the egress "
                                  "grant (arizukoctl grant add <folder> egress <folder>)"));
    if (wildcards == Wildcards::StripLeading && name.startsWith(QStringLiteral("*.")))
        name = name.sliced(2);
    if (name.contains(u'*'))
        return badHost(input, QStringLiteral("has a '*' that is not a leading '*.'"));
    if (name.contains(u':')) {
        static const QRegularExpression withPort(QStringLiteral("^([^:]+):([0-9]*)$"));
        const auto match = withPort.match(name);
        if (match.hasMatch())
            return badHost(input, QStringLiteral("carries a port; rules apply to every port"),
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
