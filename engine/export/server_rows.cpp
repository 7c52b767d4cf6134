#include "export/server_rows.h"

#include "export/server_names.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

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
    text.replace(u'<', u"\\u003c"_s).replace(u'>', u"\\u003e"_s).replace(u'&', u"\\u0026"_s);
    return text;
}

Row serverGroupRow(const QString &folder, const QString &createdAt, const QString &configJson)
{
    return build(u"groups"_s, {{u"folder"_s, folder},
                               {u"added_at"_s, createdAt},
                               {u"product"_s, u"assistant"_s},
                               {u"config"_s, serverConfig(configJson)}});
}

Row serverRuleRow(const QString &folder, const QString &target, const QString &createdAt,
                  const QString &createdBy)
{
    return build(u"network_rules"_s, {{u"folder"_s, folder},
                                      {u"target"_s, target},
                                      {u"created_at"_s, createdAt},
                                      {u"created_by"_s, createdBy}});
}

Row serverRouteRow(qint64 seq, const QString &match, const QString &target)
{
    return build(u"routes"_s,
                 {{u"seq"_s, QString::number(seq)}, {u"match"_s, match}, {u"target"_s, target}});
}

Row serverGrantRow(const QString &principal, const QString &action, const QString &scope,
                   const QString &effect, const policy::GrantParams &params,
                   const QString &grantedBy, const QString &grantedAt)
{
    return build(u"acl"_s, {{u"principal"_s, serverPrincipal(principal)},
                            {u"action"_s, action},
                            {u"scope"_s, scope},
                            {u"effect"_s, effect},
                            {u"params"_s, serverParams(params)},
                            {u"granted_by"_s, grantedBy},
                            {u"granted_at"_s, grantedAt}});
}

Row serverMembershipRow(const QString &child, const QString &parent, const QString &addedAt)
{
    return build(u"acl_membership"_s, {{u"child"_s, serverPrincipal(child)},
                                       {u"parent"_s, serverPrincipal(parent)},
                                       {u"added_at"_s, addedAt}});
}

} // namespace arizuko::manifest
