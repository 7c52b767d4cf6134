#pragma once

// Reads an arizuko manifest strictly (reference §5, and stricter: duplicate
// keys are refused rather than merged). Errors name the document, the
// resource, the row and its line, and the field.

#include "core/result.h"
#include "export/manifest_document.h"
#include "export/yaml_tree.h"

#include <QByteArray>
#include <QList>

namespace arizuko::manifest {

Result<QList<Document>> readManifest(const QByteArray &text, const YamlLimits &limits = {});

// Whether the declared checksum is that of the document's content: either of
// the bytes after its checksum line (a file as the server wrote it), or of
// our canonical rendering of what was read.
bool checksumMatches(const Document &document);

} // namespace arizuko::manifest
