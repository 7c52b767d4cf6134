#include "connectors/connector_call.h"

#include "https/outbound_request.h"

#include <QNetworkReply>

namespace arizuko::connectors {

ConnectorCall::ConnectorCall(QNetworkAccessManager &network, PreparedRequest request,
                             QList<QSslCertificate> trusted, CallLimits limits, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_request(std::move(request))
    , m_trusted(std::move(trusted))
    , m_limits(limits)
{
    m_deadline.setSingleShot(true);
}

void ConnectorCall::start(std::function<void(const CallFinished &finished)> done)
{
    m_done = std::move(done);
    https::OutboundRequest request{m_request.method, m_request.url, {}, m_request.body, m_trusted};
    for (const auto &[name, value] : std::as_const(m_request.headers))
        request.headers.append({name, value});
    m_clock.start();
    // A folder's call never carries another's cookies or cached answers.
    m_reply = https::send(m_network, request, this);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toLongLong() > m_limits.maxResponseBytes)
            fail(makeError(QStringLiteral("connectors.too-large"),
                           QStringLiteral("the response announces %1 bytes, more than the %2 a "
                                          "connector call may return; cut")
                               .arg(length.toLongLong())
                               .arg(m_limits.maxResponseBytes)));
    });
    connect(m_reply, &QNetworkReply::readyRead, this, [this] {
        m_body += m_reply->readAll();
        if (m_body.size() > m_limits.maxResponseBytes)
            fail(makeError(QStringLiteral("connectors.too-large"),
                           QStringLiteral("the response is longer than the %1 bytes a connector "
                                          "call may return; cut")
                               .arg(m_limits.maxResponseBytes)));
    });
    connect(m_reply, &QNetworkReply::finished, this, &ConnectorCall::finish);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        fail(makeError(QStringLiteral("connectors.timeout"),
                       QStringLiteral("no complete response within %1 s; cut")
                           .arg(double(m_limits.timeout.count()) / 1000.0)));
    });
    m_deadline.start(m_limits.timeout);
}

void ConnectorCall::fail(const Error &error)
{
    deliver(error);
}

void ConnectorCall::finish()
{
    if (!m_reply || !m_done)
        return;
    m_body += m_reply->readAll();
    const int status = https::httpStatus(*m_reply);
    if (status == 0)
        return fail(makeError(
            QStringLiteral("connectors.unreachable"),
            QStringLiteral("the service did not answer: %1").arg(m_reply->errorString())));
    if (m_body.size() > m_limits.maxResponseBytes)
        return fail(makeError(QStringLiteral("connectors.too-large"),
                              QStringLiteral("the response is longer than the %1 bytes a "
                                             "connector call may return; cut")
                                  .arg(m_limits.maxResponseBytes)));
    HttpResponse response;
    response.status = status;
    response.contentType = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    response.body = m_body;
    if (status >= 300 && status < 400 && m_reply->hasRawHeader("Location")) {
        const QUrl target =
            m_request.url.resolved(QUrl::fromEncoded(m_reply->rawHeader("Location")));
        if (target.scheme() != m_request.url.scheme() || target.host() != m_request.url.host() ||
            target.port() != m_request.url.port())
            return fail(makeError(QStringLiteral("connectors.redirect-refused"),
                                  QStringLiteral("refused: the service redirected (HTTP %1) to "
                                                 "another host, %2; a connector calls only its "
                                                 "own host")
                                      .arg(QString::number(status), target.host())));
        response.location = target.path(QUrl::FullyEncoded).toLatin1();
    }
    deliver(std::move(response));
}

void ConnectorCall::deliver(Result<HttpResponse> response)
{
    if (!m_done)
        return;
    m_deadline.stop();
    const auto done = std::move(m_done);
    m_done = nullptr;
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
    done(CallFinished{std::move(response), m_clock.elapsed()});
}

} // namespace arizuko::connectors
