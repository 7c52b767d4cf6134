#include "export/canonical_emitter.h"

#include "export/yaml_scalar.h"

#include <QCryptographicHash>
#include <algorithm>

namespace arizuko::manifest {
namespace {

bool isLetter(uint c)
{
    return QChar::isLetter(char32_t(c));
}

bool isDigit(uint c)
{
    return QChar::isDigit(char32_t(c));
}

// yaml.v3's keyList.Less for string map keys: letters before other
// characters, runs of digits compared as numbers.
bool yamlKeyLess(const QString &left, const QString &right)
{
    const QList<uint> a = left.toUcs4(), b = right.toUcs4();
    bool digits = false;
    for (qsizetype i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] == b[i]) {
            digits = isDigit(a[i]);
            continue;
        }
        const bool al = isLetter(a[i]), bl = isLetter(b[i]);
        if (al && bl)
            return a[i] < b[i];
        if (al || bl)
            return digits ? al : bl;
        qint64 an = 0, bn = 0;
        if (a[i] == '0' || b[i] == '0') {
            for (qsizetype j = i - 1; j >= 0 && isDigit(a[j]); --j) {
                if (a[j] != '0') {
                    an = bn = 1;
                    break;
                }
            }
        }
        qsizetype ai = i, bi = i;
        for (; ai < a.size() && isDigit(a[ai]); ++ai)
            an = an * 10 + qint64(a[ai] - '0');
        for (; bi < b.size() && isDigit(b[bi]); ++bi)
            bn = bn * 10 + qint64(b[bi] - '0');
        if (an != bn)
            return an < bn;
        if (ai != bi)
            return ai < bi;
        return a[i] < b[i];
    }
    return a.size() < b.size();
}

void writeSequence(QByteArray &out, const QStringList &items, int indent)
{
    const QByteArray pad(indent, ' ');
    for (const QString &item : items)
        out += pad + "- " + yamlScalar(item.toUtf8(), indent + 2) + '\n';
}

// `indent` is the column of the field's key inside the row mapping.
void writeField(QByteArray &out, const QByteArray &prefix, const FieldSpec &field,
                const FieldValue &value, int indent)
{
    const QByteArray name = field.name.toUtf8();
    switch (field.type) {
    case FieldType::Int:
        out +=
            prefix + name + ": " + (value.isZero(field.type) ? "0" : value.scalar.toUtf8()) + '\n';
        return;
    case FieldType::Bool:
        out += prefix + name + ": " + (value.isZero(field.type) ? "false" : "true") + '\n';
        return;
    case FieldType::String: {
        QByteArray scalar = yamlScalar(value.scalar.toUtf8(), indent);
        if (!scalar.endsWith('\n'))
            scalar += '\n';
        out += prefix + name + ": " + scalar;
        return;
    }
    case FieldType::StringList:
        out += prefix + name + ":\n";
        writeSequence(out, value.list, indent + 2);
        return;
    case FieldType::StringMap:
    case FieldType::StringListMap: {
        out += prefix + name + ":\n";
        auto entries = value.map;
        std::stable_sort(entries.begin(), entries.end(), [](const auto &l, const auto &r) {
            return yamlKeyLess(l.first, r.first);
        });
        const QByteArray pad(indent + 2, ' ');
        for (const auto &[key, items] : entries) {
            const QByteArray keyText = yamlScalar(key.toUtf8(), indent + 2, true);
            if (field.type == FieldType::StringMap) {
                out +=
                    pad + keyText + ": " + yamlScalar(items.value(0).toUtf8(), indent + 2) + '\n';
            } else if (items.isEmpty()) {
                out += pad + keyText + ": []\n";
            } else {
                out += pad + keyText + ":\n";
                writeSequence(out, items, indent + 4);
            }
        }
        return;
    }
    }
}

void writeRow(QByteArray &out, const ResourceSpec &spec, const Row &row)
{
    bool first = true;
    for (qsizetype i = 0; i < spec.fields.size(); ++i) {
        const FieldSpec &field = spec.fields.at(i);
        if (!field.always && row.values.at(i).isZero(field.type))
            continue;
        writeField(out, first ? QByteArray("  - ") : QByteArray(4, ' '), field, row.values.at(i),
                   4);
        first = false;
    }
    if (first)
        out += "  - {}\n";
}

} // namespace

QByteArray canonicalBody(const Document &document)
{
    std::map<QByteArray, QString> keys; // bytewise order of UTF-8
    for (const auto &entry : document.resources)
        keys.emplace(entry.first.toUtf8(), entry.first);
    QByteArray out;
    for (const auto &[bytes, name] : keys) {
        const ResourceSpec *spec = findResource(name);
        QList<Row> rows = document.resources.at(name);
        if (rows.isEmpty()) {
            out += bytes + ": []\n";
            continue;
        }
        std::stable_sort(rows.begin(), rows.end(), [spec](const Row &l, const Row &r) {
            return l.sortKey(*spec) < r.sortKey(*spec);
        });
        out += bytes + ":\n";
        for (const Row &row : rows)
            writeRow(out, *spec, row);
    }
    if (out.isEmpty())
        out = "{}\n";
    return out;
}

QString checksumOf(const QByteArray &body)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex());
}

QByteArray canonicalDocument(const Document &document)
{
    const QByteArray body = canonicalBody(document);
    return "checksum: " + checksumOf(body).toUtf8() + '\n' + body;
}

} // namespace arizuko::manifest
