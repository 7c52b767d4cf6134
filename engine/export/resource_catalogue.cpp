#include "export/resource_catalogue.h"

namespace arizuko::manifest {
namespace {

FieldSpec req(const char *name, FieldType type = FieldType::String)
{
    return {QString::fromLatin1(name), type, true, false};
}

FieldSpec opt(const char *name, FieldType type = FieldType::String)
{
    return {QString::fromLatin1(name), type, false, false};
}

FieldSpec stamp(const char *name)
{
    return {QString::fromLatin1(name), FieldType::String, false, true};
}

QStringList keys(std::initializer_list<const char *> names)
{
    QStringList list;
    for (const char *name : names)
        list.append(QString::fromLatin1(name));
    return list;
}

QList<ResourceSpec> build()
{
    using T = FieldType;
    const QString routd = QStringLiteral("routd"), onbod = QStringLiteral("onbod");
    return {
        {QStringLiteral("acl"),
         routd,
         {req("principal"), req("action"), req("scope"), req("effect"), req("params"),
          req("predicate"), opt("granted_by"), stamp("granted_at")},
         keys({"principal", "action", "scope", "params", "predicate", "effect"}),
         {},
         false},
        {QStringLiteral("acl_membership"),
         routd,
         {req("child"), req("parent"), opt("added_by"), stamp("added_at")},
         keys({"child", "parent"}),
         {},
         false},
        {QStringLiteral("groups"),
         routd,
         {req("folder"), stamp("added_at"), opt("container_config"), req("product"), opt("config"),
          stamp("updated_at"), opt("cost_cap_cents_per_day", T::Int)},
         keys({"folder"}),
         QStringLiteral("folder"),
         false},
        {QStringLiteral("installed_packages"),
         routd,
         {req("folder"), req("name"), req("source"), req("revision"), req("installed_at"),
          opt("manifest", T::StringListMap), opt("asset_hashes", T::StringMap)},
         keys({"folder", "name"}),
         {},
         true},
        {QStringLiteral("network_rules"),
         routd,
         {req("folder"), req("target"), stamp("created_at"), opt("created_by")},
         keys({"folder", "target"}),
         QStringLiteral("folder"),
         false},
        {QStringLiteral("pending_actions"),
         routd,
         {req("id"), req("group_folder"), opt("caller_agent"), req("tool"), opt("args"),
          opt("args_final"), opt("args_hash"), req("status"), opt("chat_jid"), opt("created_at"),
          opt("reviewed_by"), opt("reviewed_at"), opt("reviewer_note"), opt("result"), opt("error"),
          opt("expires_at")},
         keys({"id"}),
         QStringLiteral("group_folder"),
         false},
        {QStringLiteral("proxyd_routes"),
         routd,
         {req("path"), req("backend"), req("auth"), opt("gated_by"), opt("redirect_to"),
          opt("preserve_headers", T::StringList), opt("strip_prefix", T::Bool)},
         keys({"path"}),
         {},
         false},
        {QStringLiteral("route_tokens"),
         routd,
         {req("jid"), req("owner_folder"), stamp("created_at"), opt("context")},
         keys({"jid"}),
         {},
         true},
        {QStringLiteral("routes"),
         routd,
         {req("seq", T::Int), req("match"), req("target"), opt("observe_window_messages", T::Int),
          opt("observe_window_chars", T::Int)},
         keys({"seq", "match", "target"}),
         {},
         false},
        {QStringLiteral("scheduled_tasks"),
         routd,
         {req("id"), req("owner"), req("chat_jid"), req("prompt"), opt("cron"), opt("next_run"),
          opt("status"), stamp("created_at"), opt("context_mode")},
         keys({"id"}),
         {},
         false},
        {QStringLiteral("secrets"),
         routd,
         {req("scope_kind"), req("scope_id"), req("key"), stamp("created_at")},
         keys({"scope_kind", "scope_id", "key"}),
         {},
         true},
        {QStringLiteral("web_routes"),
         routd,
         {req("path_prefix"), req("access"), opt("redirect_to"), req("folder"),
          stamp("created_at")},
         keys({"path_prefix"}),
         QStringLiteral("folder"),
         false},
        {QStringLiteral("invites"),
         onbod,
         {req("target_glob"), req("issued_by_sub"), req("issued_at"), opt("expires_at"),
          req("max_uses", T::Int), req("used_count", T::Int)},
         {},
         {},
         true},
        {QStringLiteral("onboarding"),
         onbod,
         {req("jid"), req("status"), opt("user_sub"), opt("gate"), req("created"),
          opt("prompted_at"), opt("queued_at"), opt("admitted_at")},
         keys({"jid"}),
         {},
         true},
        {QStringLiteral("onboarding_gates"),
         onbod,
         {req("gate"), req("limit_per_day", T::Int), req("enabled", T::Int)},
         keys({"gate"}),
         {},
         false},
    };
}

} // namespace

qsizetype ResourceSpec::fieldIndex(const QString &field) const
{
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields.at(i).name == field)
            return i;
    return -1;
}

const QList<ResourceSpec> &catalogue()
{
    static const QList<ResourceSpec> resources = build();
    return resources;
}

const ResourceSpec *findResource(const QString &name)
{
    for (const ResourceSpec &spec : catalogue())
        if (spec.name == name)
            return &spec;
    return nullptr;
}

const QStringList &desktopResources()
{
    static const QStringList names = {QStringLiteral("acl"),    QStringLiteral("acl_membership"),
                                      QStringLiteral("groups"), QStringLiteral("network_rules"),
                                      QStringLiteral("routes"), QStringLiteral("secrets")};
    return names;
}

} // namespace arizuko::manifest
