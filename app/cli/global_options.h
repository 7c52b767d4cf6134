#pragma once

// Splits arizukoctl's command line into the global options, which may
// stand anywhere before a `--`, and the command with its own arguments.

#include "context.h"

#include <QString>
#include <QStringList>

namespace arizuko::cli {

struct ParsedCommandLine
{
    GlobalOptions options;
    QStringList command; // group name first, then its arguments
    bool help = false;
    bool version = false;
    QString error; // a usage error naming the bad argument
};

ParsedCommandLine parseCommandLine(const QStringList &arguments);

} // namespace arizuko::cli
