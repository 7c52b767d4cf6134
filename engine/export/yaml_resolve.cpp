// yaml.v3's resolve(): which plain scalars read as something other than a
// string. A string that would is quoted on output, so this decides quoting.

#include "export/yaml_scalar.h"

#include <QRegularExpression>
#include <cmath>
#include <cstdlib>

namespace arizuko::manifest {
namespace {

bool inList(const QByteArray &text, std::initializer_list<const char *> words)
{
    for (const char *word : words)
        if (text == word)
            return true;
    return false;
}

// The map lookup of resolve(): bools, nulls, infinities, NaN (the empty
// string is null).
bool inResolveMap(const QByteArray &text)
{
    return inList(text, {"true", "True",  "TRUE",  "false", "False", "FALSE", "",     "~",
                         "null", "Null",  "NULL",  ".nan",  ".NaN",  ".NAN",  ".inf", ".Inf",
                         ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"});
}

// Written quoted for YAML 1.1 readers even though v3 reads them as strings.
bool isOldBool(const QByteArray &text)
{
    return inList(text, {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No",
                         "NO", "off", "Off", "OFF"});
}

bool isBase60Float(const QByteArray &text)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$)"));
    return text.contains(':') && pattern.match(QString::fromUtf8(text)).hasMatch();
}

bool validDate(int year, int month, int day)
{
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > days[month - 1])
        return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month != 2 || day <= 28 || leap;
}

// Go's time.Parse with yaml.v3's four layouts (RFC 3339 with short fields,
// lower-case t, space separated without zone, date only).
bool isTimestamp(const QByteArray &text)
{
    static const QRegularExpression pattern(QStringLiteral(
        R"(^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:([Tt])|( ))([0-9]{1,2}):([0-9]{1,2}):)"
        R"(([0-9]{1,2})(?:\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$)"));
    const QRegularExpressionMatch match = pattern.match(QString::fromUtf8(text));
    if (!match.hasMatch())
        return false;
    if (!validDate(match.captured(1).toInt(), match.captured(2).toInt(), match.captured(3).toInt()))
        return false;
    if (match.captured(6).isEmpty())
        return true;
    // RFC 3339 layouts need a zone; the space layout has none.
    const bool zoned = !match.captured(9).isEmpty();
    if (!match.captured(4).isEmpty() != zoned)
        return false;
    return match.captured(6).toInt() < 24 && match.captured(7).toInt() < 60 &&
           match.captured(8).toInt() < 60;
}

// strconv.ParseInt/ParseUint with base 0 after removing '_', or yaml.v3's
// float pattern with a finite value.
bool isNumber(const QByteArray &text)
{
    QByteArray plain = text;
    plain.replace('_', "");
    static const QRegularExpression integer(QStringLiteral(
        R"(^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$)"));
    static const QRegularExpression floating(
        QStringLiteral(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)"));
    const QString unicode = QString::fromUtf8(plain);
    if (integer.match(unicode).hasMatch())
        return true;
    return floating.match(unicode).hasMatch() &&
           std::isfinite(std::strtod(plain.constData(), nullptr));
}

bool isDotFloat(const QByteArray &text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\.[0-9]+([eE][-+]?[0-9]+)?$)"));
    return pattern.match(QString::fromUtf8(text)).hasMatch();
}

} // namespace

bool readsAsPlainString(const QByteArray &text)
{
    if (isOldBool(text) || isBase60Float(text))
        return false;
    if (text.isEmpty())
        return false;
    const char first = text.at(0);
    if (QByteArrayView("yYnNtTfFoO~").contains(first))
        return !inResolveMap(text);
    if (first == '.')
        return !inResolveMap(text) && !isDotFloat(text);
    const bool digit = first >= '0' && first <= '9';
    if (digit || first == '+' || first == '-') {
        if (inResolveMap(text))
            return false;
        return !(isTimestamp(text) || isNumber(text));
    }
    return true;
}

} // namespace arizuko::manifest
