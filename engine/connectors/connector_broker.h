#pragma once

// The host's side of a connector call, after the grants allowed it: read
// the declared secrets from the folder (nearest folder up the tree wins) on
// a worker, build the request, make it, scrub the secrets out of the
// answer, and write one audit row (folder, turn, tool, scope, key names,
// status, HTTP status, latency). Secret values never reach a log, an event
// or an error.

#include "connectors/connector_call.h"
#include "connectors/connector_catalogue.h"
#include "core/result.h"

#include <QJsonObject>
#include <QObject>
#include <functional>

class QNetworkAccessManager;

namespace arizuko::store {
class Store;
}
namespace arizuko::secrets {
class SecretStore;
}

namespace arizuko::connectors {

// What the agent reads back (and the transcript shows): the method, path
// and HTTP status, then the scrubbed body; or a sentence saying why not.
struct ConnectorOutcome
{
    QString text;
    bool isError = false;
};

// The test origin: ARIZUKO_CONNECTOR_TEST_ORIGIN=https://127.0.0.1:<port>
// (or [::1]) with ARIZUKO_CONNECTOR_TEST_CA=<PEM file>. When set, every
// connector's calls go there instead, trusting only that CA. Anything else
// than https on a loopback address is an error, never a fallback.
struct TestOrigin
{
    QUrl origin;
    QList<QSslCertificate> trusted;
};
Result<std::optional<TestOrigin>> testOrigin();

// The value of the folder's secret `key`, from the nearest folder up the
// tree that holds it (the folder, its parent, …, the base folder '');
// connectors.no-secret when none does.
Result<QByteArray> resolveFolderSecret(secrets::SecretStore &secrets, const QString &folder,
                                       const QString &key);

class ConnectorBroker final : public QObject
{
    Q_OBJECT

public:
    ConnectorBroker(store::Store &store, QObject *parent = nullptr);

    void setLimits(CallLimits limits) { m_limits = limits; }

    // The call of `entry`'s operation for `folder` in `turn` (the grants
    // already allowed it). `done` is called once, later, from this thread;
    // never once this object is gone. `entry` must outlive the call.
    void call(const CatalogueEntry &entry, const QString &folder, const QString &turn,
              const QJsonObject &arguments, std::function<void(const ConnectorOutcome &)> done);
    // The audit row of a call the grants refused (no request was made).
    void recordRefused(const CatalogueEntry &entry, const QString &folder, const QString &turn,
                       const QString &reason);

signals:
    // Every audited call, as its audit row's detail (method, path without
    // the query, status, HTTP status, latency, key names; never a value):
    // what the transcript shows of it.
    void called(const QJsonObject &detail);

private:
    using Done = std::function<void(const ConnectorOutcome &)>;
    void fail(const CatalogueEntry &entry, const QString &folder, const QString &turn,
              const Error &error, const Done &done);
    void send(const CatalogueEntry &entry, const QString &folder, const QString &turn,
              const QJsonObject &arguments, const QList<SecretValue> &secrets, Done done);
    void audit(const CatalogueEntry &entry, const QString &folder, const QString &turn,
               const QString &status, int httpStatus, qint64 latencyMs, const QByteArray &path,
               const QString &error);

    store::Store &m_store;
    QNetworkAccessManager *m_network;
    CallLimits m_limits;
};

} // namespace arizuko::connectors
