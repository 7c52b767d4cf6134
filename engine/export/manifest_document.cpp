#include "export/manifest_document.h"

namespace arizuko::manifest {

bool FieldValue::isZero(FieldType type) const
{
    switch (type) {
    case FieldType::String:
        return scalar.isEmpty();
    case FieldType::Int:
        return scalar.isEmpty() || scalar == u"0";
    case FieldType::Bool:
        return scalar.isEmpty() || scalar == u"false";
    case FieldType::StringList:
        return list.isEmpty();
    case FieldType::StringMap:
    case FieldType::StringListMap:
        return map.isEmpty();
    }
    return true;
}

const QString &Row::text(const ResourceSpec &spec, const QString &field) const
{
    return values.at(spec.fieldIndex(field)).scalar;
}

void Row::set(const ResourceSpec &spec, const QString &field, const QString &value)
{
    values[spec.fieldIndex(field)].scalar = value;
}

QByteArray Row::sortKey(const ResourceSpec &spec) const
{
    QByteArray key;
    const auto append = [&](qsizetype index) {
        const FieldSpec &field = spec.fields.at(index);
        const FieldValue &value = values.at(index);
        if (field.type == FieldType::Int || field.type == FieldType::Bool)
            key += value.isZero(field.type)
                       ? QByteArray(field.type == FieldType::Int ? "0" : "false")
                       : value.scalar.toUtf8();
        else
            key += value.scalar.toUtf8();
        key += '|';
    };
    if (spec.primaryKey.isEmpty()) {
        for (qsizetype i = 0; i < spec.fields.size(); ++i)
            append(i);
    } else {
        for (const QString &name : spec.primaryKey)
            append(spec.fieldIndex(name));
    }
    return key;
}

Row emptyRow(const ResourceSpec &spec)
{
    Row row;
    row.values.resize(spec.fields.size());
    return row;
}

} // namespace arizuko::manifest
