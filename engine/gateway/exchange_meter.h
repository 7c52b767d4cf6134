#pragma once

// Watches one reply pass through the gateway: reads its usage from the SSE
// events or the JSON body, notices an error event or a stream that ended
// before message_stop, and sums it up for the transcript when done.

#include "core/result.h"
#include "gateway/http_server.h"
#include "gateway/model_usage.h"
#include "gateway/sse.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>

namespace arizuko::gateway {

class ExchangeMeter final : public QObject
{
    Q_OBJECT

public:
    explicit ExchangeMeter(HttpExchange *exchange);

    // Body bytes as they are sent to the guest.
    void read(const QByteArray &bytes);
    // The reply is over; `failed` when a failure was already reported.
    void finish(bool failed);

signals:
    // Tokens added since the last report; `firstOfResponse` once per response.
    void counted(const arizuko::gateway::TokenCounts &delta, bool firstOfResponse,
                 const QString &model);
    void failed(const arizuko::Error &error);
    void done(const QJsonObject &summary);

private:
    void report();

    HttpExchange *m_exchange;
    QElapsedTimer m_elapsed;
    SseReader m_sse;
    ResponseUsage m_usage;
    TokenCounts m_reported;
    QByteArray m_body; // a non-streamed reply, kept to read its usage
    QString m_requestModel;
    bool m_streamed = false;
    bool m_counted = false;
    bool m_finished = false;
    bool m_failed = false; // a failure of this reply was reported
};

} // namespace arizuko::gateway

Q_DECLARE_METATYPE(arizuko::gateway::TokenCounts)
