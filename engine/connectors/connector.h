#pragma once

// A REST connector: a service the host calls on an agent's behalf with a
// folder's secret, by tool name, so the key never enters the guest. The
// definitions come from TOML (docs/tools.md, "Connectors"); nothing an agent
// sends can add or change one.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace arizuko::connectors {

using Header = std::pair<QByteArray, QByteArray>;

// How the secret travels: `Authorization: Bearer <key>`, a named header,
// a named query parameter, or `Authorization: Basic` from two keys.
enum class AuthKind
{
    Bearer,
    ApiKeyHeader,
    ApiKeyQuery,
    Basic,
};

enum class ParamType
{
    String,
    Integer,
    Boolean,
};

// Where a parameter goes: one whole path segment, the query, or a member
// of the JSON body.
enum class ParamPlace
{
    Path,
    Query,
    Body,
};

struct Parameter
{
    QString name;
    ParamType type = ParamType::String;
    ParamPlace place = ParamPlace::Path;
    bool required = true;
    // A path param whose value may be several segments (a file's path in a
    // repository): split at `/`, each part encoded as one segment.
    bool segments = false;
    // The service compares the value without case (GitHub's owner and repo):
    // a grant's glob on it is matched case-folded on both sides, so a deny on
    // `octo` is not passed by `OCTO`.
    bool caseInsensitive = false;
    QString description;
};

struct Operation
{
    QString tool;  // the MCP tool name the agent calls
    QString scope; // the grant action, ext:<service>:<operation>
    QByteArray method;
    QString path; // a template: literal segments and whole `{name}` segments
    QList<Parameter> parameters;
    QString description;
    int line = 0; // where it is defined, for messages

    bool isRead() const { return method == "GET"; }
};

struct Connector
{
    QString service;
    QUrl baseUrl; // https, a host, an optional path prefix; nothing else
    AuthKind auth = AuthKind::Bearer;
    // The header (apikey-header) or query parameter (apikey-query) name.
    QString authName;
    // The folder secrets read: one key, or user and password for basic.
    QStringList secretKeys;
    // Fixed request headers the service wants (GitHub: Accept, API version).
    QList<Header> headers;
    QList<Operation> operations;
    QString source; // the file it came from, ":/connectors/…" for a built-in
    bool builtIn = false;
};

QString authKindName(AuthKind kind);
QString paramTypeName(ParamType type);
QString paramPlaceName(ParamPlace place);

} // namespace arizuko::connectors
