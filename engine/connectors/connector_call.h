#pragma once

// One HTTP request of a connector, made by the host: no redirect is
// followed (one to another host is an error), no cookie is kept, the whole
// exchange has a deadline and the response a size cap.

#include "connectors/connector_request.h"
#include "core/result.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QTimer>
#include <chrono>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace arizuko::connectors {

struct CallLimits
{
    std::chrono::milliseconds timeout{30000};
    qint64 maxResponseBytes = 1024 * 1024;
};

struct HttpResponse
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
    // A redirect's Location (same host only; another host is an error).
    QByteArray location;
};

struct CallFinished
{
    Result<HttpResponse> response;
    qint64 latencyMs = 0;
};

class ConnectorCall final : public QObject
{
    Q_OBJECT

public:
    // `trusted`: when not empty, the only CAs this request trusts (the
    // test origin's); otherwise the system's.
    ConnectorCall(QNetworkAccessManager &network, PreparedRequest request,
                  QList<QSslCertificate> trusted, CallLimits limits, QObject *parent);

    // `done` is called once, from this thread.
    void start(std::function<void(const CallFinished &finished)> done);

private:
    void fail(const Error &error);
    void finish();
    void deliver(Result<HttpResponse> response);

    QNetworkAccessManager &m_network;
    PreparedRequest m_request;
    QList<QSslCertificate> m_trusted;
    CallLimits m_limits;
    QPointer<QNetworkReply> m_reply;
    QByteArray m_body;
    QTimer m_deadline;
    QElapsedTimer m_clock;
    std::function<void(const CallFinished &finished)> m_done;
};

} // namespace arizuko::connectors
