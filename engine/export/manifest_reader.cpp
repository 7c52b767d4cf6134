#include "export/manifest_reader.h"

#include "export/canonical_emitter.h"
#include "export/manifest_place.h"

#include <QRegularExpression>
#include <QSet>

namespace arizuko::manifest {
namespace {

using Kind = YamlNode::Kind;

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Null:
        return QStringLiteral("nothing");
    case Kind::Scalar:
        return QStringLiteral("a scalar");
    case Kind::Sequence:
        return QStringLiteral("a list");
    case Kind::Mapping:
        return QStringLiteral("a mapping");
    }
    return {};
}

Result<QString> scalarText(const YamlNode &node, const Place &place)
{
    if (node.kind == Kind::Null)
        return QString();
    if (node.kind != Kind::Scalar)
        return place.error(QStringLiteral("expected text, found %1").arg(kindName(node.kind)));
    return node.value;
}

Result<QStringList> textList(const YamlNode &node, const Place &place)
{
    if (node.kind == Kind::Null)
        return QStringList();
    if (node.kind != Kind::Sequence)
        return place.error(QStringLiteral("expected a list, found %1").arg(kindName(node.kind)));
    QStringList items;
    for (const YamlNode &item : node.children) {
        Result<QString> text = scalarText(item, place);
        if (!text)
            return text.error();
        items.append(*text);
    }
    return items;
}

Result<FieldValue> readField(const FieldSpec &spec, const YamlNode &node, const Place &place)
{
    FieldValue value;
    switch (spec.type) {
    case FieldType::String: {
        Result<QString> text = scalarText(node, place);
        if (!text)
            return text.error();
        value.scalar = *text;
        return value;
    }
    case FieldType::Int: {
        static const QRegularExpression integer(QStringLiteral("^[-+]?[0-9]{1,18}$"));
        if (node.kind == Kind::Null)
            return value;
        if (node.kind != Kind::Scalar || !node.plain || !integer.match(node.value).hasMatch())
            return place.error(QStringLiteral("expected an integer, found %1")
                                   .arg(node.kind == Kind::Scalar
                                            ? QStringLiteral("'%1'").arg(node.value)
                                            : kindName(node.kind)));
        value.scalar = QString::number(node.value.toLongLong());
        return value;
    }
    case FieldType::Bool: {
        static const QStringList truth = {QStringLiteral("true"), QStringLiteral("True"),
                                          QStringLiteral("TRUE")};
        static const QStringList falsehood = {QStringLiteral("false"), QStringLiteral("False"),
                                              QStringLiteral("FALSE")};
        if (node.kind == Kind::Null)
            return value;
        if (node.kind != Kind::Scalar || !node.plain ||
            !(truth.contains(node.value) || falsehood.contains(node.value)))
            return place.error(QStringLiteral("expected true or false"));
        value.scalar =
            truth.contains(node.value) ? QStringLiteral("true") : QStringLiteral("false");
        return value;
    }
    case FieldType::StringList: {
        Result<QStringList> items = textList(node, place);
        if (!items)
            return items.error();
        value.list = *items;
        return value;
    }
    case FieldType::StringMap:
    case FieldType::StringListMap: {
        if (node.kind == Kind::Null)
            return value;
        if (node.kind != Kind::Mapping)
            return place.error(
                QStringLiteral("expected a mapping, found %1").arg(kindName(node.kind)));
        QSet<QString> keys;
        for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
            Result<QString> key = scalarText(node.children[i], place);
            if (!key)
                return key.error();
            if (keys.contains(*key))
                return place.error(QStringLiteral("key '%1' appears twice").arg(*key));
            keys.insert(*key);
            Result<QStringList> items = spec.type == FieldType::StringMap
                                            ? Result<QStringList>(QStringList())
                                            : textList(node.children[i + 1], place);
            if (spec.type == FieldType::StringMap) {
                Result<QString> text = scalarText(node.children[i + 1], place);
                if (!text)
                    return text.error();
                items = QStringList{*text};
            }
            if (!items)
                return items.error();
            value.map.append({*key, *items});
        }
        return value;
    }
    }
    return value;
}

