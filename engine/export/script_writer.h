#pragma once

// The export as a shell script of `arizuko` CLI commands (reference §8) for
// operators who do not use manifests. What the CLI cannot express is written
// as comments; every argument is single-quoted.

#include "export/projection.h"

#include <QByteArray>

namespace arizuko::manifest {

QByteArray scriptText(const Projection &projection);

} // namespace arizuko::manifest
