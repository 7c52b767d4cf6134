#pragma once

// A manifest as data: per document, the declared checksum and each resource's
// rows, every row holding one value per field of its ResourceSpec.

#include "export/resource_catalogue.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <map>
#include <utility>

namespace arizuko::manifest {

struct FieldValue
{
    QString scalar;   // String; Int as decimal; Bool as true/false
    QStringList list; // StringList
    // StringMap (one item per key) and StringListMap, in the file's order.
    QList<std::pair<QString, QStringList>> map;

    bool isZero(FieldType type) const;
};

struct Row
{
    QList<FieldValue> values; // one per ResourceSpec::fields
    int line = 0;             // 1-based line in the file, 0 when built in memory

    const QString &text(const ResourceSpec &spec, const QString &field) const;
    void set(const ResourceSpec &spec, const QString &field, const QString &value);
    // The "%v|"-joined key arizuko sorts and matches rows by.
    QByteArray sortKey(const ResourceSpec &spec) const;
};

Row emptyRow(const ResourceSpec &spec);

struct Document
{
    QString checksum;                        // as declared, empty when absent
    std::map<QString, QList<Row>> resources; // present keys only
    int index = 0;                           // 0-based position in the file
    QByteArray source;                       // the document's bytes as read
};

} // namespace arizuko::manifest
