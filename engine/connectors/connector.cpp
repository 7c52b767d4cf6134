#include "connectors/connector.h"

namespace arizuko::connectors {

QString authKindName(AuthKind kind)
{
    switch (kind) {
    case AuthKind::Bearer:
        return QStringLiteral("bearer");
    case AuthKind::ApiKeyHeader:
        return QStringLiteral("apikey-header");
    case AuthKind::ApiKeyQuery:
        return QStringLiteral("apikey-query");
    case AuthKind::Basic:
        return QStringLiteral("basic");
    }
    return {};
}

QString paramTypeName(ParamType type)
{
    switch (type) {
    case ParamType::String:
        return QStringLiteral("string");
    case ParamType::Integer:
        return QStringLiteral("integer");
    case ParamType::Boolean:
        return QStringLiteral("boolean");
    }
    return {};
}

QString paramPlaceName(ParamPlace place)
{
    switch (place) {
    case ParamPlace::Path:
        return QStringLiteral("path");
    case ParamPlace::Query:
        return QStringLiteral("query");
    case ParamPlace::Body:
        return QStringLiteral("body");
    }
    return {};
}

} // namespace arizuko::connectors
