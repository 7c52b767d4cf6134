#include "gateway/http_request.h"

#include "httpfield/field_line.h"

namespace arizuko::gateway {

namespace {

std::string_view view(QByteArrayView bytes)
{
    return {bytes.data(), size_t(bytes.size())};
}

QByteArray bytes(std::string_view text)
{
    return QByteArray(text.data(), qsizetype(text.size()));
}

// An origin-form target ("/v1/messages?beta=true"): visible ASCII only.
bool isOriginForm(QByteArrayView target)
{
    if (!target.startsWith('/'))
        return false;
    for (const char c : target) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte >= 0x7f)
            return false;
    }
    return true;
}

} // namespace

std::optional<QByteArray> headerValue(const HttpHeaders &headers, QByteArrayView name)
{
    for (const HttpHeader &header : headers) {
        if (header.first.compare(name, Qt::CaseInsensitive) == 0)
            return header.second;
    }
    return std::nullopt;
}

bool HttpRequest::keepAlive() const
{
    const QByteArray connection = header("connection").value_or(QByteArray()).toLower();
    if (version == "HTTP/1.0")
        return connection.contains("keep-alive");
    return !connection.contains("close");
}

HttpRequestParser::State HttpRequestParser::feed(QByteArray &buffer)
{
    if (m_failureStatus != 0)
        return State::Failed;
    if (m_complete)
        return State::Complete;
    if (!m_inBody) {
        // Stray CRLFs between pipelined requests are allowed (RFC 9112 2.2).
        while (!m_inHead && buffer.startsWith("\r\n"))
            buffer.remove(0, 2);
        if (buffer.isEmpty())
            return State::NeedMore;
        m_inHead = true;
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        const QByteArrayView head = QByteArrayView(buffer).first(
            std::min(end < 0 ? buffer.size() : end, m_limits.maxHeadBytes));
        // Refused as soon as seen, not after the head timeout a head
        // with bare LFs alone would otherwise run into.
        if (const auto fault = httpfield::checkHeadBreaks(view(head));
            fault != httpfield::HeadBreakError::None)
            return fail(400, bytes(httpfield::describe(fault)) + " in the request head");
        if (end < 0) {
            if (buffer.size() > m_limits.maxHeadBytes)
                return fail(431, "request head too large");
            return State::NeedMore;
        }
        if (end + 4 > m_limits.maxHeadBytes)
            return fail(431, "request head too large");
        const State parsed = parseHead(head);
        buffer.remove(0, end + 4);
        if (parsed == State::Failed)
            return parsed;
        m_inHead = false;
        m_inBody = true;
    }
    if (!m_headReported) {
        m_headReported = true;
        return State::HeadComplete;
    }
    // Reserved only now that the head was let through: a refused request
    // costs nothing beyond its head.
    if (m_request.body.isEmpty())
        m_request.body.reserve(m_bodyLength);
    const qsizetype wanted = m_bodyLength - m_request.body.size();
    const qsizetype taken = std::min(wanted, buffer.size());
    m_request.body.append(QByteArrayView(buffer).first(taken));
    buffer.remove(0, taken);
    if (m_request.body.size() < m_bodyLength)
        return State::NeedMore;
    m_inBody = false;
    m_complete = true;
    return State::Complete;
}

HttpRequest HttpRequestParser::take()
{
    HttpRequest request = std::move(m_request);
    m_request = HttpRequest();
    m_complete = false;
    m_headReported = false;
    m_bodyLength = 0;
    return request;
}

HttpRequestParser::State HttpRequestParser::fail(int status, QByteArray reason)
{
    m_failureStatus = status;
    m_failureReason = std::move(reason);
    return State::Failed;
}

HttpRequestParser::State HttpRequestParser::parseHead(QByteArrayView head)
{
    const QList<QByteArrayView> lines = [&head] {
        QList<QByteArrayView> result;
        qsizetype start = 0;
        while (start <= head.size()) {
            qsizetype end = head.indexOf(QByteArrayView("\r\n"), start);
            if (end < 0)
                end = head.size();
            result.append(head.sliced(start, end - start));
            start = end + 2;
        }
        return result;
    }();
    const QList<QByteArray> requestLine = lines.first().toByteArray().split(' ');
    if (requestLine.size() != 3 || !httpfield::isToken(view(requestLine[0])))
        return fail(400, "malformed request line");
    if (requestLine[2] != "HTTP/1.1" && requestLine[2] != "HTTP/1.0")
        return fail(505, "HTTP version not supported");
    // Only origin-form: an absolute-form target names a host of its own,
    // which a server must prefer to Host (RFC 9112 3.2.2).
    if (requestLine[1].contains("://"))
        return fail(400, "an absolute-form request target is refused; send the path only");
    if (!isOriginForm(requestLine[1]))
        return fail(400, "malformed request target");
    m_request.method = requestLine[0];
    m_request.target = requestLine[1];
    m_request.version = requestLine[2];
    const qsizetype question = m_request.target.indexOf('?');
    m_request.path = question < 0 ? m_request.target : m_request.target.left(question);
    m_request.query = question < 0 ? QByteArray() : m_request.target.mid(question + 1);

    for (qsizetype index = 1; index < lines.size(); ++index) {
        if (!parseHeaderLine(lines[index]))
            return State::Failed;
    }

    if (m_request.header("transfer-encoding"))
        return fail(411, "chunked request bodies are not supported; send Content-Length");
    qsizetype length = 0;
    bool seen = false;
    for (const HttpHeader &header : std::as_const(m_request.headers)) {
        if (header.first.compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        bool ok = false;
        const qlonglong value = header.second.toLongLong(&ok);
        // Two different lengths are a smuggling attempt, not a typo.
        if (!ok || value < 0 || (seen && value != length))
            return fail(400, "bad Content-Length");
        length = qsizetype(value);
        seen = true;
    }
    if (length > m_limits.maxBodyBytes)
        return fail(413, "request body too large");
    m_bodyLength = length;
    return State::NeedMore;
}

bool HttpRequestParser::parseHeaderLine(QByteArrayView line)
{
    // The proxy's validator (httpfield/): obsolete line folding, nameless
    // headers and controls in a value (which could end a header early at a
    // server downstream of us) are refused, never guessed at.
    const httpfield::FieldLine field = httpfield::parseFieldLine(view(line));
    if (field.error == httpfield::FieldLineError::ControlCharacter) {
        fail(400, "the header " + bytes(field.name).left(64) + " holds a control character");
        return false;
    }
    if (!field) {
        fail(400, "malformed header line");
        return false;
    }
    m_request.headers.append({bytes(field.name), bytes(field.value)});
    return true;
}

} // namespace arizuko::gateway
