#pragma once

// arizuko's canonical form (reference §3–4): `checksum` first, resource keys
// and rows sorted bytewise, fields in table order, strings quoted as yaml.v3
// quotes them; the checksum is sha256 over the document minus that line.

#include "export/manifest_document.h"

#include <QByteArray>
#include <QString>

namespace arizuko::manifest {

// The document without its checksum line: what the checksum covers.
QByteArray canonicalBody(const Document &document);
// "sha256:<64 hex>" of a body.
QString checksumOf(const QByteArray &body);
// The whole document with the checksum of its own content.
QByteArray canonicalDocument(const Document &document);

} // namespace arizuko::manifest
