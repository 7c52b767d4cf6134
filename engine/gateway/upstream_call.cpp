#include "gateway/upstream_call.h"

#include "gateway/api_error.h"
#include "https/outbound_request.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <span>

namespace arizuko::gateway {

namespace {

// Of the upstream's reply headers, those the guest does not get: hop-by-hop
// ones (RFC 9110 7.6.1), those the gateway sets itself, and credentials.
bool isOwnHeader(QByteArrayView name)
{
    static constexpr QByteArrayView names[] = {
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate",
        "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
        // Qt decompresses transparently only when it chose the encoding.
        "accept-encoding", "content-encoding",
        // Credentials: the guest's token stays here, the real one is added.
        "x-api-key", "authorization", "cookie", "set-cookie"};
    for (const QByteArrayView own : names) {
        if (name.compare(own, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

// The guest's request headers the upstream gets: what the Messages API
// reads, and how Claude Code names itself and its session (2.1.332 sends
// these, docs/model-gateway.md); for the Responses API, what it reads and
// how Codex names itself (docs/agents.md). Every other one (forwarding
// hints, cookies, organisation and project headers, the SDK's telemetry)
// stays here: an unknown header is a channel to the upstream we cannot
// vouch for.
bool isForwardedRequestHeader(QByteArrayView name, ProviderKind kind)
{
    static constexpr QByteArrayView anthropic[] = {"anthropic-version",
                                                   "anthropic-beta",
                                                   "content-type",
                                                   "accept",
                                                   "user-agent",
                                                   "x-app",
                                                   "x-claude-code-session-id"};
    static constexpr QByteArrayView openAI[] = {"content-type", "accept", "user-agent",
                                                "openai-beta", "originator"};
    const std::span<const QByteArrayView> names = kind == ProviderKind::OpenAIApiKey
                                                      ? std::span<const QByteArrayView>(openAI)
                                                      : std::span<const QByteArrayView>(anthropic);
    for (const QByteArrayView forwarded : names) {
        if (name.compare(forwarded, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

constexpr qsizetype maxErrorBody = 64 * 1024;

} // namespace

HttpHeaders upstreamHeaders(const HttpHeaders &guestHeaders, const ProviderSettings &provider)
{
    HttpHeaders headers;
    QByteArrayList betas;
    for (const HttpHeader &header : guestHeaders) {
        if (!isForwardedRequestHeader(header.first, provider.kind))
            continue;
        if (provider.kind == ProviderKind::OAuthToken
            && header.first.compare("anthropic-beta", Qt::CaseInsensitive) == 0) {
            for (const QByteArray &beta : header.second.split(',')) {
                if (!beta.trimmed().isEmpty())
                    betas.append(beta.trimmed());
            }
            continue;
        }
        headers.append(header);
    }
    if (provider.kind == ProviderKind::OAuthToken) {
        if (!betas.contains(oauthBeta.toByteArray()))
            betas.append(oauthBeta.toByteArray());
        headers.append({"anthropic-beta", betas.join(',')});
        headers.append({"Authorization", "Bearer " + provider.credential});
    } else if (provider.kind == ProviderKind::OpenAIApiKey) {
        headers.append({"Authorization", "Bearer " + provider.credential});
    } else {
        headers.append({"x-api-key", provider.credential});
    }
    return headers;
}

QUrl upstreamUrl(const QUrl &upstream, const QByteArray &path, const QByteArray &query)
{
    QUrl url = upstream;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    // The path is only ever appended: scheme, host and port stay upstream's.
    url.setPath(base + QString::fromUtf8(path), QUrl::TolerantMode);
    if (query.isEmpty())
        url.setQuery(QString());
    else
        url.setQuery(QString::fromUtf8(query), QUrl::TolerantMode);
    url.setFragment(QString());
    return url;
}

Error upstreamStatusError(int status, const QByteArray &body, const QString &who)
{
    const QJsonObject error =
        QJsonDocument::fromJson(body).object().value(QStringLiteral("error")).toObject();
    QString detail = error.value(QStringLiteral("message")).toString();
    if (detail.isEmpty())
        detail = QString::fromUtf8(body.left(300)).simplified();
    const QString tail = detail.isEmpty() ? QString() : QStringLiteral(": ") + detail;
    switch (status) {
    case 401:
        return makeError(QStringLiteral("gateway.upstream-unauthorized"),
                         QStringLiteral("%1 refused the credential (401)%2").arg(who, tail));
    case 403:
        return makeError(QStringLiteral("gateway.upstream-forbidden"),
                         QStringLiteral("%1 denied access (403)%2").arg(who, tail));
    case 429:
        return makeError(QStringLiteral("gateway.upstream-rate-limited"),
                         QStringLiteral("rate limited (429) by %1%2").arg(who, tail));
    case 529:
        return makeError(QStringLiteral("gateway.upstream-overloaded"),
                         QStringLiteral("%1 is overloaded (529)%2").arg(who, tail));
    default:
        return makeError(
            status >= 500 ? QStringLiteral("gateway.upstream-failed")
                          : QStringLiteral("gateway.upstream-rejected"),
            QStringLiteral("%1 %2 the request (%3)%4")
                .arg(who, status >= 500 ? QStringLiteral("failed") : QStringLiteral("rejected"))
                .arg(status)
                .arg(tail));
    }
}

void UpstreamCall::fail(const Error &error)
{
    m_failed = true;
    emit failed(error);
}

UpstreamCall::UpstreamCall(QNetworkAccessManager &network, const ProviderSettings &provider,
                           HttpExchange *exchange)
    : QObject(exchange)
    , m_network(network)
    , m_provider(provider)
    , m_exchange(exchange)
{
    connect(exchange, &HttpExchange::clientGone, this, [this] {
        // The guest gave up: so does the upstream request, silently.
        m_cancelled = true;
        if (m_reply)
            m_reply->abort();
    });
}

void UpstreamCall::start()
{
    const HttpRequest &request = m_exchange->request();
    // A redirect could lead the credential to another host: never followed.
    // A stream stalled for ten minutes is dead; the API pings far more often.
    const https::OutboundRequest upstream{
        request.method,
        upstreamUrl(m_provider.upstream, request.path, request.query),
        upstreamHeaders(request.headers, m_provider),
        request.body,
        {},
        std::chrono::minutes(10)};
    m_reply = https::send(m_network, upstream, this);
    connect(m_reply, &QNetworkReply::readyRead, this, &UpstreamCall::readBody);
    connect(m_reply, &QNetworkReply::finished, this, &UpstreamCall::complete);
}

bool UpstreamCall::beginIfReady()
{
    if (m_streaming || m_status != 0)
        return true;
    const int status = https::httpStatus(*m_reply);
    if (status == 0)
        return false;
    m_status = status;
    if (m_status < 200 || m_status >= 300)
        return true; // errors and redirects are answered whole, in complete()
    HttpHeaders headers;
    for (const auto &[name, value] : m_reply->rawHeaderPairs()) {
        if (!isOwnHeader(name))
            headers.append({name, value});
    }
    m_exchange->beginStream(m_status, headers);
    m_streaming = true;
    return true;
}

void UpstreamCall::readBody()
{
    if (m_cancelled || !beginIfReady())
        return;
    const QByteArray bytes = m_reply->readAll();
    if (m_streaming) {
        m_exchange->writeChunk(bytes);
        emit sent(bytes);
    } else if (m_errorBody.size() < maxErrorBody) {
        m_errorBody += bytes.left(maxErrorBody - m_errorBody.size());
    }
}

void UpstreamCall::complete()
{
    if (m_cancelled) {
        emit finished();
        return;
    }
    readBody();
    const QString where = m_provider.upstream.toDisplayString(QUrl::RemoveUserInfo);
    const QString who = QStringLiteral("the model API at %1").arg(where);
    const QNetworkReply::NetworkError error = m_reply->error();
    if (m_streaming) {
        if (error == QNetworkReply::NoError) {
            m_exchange->endStream();
        } else {
            // The guest sees the stream cut, as it was cut here.
            m_exchange->abortConnection();
            fail(makeError(QStringLiteral("gateway.upstream-dropped"),
                                  QStringLiteral("the connection to %1 dropped mid-response: %2")
                                      .arg(where, m_reply->errorString())));
        }
    } else if (m_status == 0) {
        const QString why = m_reply->errorString();
        m_exchange->respond(
            502, {{"Content-Type", "application/json"}},
            anthropicErrorBody(
                QStringLiteral("api_error"),
                QStringLiteral("the model gateway could not reach %1: %2").arg(where, why)));
        fail(makeError(QStringLiteral("gateway.upstream-unreachable"),
                              QStringLiteral("could not reach %1: %2").arg(who, why)));
    } else if (m_status >= 300 && m_status < 400) {
        const QString location = QString::fromUtf8(m_reply->rawHeader("location"));
        m_exchange->respond(
            502, {{"Content-Type", "application/json"}},
            anthropicErrorBody(QStringLiteral("api_error"),
                               QStringLiteral("the model API redirected (%1); the gateway "
                                              "follows no redirects")
                                   .arg(m_status)));
        fail(makeError(QStringLiteral("gateway.upstream-redirect"),
                       QStringLiteral("%1 answered with a redirect (%2) to %3, which the gateway "
                                      "does not follow")
                           .arg(who)
                           .arg(m_status)
                           .arg(location)));
    } else {
        const QByteArray contentType = m_reply->rawHeader("content-type");
        HttpHeaders headers{
            {"Content-Type", contentType.isEmpty() ? "application/json" : contentType}};
        for (const QByteArray &name : {QByteArray("retry-after"), QByteArray("x-should-retry"),
                                      QByteArray("request-id")}) {
            if (m_reply->hasRawHeader(name))
                headers.append({name, m_reply->rawHeader(name)});
        }
        m_exchange->respond(m_status, headers, m_errorBody);
        emit sent(m_errorBody);
        fail(upstreamStatusError(m_status, m_errorBody, who));
    }
    emit finished();
}

} // namespace arizuko::gateway
