#pragma once

// How the host sends a request that carries a credential (the model
// gateway's to the model API, a connector's to its service): no redirect is
// followed, since one could lead the credential to another host (the caller
// sees the 3xx and decides); no cookie is sent or kept and no cache is read
// or written, so one call never carries state from another.

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QUrl>
#include <chrono>
#include <utility>

class QNetworkAccessManager;
class QNetworkReply;
class QObject;

namespace arizuko::https {

struct OutboundRequest
{
    QByteArray method;
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    // When not empty, the only CAs this request trusts (a test origin's);
    // otherwise the system's.
    QList<QSslCertificate> trusted;
    // How long the transfer may go without a byte before Qt aborts it;
    // zero: no such limit (the caller keeps its own deadline).
    std::chrono::milliseconds stallTimeout{0};
};

// Sends `request`; the reply is a child of `owner`, so it goes with it.
QNetworkReply *send(QNetworkAccessManager &network, const OutboundRequest &request, QObject *owner);

// The reply's HTTP status, 0 while none has arrived (or when none will:
// the service was not reached).
int httpStatus(const QNetworkReply &reply);

} // namespace arizuko::https
