#pragma once

// One operation's HTTP request, built from the agent's arguments without
// any way for them to change the host or leave the declared path: each
// path value is percent-encoded into exactly one segment, and the finished
// URL is checked again against the origin and the path it must have.

#include "connectors/connector.h"
#include "core/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QUrl>

namespace arizuko::connectors {

// A folder secret the call reads: its name (audited) and value (never).
struct SecretValue
{
    QString key;
    QByteArray value;
};

struct PreparedRequest
{
    QByteArray method;
    QUrl url;
    // The percent-encoded path, without the query (which may hold a key):
    // what the audit log and the transcript show.
    QByteArray path;
    QList<Header> headers;
    QByteArray body; // JSON, empty when the operation has no body params
};

// The JSON Schema of the operation's arguments, for tools/list.
QJsonObject inputSchema(const Operation &operation);

// The arguments as the operation's typed values, each one declared and of its
// type (an integer sent as "07" or 7.0 is 7): what the request carries, and so
// what a grant's params are matched on (TurnTools::admit).
Result<QJsonObject> typedArguments(const Operation &operation, const QJsonObject &arguments);

// `origin` is the connector's base URL (or the test override, see
// testOrigin()); its path is the prefix every operation path follows.
Result<PreparedRequest> prepareRequest(const Connector &connector, const Operation &operation,
                                       const QUrl &origin, const QJsonObject &arguments,
                                       const QList<SecretValue> &secrets);

// Every form of every secret value a response could echo (as sent, percent-
// encoded, inside a Basic credential) replaced by "[secret KEY]".
QByteArray scrubSecrets(QByteArray text, const QList<SecretValue> &secrets);

} // namespace arizuko::connectors
