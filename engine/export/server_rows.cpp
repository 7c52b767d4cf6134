#include "export/server_rows.h"

#include "export/server_names.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace arizuko::manifest {
namespace {

Row build(const QString &resource, std::initializer_list<std::pair<QString, QString>> fields)
{
    const ResourceSpec &spec = *findResource(resource);
    Row row = emptyRow(spec);
    for (const auto &[name, value] : fields)
        row.set(spec, name, value);
    return row;
}

} // namespace

QString serverConfig(const QString &json)
{
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    if (object.isEmpty())
        return {};
    QString text = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    text.replace(u'<', QStringLiteral("\\u003c"))
        .replace(u'>', QStringLiteral("\\u003e"))
        .replace(u'&', QStringLiteral("\\u0026"));
    return text;
}

Row serverGroupRow(const QString &folder, const QString &createdAt, const QString &configJson)
{
    return build(QStringLiteral("groups"),
                 {{QStringLiteral("folder"), folder},
                  {QStringLiteral("added_at"), createdAt},
                  {QStringLiteral("product"), QStringLiteral("assistant")},
                  {QStringLiteral("config"), serverConfig(configJson)}});
}

Row serverRuleRow(const QString &folder, const QString &target, const QString &createdAt,
                  const QString &createdBy)
{
    return build(QStringLiteral("network_rules"), {{QStringLiteral("folder"), folder},
                                                   {QStringLiteral("target"), target},
                                                   {QStringLiteral("created_at"), createdAt},
                                                   {QStringLiteral("created_by"), createdBy}});
}

Row serverRouteRow(qint64 seq, const QString &match, const QString &target)
{
    return build(QStringLiteral("routes"), {{QStringLiteral("seq"), QString::number(seq)},
                                            {QStringLiteral("match"), match},
                                            {QStringLiteral("target"), target}});
}

Row serverGrantRow(const QString &principal, const QString &action, const QString &scope,
                   const QString &effect, const policy::GrantParams &params,
                   const QString &grantedBy, const QString &grantedAt)
{
    return build(QStringLiteral("acl"), {{QStringLiteral("principal"), serverPrincipal(principal)},
                                         {QStringLiteral("action"), action},
                                         {QStringLiteral("scope"), scope},
                                         {QStringLiteral("effect"), effect},
                                         {QStringLiteral("params"), serverParams(params)},
                                         {QStringLiteral("granted_by"), grantedBy},
                                         {QStringLiteral("granted_at"), grantedAt}});
}

Row serverMembershipRow(const QString &child, const QString &parent, const QString &addedAt)
{
    return build(QStringLiteral("acl_membership"),
                 {{QStringLiteral("child"), serverPrincipal(child)},
                  {QStringLiteral("parent"), serverPrincipal(parent)},
                  {QStringLiteral("added_at"), addedAt}});
}

} // namespace arizuko::manifest
