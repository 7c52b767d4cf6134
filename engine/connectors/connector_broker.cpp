#include "connectors/connector_broker.h"

#include "audit/audit_log.h"
#include "core/actors.h"
#include "core/run_on_worker.h"
#include "folders/folder_names.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "store/store_work.h"

#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QNetworkAccessManager>

namespace arizuko::connectors {
namespace {

const QString auditKind = QStringLiteral("connector.call");

} // namespace

Result<std::optional<TestOrigin>> testOrigin()
{
    const QString text = qEnvironmentVariable("ARIZUKO_CONNECTOR_TEST_ORIGIN");
    if (text.isEmpty())
        return std::optional<TestOrigin>();
    const QUrl url(text, QUrl::StrictMode);
    const QHostAddress address(url.host());
    if (url.scheme() != QLatin1String("https") || address.isNull() || !address.isLoopback() ||
        url.port() <= 0 || (!url.path().isEmpty() && url.path() != QLatin1String("/")) ||
        url.hasQuery() || !url.userInfo().isEmpty())
        return makeError(QStringLiteral("connectors.bad-test-origin"),
                         QStringLiteral("ARIZUKO_CONNECTOR_TEST_ORIGIN must be "
                                        "https://127.0.0.1:<port> (a loopback address, https, "
                                        "nothing else), not %1")
                             .arg(text));
    QFile ca(qEnvironmentVariable("ARIZUKO_CONNECTOR_TEST_CA"));
    if (!ca.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("connectors.bad-test-origin"),
                         QStringLiteral("ARIZUKO_CONNECTOR_TEST_ORIGIN needs "
                                        "ARIZUKO_CONNECTOR_TEST_CA, a readable PEM file"));
    const QList<QSslCertificate> trusted = QSslCertificate::fromData(ca.readAll(), QSsl::Pem);
    if (trusted.isEmpty())
        return makeError(QStringLiteral("connectors.bad-test-origin"),
                         QStringLiteral("ARIZUKO_CONNECTOR_TEST_CA holds no PEM certificate"));
    QUrl origin;
    origin.setScheme(url.scheme());
    origin.setHost(url.host());
    origin.setPort(url.port());
    return std::optional<TestOrigin>(TestOrigin{origin, trusted});
}

Result<QByteArray> resolveFolderSecret(secrets::SecretStore &secrets, const QString &folder,
                                       const QString &key)
{
    for (const QString &at : folders::folderAndAncestors(folder)) {
        auto value = secrets.get(secrets::SecretScope{at}, key);
        if (value)
            return value;
        if (value.error().code != QLatin1String("secrets.not-found"))
            return value.error();
    }
    return makeError(QStringLiteral("connectors.no-secret"),
                     QStringLiteral("no secret %1 is set for %2 or any folder above it "
                                    "(arizukoctl secret set %1 --folder %2)")
                         .arg(key, folder));
}

namespace {

// On a worker: the value of each of `keys` for `folder`, from the nearest
// folder up the tree that holds it.
Result<QList<SecretValue>> resolveSecrets(store::Store &store, const QStringList &keys,
                                          const QString &folder)
{
    auto secrets = secrets::SecretStore::open(store, actors::connectors);
    if (!secrets)
        return secrets.error();
    QList<SecretValue> values;
    for (const QString &key : keys) {
        const auto value = resolveFolderSecret(**secrets, folder, key);
        if (!value)
            return value.error();
        values << SecretValue{key, *value};
    }
    return values;
}

} // namespace

ConnectorBroker::ConnectorBroker(store::Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_network(new QNetworkAccessManager(this))
{
    m_network->setAutoDeleteReplies(false);
}

void ConnectorBroker::call(const CatalogueEntry &entry, const QString &folder, const QString &turn,
                           const QJsonObject &arguments, Done done)
{
    // Opening the key store can wait on an OS keyring, and reading a value
    // is a store query: both on a worker, so the thread that serves every
    // turn's tools never waits for them. The values are read for this call
    // only and live in its closures, never in this object. The hold keeps
    // the store open for the worker should the broker go meanwhile.
    runOnWorker(
        this,
        [hold = store::StoreWork(m_store), keys = entry.connector->secretKeys, folder] {
            return resolveSecrets(hold.store(), keys, folder);
        },
        [this, entry, folder, turn, arguments,
         done = std::move(done)](const Result<QList<SecretValue>> &secrets) {
            if (!secrets)
                return fail(entry, folder, turn, secrets.error(), done);
            send(entry, folder, turn, arguments, *secrets, done);
        });
}

void ConnectorBroker::send(const CatalogueEntry &entry, const QString &folder, const QString &turn,
                           const QJsonObject &arguments, const QList<SecretValue> &secrets,
                           Done done)
{
    const Connector &connector = *entry.connector;
    const Operation &operation = *entry.operation;
    const auto failed = [&](const Error &error) { fail(entry, folder, turn, error, done); };
    const auto test = testOrigin();
    if (!test)
        return failed(test.error());
    QUrl origin = connector.baseUrl;
    QList<QSslCertificate> trusted;
    if (*test) {
        origin = (*test)->origin;
        origin.setPath(connector.baseUrl.path());
        trusted = (*test)->trusted;
    }
    auto request = prepareRequest(connector, operation, origin, arguments, secrets);
    if (!request)
        return failed(request.error());
    const QByteArray method = request->method;
    const QByteArray path = request->path;
    auto *call = new ConnectorCall(*m_network, std::move(*request), trusted, m_limits, this);
    call->start([this, call, entry, folder, turn, method, path, values = secrets,
                 done = std::move(done)](const CallFinished &finished) {
        call->deleteLater();
        const Operation &operation = *entry.operation;
        const QString line =
            QStringLiteral("%1 %2").arg(QString::fromLatin1(method), QString::fromLatin1(path));
        if (!finished.response) {
            audit(entry, folder, turn, QStringLiteral("failed"), 0, finished.latencyMs, path,
                  finished.response.error().code);
            // A transport error can quote the URL, whose query may hold a key.
            const QByteArray why = scrubSecrets(finished.response.error().message.toUtf8(), values);
            return done({QStringLiteral("%1 %2 failed: %3")
                             .arg(operation.tool, line, QString::fromUtf8(why)),
                         true});
        }
        const HttpResponse &response = *finished.response;
        const bool success = response.status >= 200 && response.status < 300;
        audit(entry, folder, turn, success ? QStringLiteral("ok") : QStringLiteral("http-error"),
              response.status, finished.latencyMs, path, {});
        // One pass of arg(): a path holds %XX escapes that a second pass would
        // read as placeholders.
        QString text = QStringLiteral("%1 → HTTP %2").arg(line, QString::number(response.status));
        if (!response.location.isEmpty())
            text += QStringLiteral(" (redirect to %1, not followed)")
                        .arg(QString::fromUtf8(scrubSecrets(response.location, values)));
        if (!response.contentType.isEmpty())
            text += QStringLiteral("\ncontent-type: %1")
                        .arg(QString::fromUtf8(scrubSecrets(response.contentType, values)));
        text += QLatin1Char('\n') + QString::fromUtf8(scrubSecrets(response.body, values));
        done({text, !success});
    });
}

void ConnectorBroker::fail(const CatalogueEntry &entry, const QString &folder, const QString &turn,
                           const Error &error, const Done &done)
{
    audit(entry, folder, turn, QStringLiteral("failed"), 0, 0, {}, error.code);
    done({QStringLiteral("%1 failed: %2").arg(entry.operation->tool, error.message), true});
}

void ConnectorBroker::recordRefused(const CatalogueEntry &entry, const QString &folder,
                                    const QString &turn, const QString &reason)
{
    audit(entry, folder, turn, QStringLiteral("refused"), 0, 0, {}, reason);
}

void ConnectorBroker::audit(const CatalogueEntry &entry, const QString &folder, const QString &turn,
                            const QString &status, int httpStatus, qint64 latencyMs,
                            const QByteArray &path, const QString &error)
{
    QJsonObject detail{
        {QStringLiteral("turn"), turn},
        {QStringLiteral("tool"), entry.operation->tool},
        {QStringLiteral("scope"), entry.operation->scope},
        {QStringLiteral("service"), entry.connector->service},
        // Where the call went, for the egress ledger (ledger_recorder.h).
        {QStringLiteral("host"), entry.connector->baseUrl.host()},
        {QStringLiteral("port"), entry.connector->baseUrl.port(443)},
        {QStringLiteral("keys"), QJsonArray::fromStringList(entry.connector->secretKeys)},
        {QStringLiteral("status"), status},
        {QStringLiteral("http_status"), httpStatus},
        {QStringLiteral("latency_ms"), latencyMs},
        {QStringLiteral("method"), QString::fromLatin1(entry.operation->method)}};
    if (!path.isEmpty())
        detail.insert(QStringLiteral("path"), QString::fromLatin1(path));
    if (!error.isEmpty())
        detail.insert(QStringLiteral("error"), error);
    emit called(detail);
    // An audit that cannot be written is reported on stderr, not to the
    // agent: the call itself already happened.
    if (const auto recorded = audit::AuditLog(m_store).record(folder, auditKind, folder, detail);
        !recorded)
        qWarning("connector audit row not written: %s", qPrintable(recorded.error().message));
}

} // namespace arizuko::connectors
