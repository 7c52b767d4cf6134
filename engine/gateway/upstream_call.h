#pragma once

// One guest request forwarded to the upstream with the real credential,
// its reply streamed back chunk by chunk as it arrives. A child of its
// exchange: when the guest goes away the upstream request is cancelled.

#include "core/result.h"
#include "gateway/http_server.h"
#include "gateway/provider.h"

#include <QObject>
#include <QPointer>

class QNetworkAccessManager;
class QNetworkReply;

namespace arizuko::gateway {

// The request headers to send upstream: the few of the guest's the API
// reads (never a credential), plus the real credential.
HttpHeaders upstreamHeaders(const HttpHeaders &guestHeaders, const ProviderSettings &provider);
// The upstream URL for a guest's path and query: upstream's host, always.
QUrl upstreamUrl(const QUrl &upstream, const QByteArray &path, const QByteArray &query);
// A sentence for the transcript about an upstream HTTP error.
Error upstreamStatusError(int status, const QByteArray &body, const QString &who);

class UpstreamCall final : public QObject
{
    Q_OBJECT

public:
    UpstreamCall(QNetworkAccessManager &network, const ProviderSettings &provider,
                 HttpExchange *exchange);

    void start();

    bool hasFailed() const { return m_failed; }
    bool wasCancelled() const { return m_cancelled; }

signals:
    void sent(const QByteArray &bytes);
    void failed(const arizuko::Error &error);
    void finished();

private:
    void readBody();
    void complete();
    bool beginIfReady();
    void fail(const Error &error);

    QNetworkAccessManager &m_network;
    const ProviderSettings &m_provider;
    HttpExchange *m_exchange;
    QPointer<QNetworkReply> m_reply;
    QByteArray m_errorBody;
    int m_status = 0;
    bool m_streaming = false;
    bool m_cancelled = false;
    bool m_failed = false;
};

} // namespace arizuko::gateway
