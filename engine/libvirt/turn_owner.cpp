#include "libvirt/turn_owner.h"

#include <QRegularExpression>

namespace arizuko::libvirt {
namespace {

const QString ownerNamespace = QStringLiteral("https://arizuko.dev/xmlns/turn/1");

} // namespace

QString ownerMetadataXml(const QString &owner)
{
    return QStringLiteral("  <metadata><arizuko:turn xmlns:arizuko='%1' engine='%2'/></metadata>\n")
        .arg(ownerNamespace, owner.toHtmlEscaped());
}

QString ownerFromXml(const QString &xml)
{
    // libvirt re-serializes metadata with double quotes.
    static const QRegularExpression engine(
        QStringLiteral(R"(<arizuko:turn\s[^>]*engine=["']([0-9]+:[0-9]+)["'])"));
    const QRegularExpressionMatch match = engine.match(xml);
    return match.hasMatch() ? match.captured(1) : QString();
}

} // namespace arizuko::libvirt
