#include "commands.h"

namespace arizuko::cli {

const QList<CommandGroup> &commandGroups()
{
    static const QList<CommandGroup> groups = {
        {QStringLiteral("status"), QStringLiteral("status"), runStatus},
    };
    return groups;
}

} // namespace arizuko::cli
