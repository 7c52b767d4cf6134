// yaml.v3's scalar analysis and writers (emitterc.go), on UTF-8 bytes as it
// works: the same byte classes decide plain vs quoted, and escapes are the
// same upper-case hex, so the output matches it byte for byte.

#include "export/yaml_scalar.h"

namespace arizuko::manifest {
namespace {

constexpr int bestIndent = 2;

int width(unsigned char lead)
{
    if ((lead & 0x80) == 0x00)
        return 1;
    if ((lead & 0xE0) == 0xC0)
        return 2;
    if ((lead & 0xF0) == 0xE0)
        return 3;
    return (lead & 0xF8) == 0xF0 ? 4 : 1;
}

unsigned char at(const QByteArray &text, qsizetype i)
{
    return i < text.size() ? static_cast<unsigned char>(text.at(i)) : 0;
}

// yaml.v3's is_printable: NEL counts as printable, and every four-byte
// character (emoji) does not, so it gets escaped.
bool isPrintable(const QByteArray &text, qsizetype i)
{
    const unsigned char b = at(text, i), b1 = at(text, i + 1), b2 = at(text, i + 2);
    return b == 0x0A || (b >= 0x20 && b <= 0x7E) || (b == 0xC2 && (b1 >= 0xA0 || b1 == 0x85)) ||
           (b > 0xC2 && b < 0xED) || (b == 0xED && b1 < 0xA0) || b == 0xEE ||
           (b == 0xEF && !(b1 == 0xBB && b2 == 0xBF) &&
            !(b1 == 0xBF && (b2 == 0xBE || b2 == 0xBF)));
}

bool isBreak(const QByteArray &text, qsizetype i)
{
    const unsigned char b = at(text, i), b1 = at(text, i + 1), b2 = at(text, i + 2);
    return b == '\r' || b == '\n' || (b == 0xC2 && b1 == 0x85) ||
           (b == 0xE2 && b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9));
}

bool isBlank(const QByteArray &text, qsizetype i)
{
    return at(text, i) == ' ' || at(text, i) == '\t';
}

bool isBlankOrEnd(const QByteArray &text, qsizetype i)
{
    return i >= text.size() || isBlank(text, i) || isBreak(text, i) || at(text, i) == 0;
}

struct Analysis
{
    bool multiline = false;
    bool plainAllowed = true; // block context
    bool singleQuotedAllowed = true;
    bool blockAllowed = true;
};

// yaml_emitter_analyze_scalar.
Analysis analyze(const QByteArray &value)
{
    Analysis result;
    if (value.isEmpty()) {
        result.blockAllowed = false;
        return result;
    }
    bool blockIndicators = value.startsWith("---") || value.startsWith("...");
    bool lineBreaks = false, special = false, tabs = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool breakSpace = false, spaceBreak = false, previousSpace = false, previousBreak = false;
    bool precededByWhitespace = true;
    for (qsizetype i = 0, w = 0; i < value.size(); i += w) {
        const unsigned char c = at(value, i);
        w = width(c);
        const bool followedByWhitespace = isBlankOrEnd(value, i + w);
        if (i == 0) {
            if (QByteArrayView("#,[]{}&*!|>'\"%@`").contains(char(c)))
                blockIndicators = true;
            else if ((c == '?' || c == ':' || c == '-') && followedByWhitespace)
                blockIndicators = true;
        } else if ((c == ':' && followedByWhitespace) || (c == '#' && precededByWhitespace)) {
            blockIndicators = true;
        }
        if (c == '\t')
            tabs = true;
        else if (!isPrintable(value, i))
            special = true;
        if (c == ' ') {
            leadingSpace = leadingSpace || i == 0;
            trailingSpace = trailingSpace || i + w == value.size();
            breakSpace = breakSpace || previousBreak;
            previousSpace = true;
            previousBreak = false;
        } else if (isBreak(value, i)) {
            lineBreaks = true;
            leadingBreak = leadingBreak || i == 0;
            trailingBreak = trailingBreak || i + w == value.size();
            spaceBreak = spaceBreak || previousSpace;
            previousSpace = false;
            previousBreak = true;
        } else {
            previousSpace = previousBreak = false;
        }
        precededByWhitespace = isBlankOrEnd(value, i);
    }
    result.multiline = lineBreaks;
    if (leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks ||
        blockIndicators)
        result.plainAllowed = false;
    if (trailingSpace)
        result.blockAllowed = false;
    if (breakSpace || spaceBreak || tabs || special) {
        result.plainAllowed = false;
        result.singleQuotedAllowed = false;
    }
    if (spaceBreak || special)
        result.blockAllowed = false;
    return result;
}

enum class Style
{
    Plain,
    Single,
    Double,
    Literal
};

Style chooseStyle(const QByteArray &text, bool simpleKey)
{
    const Analysis analysis = analyze(text);
    Style style = text.contains('\n')        ? Style::Literal
                  : readsAsPlainString(text) ? Style::Plain
                                             : Style::Double;
    if (simpleKey && analysis.multiline)
        style = Style::Double;
    if (style == Style::Plain && (!analysis.plainAllowed || (text.isEmpty() && simpleKey)))
        style = Style::Single;
    if (style == Style::Single && !analysis.singleQuotedAllowed)
        style = Style::Double;
    if (style == Style::Literal && (!analysis.blockAllowed || simpleKey))
        style = Style::Double;
    return style;
}

uint codePoint(const QByteArray &text, qsizetype i, int w)
{
    const unsigned char lead = at(text, i);
    uint value = w == 1 ? lead : w == 2 ? lead & 0x1F : w == 3 ? lead & 0x0F : lead & 0x07;
    for (int k = 1; k < w; ++k)
        value = (value << 6) | (at(text, i + k) & 0x3F);
    return value;
}

QByteArray doubleQuoted(const QByteArray &text)
{
    QByteArray out = "\"";
    for (qsizetype i = 0, w = 0; i < text.size(); i += w) {
        const unsigned char c = at(text, i);
        w = width(c);
        // yaml.v3's is_bom looks at the start of the string whatever the
        // position, so a leading BOM escapes every character after it.
        const bool bom = text.startsWith("\xEF\xBB\xBF");
        if (isPrintable(text, i) && !bom && !isBreak(text, i) && c != '"' && c != '\\') {
            out.append(text.mid(i, w));
            continue;
        }
        const uint value = codePoint(text, i, w);
        out.append('\\');
        switch (value) {
        case 0x00:
            out.append('0');
            break;
        case 0x07:
            out.append('a');
            break;
        case 0x08:
            out.append('b');
            break;
        case 0x09:
            out.append('t');
            break;
        case 0x0A:
            out.append('n');
            break;
        case 0x0B:
            out.append('v');
            break;
        case 0x0C:
            out.append('f');
            break;
        case 0x0D:
            out.append('r');
            break;
        case 0x1B:
            out.append('e');
            break;
        case 0x22:
            out.append('"');
            break;
        case 0x5C:
            out.append('\\');
            break;
        case 0x85:
            out.append('N');
            break;
        case 0xA0:
            out.append('_');
            break;
        case 0x2028:
            out.append('L');
            break;
        case 0x2029:
            out.append('P');
            break;
        default: {
            const int digits = value <= 0xFF ? 2 : value <= 0xFFFF ? 4 : 8;
            out.append(digits == 2 ? 'x' : digits == 4 ? 'u' : 'U');
            out.append(QByteArray::number(value, 16).toUpper().rightJustified(digits, '0'));
        }
        }
    }
    return out + '"';
}

// A line break other than '\n' (NEL, U+2028, U+2029) is written as it is
// and the text goes on at the scalar's indentation.
QByteArray singleQuoted(const QByteArray &text, int indent)
{
    QByteArray out = "'";
    bool breaks = false;
    for (qsizetype i = 0, w = 0; i < text.size(); i += w) {
        w = width(at(text, i));
        if (isBreak(text, i)) {
            out.append(text.mid(i, w));
            breaks = true;
            continue;
        }
        if (breaks)
            out.append(QByteArray(indent + bestIndent, ' '));
        breaks = false;
        out.append(text.at(i) == '\'' ? QByteArray("''") : text.mid(i, w));
    }
    return out + '\'';
}

// yaml_emitter_write_block_scalar_hints + write_literal_scalar: blank lines
// carry no indentation.
QByteArray literal(const QByteArray &text, int indent)
{
    QByteArray out = "|";
    if (text.startsWith(' ') || isBreak(text, 0))
        out.append(char('0' + bestIndent));
    const qsizetype last = text.size() - 1;
    if (!isBreak(text, last))
        out.append('-');
    else if (last == 0 || isBreak(text, last - 1))
        out.append('+');
    out.append('\n');
    const QByteArray pad(indent + bestIndent, ' ');
    bool breaks = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\n') {
            out.append('\n');
            breaks = true;
            continue;
        }
        if (breaks)
            out.append(pad);
        breaks = false;
        out.append(c);
    }
    return out;
}

} // namespace

bool yamlWritable(const QByteArray &text)
{
    const Style style = chooseStyle(text, false);
    // A NEL outside double quotes reads back folded into a space.
    return !(style == Style::Literal && isBreak(text, 0)) &&
           !(style != Style::Double && text.contains("\xC2\x85"));
}

QByteArray yamlScalar(const QByteArray &text, int indent, bool simpleKey)
{
    // resolve() reads a plain "<<" as a string, but the node round trip in
    // yaml.v3's encoder tags it as a merge key and prints the tag.
    if (text == "<<")
        return "!!merge <<";
    switch (chooseStyle(text, simpleKey)) {
    case Style::Plain:
        return text;
    case Style::Single:
        return singleQuoted(text, indent);
    case Style::Double:
        return doubleQuoted(text);
    case Style::Literal:
        return literal(text, indent);
    }
    return doubleQuoted(text);
}

} // namespace arizuko::manifest
