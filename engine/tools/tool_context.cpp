#include "tools/tool_context.h"

namespace arizuko::tools {

ToolOutcome toolError(const QString &text)
{
    return ToolOutcome{text, true};
}

Result<QString> stringArgument(const QJsonObject &arguments, const QString &name)
{
    const QString value = arguments.value(name).toString().trimmed();
    if (value.isEmpty())
        return makeError(QStringLiteral("tools.bad-argument"),
                         QStringLiteral("the argument '%1' must be a non-empty string").arg(name));
    return value;
}

} // namespace arizuko::tools