Result<Row> readRow(const ResourceSpec &spec, const YamlNode &node, Place place)
{
    place.line = node.line;
    if (node.kind != Kind::Mapping)
        return place.error(
            QStringLiteral("a row must be a mapping of fields, found %1").arg(kindName(node.kind)));
    Row row = emptyRow(spec);
    row.line = node.line;
    QSet<QString> seen;
    for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
        const YamlNode &key = node.children[i];
        place.field = key.kind == Kind::Scalar ? key.value : QString();
        const qsizetype index = key.kind == Kind::Scalar ? spec.fieldIndex(key.value) : -1;
        if (index < 0)
            return place.error(
                QStringLiteral("unknown field; %1 rows have %2").arg(spec.name, [&spec] {
                    QStringList names;
                    for (const FieldSpec &field : spec.fields)
                        names.append(field.name);
                    return names.join(QStringLiteral(", "));
                }()));
        if (seen.contains(key.value))
            return place.error(QStringLiteral("the field appears twice in the row"));
        seen.insert(key.value);
        Result<FieldValue> value = readField(spec.fields.at(index), node.children[i + 1], place);
        if (!value)
            return value.error();
        row.values[index] = *value;
    }
    return row;
}

Result<Document> readDocument(const YamlNode &root, int index)
{
    Place place{index, {}, -1, root.line, {}};
    if (root.kind != Kind::Mapping)
        return place.error(
            QStringLiteral("a document must be a mapping of resource names to lists"));
    Document document;
    document.index = index;
    QSet<QString> keys;
    QString subsystem;
    for (size_t i = 0; i + 1 < root.children.size(); i += 2) {
        const YamlNode &key = root.children[i];
        const YamlNode &value = root.children[i + 1];
        place.line = key.line;
        if (key.kind != Kind::Scalar)
            return place.error(QStringLiteral("keys must be resource names"));
        if (keys.contains(key.value))
            return place.error(
                QStringLiteral("key '%1' appears twice (arizuko would silently keep the "
                               "last one)")
                    .arg(key.value));
        keys.insert(key.value);
        if (key.value == u"checksum") {
            place.field = key.value;
            Result<QString> checksum = scalarText(value, place);
            if (!checksum)
                return checksum.error();
            document.checksum = *checksum;
            place.field.clear();
            continue;
        }
        const ResourceSpec *spec = findResource(key.value);
        if (!spec)
            return place.error(QStringLiteral("unknown key '%1'").arg(key.value));
        if (!subsystem.isEmpty() && spec->subsystem != subsystem)
            return place.error(
                QStringLiteral("'%1' belongs to %2, this document to %3; one subsystem per "
                               "document")
                    .arg(key.value, spec->subsystem, subsystem));
        subsystem = spec->subsystem;
        Place listPlace = place;
        listPlace.resource = key.value;
        if (value.kind != Kind::Sequence)
            return listPlace.error(
                QStringLiteral("expected a list of rows (write [] for none), found %1")
                    .arg(kindName(value.kind)));
        QList<Row> rows;
        for (size_t r = 0; r < value.children.size(); ++r) {
            listPlace.row = qsizetype(r);
            Result<Row> row = readRow(*spec, value.children[r], listPlace);
            if (!row)
                return row.error();
            rows.append(*row);
        }
        document.resources[key.value] = rows;
    }
    return document;
}

// The stream cut at "---" lines, as arizuko export separates documents.
QList<QByteArray> rawDocuments(const QByteArray &text)
{
    QList<QByteArray> parts;
    QByteArray current;
    QList<QByteArray> lines = text.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (const QByteArray &line : lines) {
        if (line == "---") {
            parts.append(current);
            current.clear();
            continue;
        }
        current += line + '\n';
    }
    parts.append(current);
    parts.removeIf([](const QByteArray &part) { return part.trimmed().isEmpty(); });
    return parts;
}

} // namespace

Result<QList<Document>> readManifest(const QByteArray &text, const YamlLimits &limits)
{
    Result<QList<YamlNode>> trees = parseYaml(text, limits);
    if (!trees)
        return trees.error();
    const QList<QByteArray> raw = rawDocuments(text);
    QList<Document> documents;
    for (qsizetype i = 0; i < trees->size(); ++i) {
        Result<Document> document = readDocument(trees->at(i), int(i));
        if (!document)
            return document.error();
        if (raw.size() == trees->size())
            document->source = raw.at(i);
        documents.append(*document);
    }
    return documents;
}

bool checksumMatches(const Document &document)
{
    if (document.checksum.isEmpty())
        return false;
    const qsizetype firstLine = document.source.indexOf('\n');
    if (document.source.startsWith("checksum: ") && firstLine > 0 &&
        checksumOf(document.source.sliced(firstLine + 1)) == document.checksum)
        return true;
    return checksumOf(canonicalBody(document)) == document.checksum;
}

} // namespace arizuko::manifest
