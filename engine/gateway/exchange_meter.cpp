#include "gateway/exchange_meter.h"

#include <QJsonDocument>

namespace arizuko::gateway {

namespace {
constexpr qsizetype maxMeteredBody = 4 * 1024 * 1024;
} // namespace

ExchangeMeter::ExchangeMeter(HttpExchange *exchange)
    : QObject(exchange)
    , m_exchange(exchange)
{
    m_elapsed.start();
    const QJsonObject request = QJsonDocument::fromJson(exchange->request().body).object();
    m_streamed = request.value(QStringLiteral("stream")).toBool();
    m_requestModel = request.value(QStringLiteral("model")).toString();
}

void ExchangeMeter::read(const QByteArray &bytes)
{
    if (!m_streamed) {
        if (m_body.size() + bytes.size() <= maxMeteredBody)
            m_body += bytes;
        return;
    }
    for (const SseEvent &event : m_sse.feed(bytes)) {
        const bool wasError = !m_usage.streamError().isEmpty();
        if (m_usage.readEvent(event.name, event.data) || (m_usage.started() && !m_counted))
            report();
        if (!wasError && !m_usage.streamError().isEmpty()) {
            m_failed = true;
            emit failed(makeError(QStringLiteral("gateway.upstream-stream-error"),
                                  QStringLiteral("the model API reported an error mid-response: %1")
                                      .arg(m_usage.streamError())));
        }
    }
}

void ExchangeMeter::report()
{
    const TokenCounts delta = m_usage.counts() - m_reported;
    m_reported = m_usage.counts();
    const bool first = !m_counted;
    m_counted = true;
    emit counted(delta, first, m_usage.model().isEmpty() ? m_requestModel : m_usage.model());
}

void ExchangeMeter::finish(bool failedAlready)
{
    if (m_finished)
        return;
    m_finished = true;
    const int status = m_exchange->status();
    if (!m_streamed && status >= 200 && status < 300 && !m_body.isEmpty()) {
        const QJsonObject message = QJsonDocument::fromJson(m_body).object();
        if (message.value(QStringLiteral("type")).toString() == QLatin1String("message") ||
            message.value(QStringLiteral("object")).toString() == QLatin1String("response")) {
            m_usage.readMessage(message);
            report();
        }
    }
    // A stream that ends cleanly on the wire but before its last event
    // (message_stop, response.completed) lost its end somewhere; the guest
    // would wait for the rest.
    if (m_streamed && status >= 200 && status < 300 && !failedAlready && !m_failed
        && !m_usage.stopped())
        emit failed(makeError(QStringLiteral("gateway.upstream-incomplete"),
                              QStringLiteral("the model API's reply ended before its last event "
                                             "(message_stop or response.completed)")));
    const HttpRequest &request = m_exchange->request();
    emit done(
        {{QStringLiteral("method"), QString::fromLatin1(request.method)},
         {QStringLiteral("path"), QString::fromLatin1(request.path)},
         {QStringLiteral("status"), status},
         {QStringLiteral("model"), m_usage.model().isEmpty() ? m_requestModel : m_usage.model()},
         {QStringLiteral("input_tokens"), m_usage.counts().input},
         {QStringLiteral("output_tokens"), m_usage.counts().output},
         {QStringLiteral("cache_creation_input_tokens"), m_usage.counts().cacheCreation},
         {QStringLiteral("cache_read_input_tokens"), m_usage.counts().cacheRead},
         {QStringLiteral("ms"), m_elapsed.elapsed()}});
}

} // namespace arizuko::gateway
