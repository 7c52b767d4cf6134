#include "libvirt/turn_owner.h"

#include <QRegularExpression>
#include <QXmlStreamWriter>

namespace arizuko::libvirt {
namespace {

const QString ownerNamespace = QStringLiteral("https://arizuko.dev/xmlns/turn/1");

} // namespace

void writeOwnerMetadata(QXmlStreamWriter &writer, const QString &owner)
{
    writer.writeStartElement(QStringLiteral("metadata"));
    writer.writeEmptyElement(QStringLiteral("arizuko:turn"));
    writer.writeAttribute(QStringLiteral("xmlns:arizuko"), ownerNamespace);
    writer.writeAttribute(QStringLiteral("engine"), owner);
    writer.writeEndElement();
}

QString ownerMetadataXml(const QString &owner)
{
    QString xml;
    QXmlStreamWriter writer(&xml);
    writeOwnerMetadata(writer, owner);
    return xml;
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
