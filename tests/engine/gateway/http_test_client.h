#pragma once

// A raw HTTP/1.1 client for the gateway tests: it binds the address the
// test says (the guest's, or another one), sends one request and reads
// the reply while the event loop keeps serving the gateway and upstream
// that live in the same test process.

#include "gateway/http_request.h"

#include <QByteArray>
#include <QHostAddress>

namespace arizuko::gateway::testing {

struct ClientReply
{
    int status = 0; // 0: no response at all
    HttpHeaders headers;
    QByteArray rawHead;
    QByteArray body;     // de-chunked
    bool complete = false; // the whole body arrived
    bool closed = false;   // the server closed the connection
    qint64 firstBodyMs = -1; // when the first body bytes arrived
    qint64 totalMs = -1;
    bool timedOut = false; // neither complete nor closed within the wait
};

struct ClientRequest
{
    QByteArray method = "POST";
    QByteArray target = "/v1/messages?beta=true";
    HttpHeaders headers;
    QByteArray body;
};

ClientReply sendRequest(const QHostAddress &server, quint16 port, const ClientRequest &request,
                        const QHostAddress &from = QHostAddress(QStringLiteral("127.0.0.3")),
                        int timeoutMs = 5000);

// Sends `bytes` exactly as given (a hostile client's request) and reads
// the reply; `headOnly` for a HEAD request's reply.
ClientReply sendRaw(const QHostAddress &server, quint16 port, const QByteArray &bytes,
                    bool headOnly = false,
                    const QHostAddress &from = QHostAddress(QStringLiteral("127.0.0.3")),
                    int timeoutMs = 5000);

// A /v1/messages body with tools, streamed, whose prompt is `prompt`.
QByteArray messagesBody(const QString &prompt,
                        const QString &model = QStringLiteral("claude-sonnet-4-5-20250929"),
                        bool stream = true);

// A /v1/responses body (Codex's shape) with one function tool, whose
// prompt is `prompt`.
QByteArray responsesBody(const QString &prompt, const QString &model = QStringLiteral("gpt-5.4"),
                         bool stream = true);

} // namespace arizuko::gateway::testing
