#include "terminal_text.h"

#include <QJsonDocument>
#include <algorithm>

namespace arizuko::cli {
namespace {

bool isDelOrC1(char16_t c)
{
    return c >= 0x7f && c <= 0x9f;
}

bool isControl(char16_t c)
{
    return (c < 0x20 && c != u'\n' && c != u'\t') || isDelOrC1(c);
}

bool isAnyControl(char16_t c)
{
    return c < 0x20 || isDelOrC1(c);
}

// `text` with each character `escape` picks written as \xHH (below 0x80) or
// \uHHHH (`unicodeOnly`: always \uHHHH).
template<typename Predicate>
QString escaped(const QString &text, Predicate escape, bool unicodeOnly)
{
    if (std::none_of(text.begin(), text.end(), [&](QChar c) { return escape(c.unicode()); }))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        if (!escape(code))
            out += c;
        else if (code < 0x80 && !unicodeOnly)
            out += QStringLiteral("\\x%1").arg(int(code), 2, 16, QLatin1Char('0'));
        else
            out += QStringLiteral("\\u%1").arg(int(code), 4, 16, QLatin1Char('0'));
    }
    return out;
}

} // namespace

QString inertForTerminal(const QString &text)
{
    return escaped(text, isControl, false);
}

QString inertLine(const QString &text)
{
    return escaped(text, isAnyControl, false);
}

QString inertJson(const QJsonDocument &json, QJsonDocument::JsonFormat format)
{
    return escaped(QString::fromUtf8(json.toJson(format)), isDelOrC1, true);
}

QString inertJsonLine(const QJsonObject &json)
{
    return inertJson(QJsonDocument(json), QJsonDocument::Compact);
}

} // namespace arizuko::cli
