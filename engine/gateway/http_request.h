#pragma once

// One HTTP/1.1 request as the gateway's small server reads it, and the
// incremental parser that reads it from a connection's bytes with hard
// limits, so a hostile guest can neither grow our memory nor confuse us.

#include <QByteArray>
#include <QList>
#include <QPair>

#include <optional>

namespace arizuko::gateway {

using HttpHeader = QPair<QByteArray, QByteArray>;
using HttpHeaders = QList<HttpHeader>;

// The value of the first header named `name` (case-insensitive), if any.
std::optional<QByteArray> headerValue(const HttpHeaders &headers, QByteArrayView name);

struct HttpRequest
{
    QByteArray method; // "POST"
    QByteArray target; // "/v1/messages?beta=true"
    QByteArray path;   // "/v1/messages"
    QByteArray query;  // "beta=true" (without '?')
    QByteArray version; // "HTTP/1.1"
    HttpHeaders headers;
    QByteArray body;

    std::optional<QByteArray> header(QByteArrayView name) const
    {
        return headerValue(headers, name);
    }
    // HTTP/1.1 keeps the connection unless told to close; 1.0 the reverse.
    bool keepAlive() const;
};

struct HttpLimits
{
    qsizetype maxHeadBytes = 64 * 1024;
    qsizetype maxBodyBytes = 32 * 1024 * 1024;
};

class HttpRequestParser
{
public:
    enum class State { NeedMore, HeadComplete, Complete, Failed };

    explicit HttpRequestParser(HttpLimits limits = {}) : m_limits(limits) {}

    // Consumes bytes from the front of `buffer`. HeadComplete (once per
    // request, before any of its body is read): head() holds all but the
    // body; call feed() again to go on. Complete: take() the request, and
    // call feed() again for a pipelined one. Failed: the status (400, 411,
    // 413, 431, 505) and reason to answer before closing.
    State feed(QByteArray &buffer);
    const HttpRequest &head() const { return m_request; }
    qsizetype bodyLength() const { return m_bodyLength; }
    HttpRequest take();

    int failureStatus() const { return m_failureStatus; }
    const QByteArray &failureReason() const { return m_failureReason; }
    // True between a request's first byte and its last.
    bool inRequest() const { return m_inHead || m_inBody; }

private:
    State fail(int status, QByteArray reason);
    State parseHead(QByteArrayView head);
    bool parseHeaderLine(QByteArrayView line);

    HttpLimits m_limits;
    HttpRequest m_request;
    qsizetype m_bodyLength = 0;
    bool m_inHead = false;
    bool m_inBody = false;
    bool m_headReported = false;
    bool m_complete = false;
    int m_failureStatus = 0;
    QByteArray m_failureReason;
};

} // namespace arizuko::gateway
