#include "https/outbound_request.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>

namespace arizuko::https {

QNetworkReply *send(QNetworkAccessManager &network, const OutboundRequest &request, QObject *owner)
{
    QNetworkRequest outbound(request.url);
    outbound.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                          QNetworkRequest::ManualRedirectPolicy);
    outbound.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    outbound.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    outbound.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                          QNetworkRequest::AlwaysNetwork);
    outbound.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    for (const auto &[name, value] : request.headers)
        outbound.setRawHeader(name, value);
    if (!request.trusted.isEmpty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(request.trusted);
        outbound.setSslConfiguration(tls);
    }
    if (request.stallTimeout.count() > 0)
        outbound.setTransferTimeout(int(request.stallTimeout.count()));
    QNetworkReply *reply = network.sendCustomRequest(outbound, request.method, request.body);
    reply->setParent(owner);
    return reply;
}

int httpStatus(const QNetworkReply &reply)
{
    return reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

} // namespace arizuko::https
