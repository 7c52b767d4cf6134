#pragma once

// The part of JSON Schema docs/egress-ledger.schema.json uses (type, const,
// enum, required, properties, additionalProperties: false, minimum,
// maximum), checked on one value: what the ledger's JSON Lines must meet.
// Returns what is wrong, empty when nothing is.

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

inline bool jsonHasType(const QJsonValue &value, const QString &type)
{
    if (type == QLatin1String("string"))
        return value.isString();
    if (type == QLatin1String("integer"))
        return value.isDouble() && value.toDouble() == double(value.toInteger());
    if (type == QLatin1String("number"))
        return value.isDouble();
    if (type == QLatin1String("boolean"))
        return value.isBool();
    if (type == QLatin1String("object"))
        return value.isObject();
    if (type == QLatin1String("array"))
        return value.isArray();
    if (type == QLatin1String("null"))
        return value.isNull();
    return false;
}

inline QStringList schemaViolations(const QJsonValue &value, const QJsonObject &schema,
                                    const QString &at = QStringLiteral("$"))
{
    QStringList wrong;
    if (schema.contains(QLatin1String("type"))) {
        const QJsonValue type = schema.value(QLatin1String("type"));
        QStringList types;
        if (type.isArray())
            for (const QJsonValue &one : type.toArray())
                types << one.toString();
        else
            types << type.toString();
        bool any = false;
        for (const QString &one : types)
            any = any || jsonHasType(value, one);
        if (!any)
            return {QStringLiteral("%1: not of type %2").arg(at, types.join(QLatin1Char('|')))};
    }
    if (schema.contains(QLatin1String("const")) && value != schema.value(QLatin1String("const")))
        wrong << QStringLiteral("%1: not the constant").arg(at);
    if (schema.contains(QLatin1String("enum")) &&
        !schema.value(QLatin1String("enum")).toArray().contains(value))
        wrong << QStringLiteral("%1: not one of the enum").arg(at);
    if (value.isDouble() && schema.contains(QLatin1String("minimum")) &&
        value.toDouble() < schema.value(QLatin1String("minimum")).toDouble())
        wrong << QStringLiteral("%1: below the minimum").arg(at);
    if (value.isDouble() && schema.contains(QLatin1String("maximum")) &&
        value.toDouble() > schema.value(QLatin1String("maximum")).toDouble())
        wrong << QStringLiteral("%1: above the maximum").arg(at);
    if (!value.isObject())
        return wrong;
    const QJsonObject object = value.toObject();
    const QJsonObject properties = schema.value(QLatin1String("properties")).toObject();
    for (const QJsonValue &required : schema.value(QLatin1String("required")).toArray())
        if (!object.contains(required.toString()))
            wrong << QStringLiteral("%1: no '%2'").arg(at, required.toString());
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString where = at + QLatin1Char('.') + it.key();
        if (properties.contains(it.key()))
            wrong << schemaViolations(it.value(), properties.value(it.key()).toObject(), where);
        else if (schema.value(QLatin1String("additionalProperties")) == QJsonValue(false))
            wrong << QStringLiteral("%1: not in the schema").arg(where);
    }
    return wrong;
}
