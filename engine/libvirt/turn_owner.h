#pragma once

// Which engine process owns a turn's libvirt objects, written into their
// XML as metadata. Engines with different data directories share one
// libvirtd; the reaper of one must not take another's live turn, and the
// owner mark is what tells them apart.

#include <QString>

class QXmlStreamWriter;

namespace arizuko::libvirt {

// <metadata> carrying `owner` (an engine's "pid:starttime").
void writeOwnerMetadata(QXmlStreamWriter &writer, const QString &owner);
QString ownerMetadataXml(const QString &owner);

// The owner mark in a network's or domain's XML; empty when it has none.
QString ownerFromXml(const QString &xml);

} // namespace arizuko::libvirt
