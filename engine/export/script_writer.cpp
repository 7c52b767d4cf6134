#include "export/script_writer.h"

#include "core/actors.h"
#include "export/server_names.h"
#include "export/shell_words.h"

namespace arizuko::manifest {
namespace {

class Script
{
public:
    void comment(const QString &text) { m_lines.append(QStringLiteral("# ") + commentSafe(text)); }
    void blank() { m_lines.append(QString()); }
    void raw(const QString &line) { m_lines.append(line); }

    // `arizuko <group> "$INST" <words...>`. arizuko reads flags anywhere
    // among the positionals, so a value starting with '-' would be taken as
    // a flag: such a command is written as a comment instead.
    void command(const QString &group, const QStringList &values, const QStringList &flags = {})
    {
        QStringList words = {QStringLiteral("arizuko"), group, QStringLiteral("\"$INST\"")};
        for (const QString &value : values) {
            if (value.startsWith(u'-')) {
                comment(QStringLiteral(
                            "not run: '%1' starts with '-' and arizuko would read it as a flag: "
                            "arizuko %2 %3")
                            .arg(value, group, values.join(u' ')));
                return;
            }
            words.append(value.startsWith(QStringLiteral("\"$")) ? value : shellQuote(value));
        }
        m_lines.append((words + flags).join(u' '));
    }

    QByteArray text() const { return (m_lines.join(u'\n') + u'\n').toUtf8(); }

private:
    QStringList m_lines;
};

const QList<Row> &rowsOf(const Projection &projection, const QString &resource)
{
    static const QList<Row> none;
    const auto found = projection.document.resources.find(resource);
    return found == projection.document.resources.end() ? none : found->second;
}

void writeGroups(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("groups"));
    script.comment(
        QStringLiteral("groups: `group add` needs a chat JID and also adds a route for it; this "
                       "script uses \"$JID_PREFIX:<folder>\". It does not add the folder's "
                       "role:member membership (see acl_membership below)."));
    for (const Row &row : rowsOf(projection, spec.name)) {
        const QString folder = row.text(spec, QStringLiteral("folder"));
        script.command(QStringLiteral("group"),
                       {QStringLiteral("add"),
                        QStringLiteral("\"$JID_PREFIX\"") + shellQuote(u':' + folder), folder});
        if (!row.text(spec, QStringLiteral("config")).isEmpty())
            script.comment(QStringLiteral("no CLI for groups.config of %1: %2")
                               .arg(folder, row.text(spec, QStringLiteral("config"))));
    }
}

void writeRules(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("network_rules"));
    for (const Row &row : rowsOf(projection, spec.name))
        script.command(QStringLiteral("network"),
                       {QStringLiteral("allow"), row.text(spec, QStringLiteral("folder")),
                        row.text(spec, QStringLiteral("target"))});
}

void writeRoutes(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("routes"));
    for (const Row &row : rowsOf(projection, spec.name))
        script.command(QStringLiteral("route"),
                       {QStringLiteral("add"), row.text(spec, QStringLiteral("match")),
                        row.text(spec, QStringLiteral("target"))},
                       {QStringLiteral("--seq"), row.text(spec, QStringLiteral("seq"))});
}

void writeGrants(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("acl"));
    for (const Row &row : rowsOf(projection, spec.name)) {
        const auto text = [&](const char *field) {
            return row.text(spec, QString::fromLatin1(field));
        };
        if (text("granted_by") == actors::seed)
            continue; // the server seeds these itself
        if (text("effect") != u"allow" || !text("params").isEmpty()) {
            script.comment(
                QStringLiteral("no CLI for this grant (deny or params): %1 %2 %3 %4 params=%5")
                    .arg(text("effect"), text("principal"), text("action"), text("scope"),
                         text("params")));
            continue;
        }
        script.command(QStringLiteral("group"),
                       {QStringLiteral("grant"), text("principal"), text("scope"), text("action")});
    }
}

void writeMemberships(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("acl_membership"));
    for (const Row &row : rowsOf(projection, spec.name))
        script.comment(QStringLiteral("no CLI for memberships: %1 -> %2")
                           .arg(row.text(spec, QStringLiteral("child")),
                                row.text(spec, QStringLiteral("parent"))));
}

void writeSecrets(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(QStringLiteral("secrets"));
    for (const Row &row : rowsOf(projection, spec.name))
        script.comment(
            QStringLiteral("secret %1 of folder %2: values are never exported; set it with "
                           "arizuko secret \"$INST\" set <folder> %1 --value ...")
                .arg(row.text(spec, QStringLiteral("key")),
                     row.text(spec, QStringLiteral("scope_id"))));
}

} // namespace

QByteArray scriptText(const Projection &projection)
{
    Script script;
    script.raw(QStringLiteral("#!/bin/sh"));
    script.comment(QStringLiteral(
        "Arizuko Desktop export: arizuko CLI commands. Usage: sh <this file> <instance>"));
    script.raw(QStringLiteral("set -eu"));
    script.raw(QStringLiteral("INST=\"${1:?usage: sh $0 <instance>}\""));
    script.raw(QStringLiteral("JID_PREFIX=\"${JID_PREFIX:-desktop}\""));
    for (const QString &warning : projection.warnings)
        script.comment(QStringLiteral("warning: ") + warning);
    for (const LeftOut &row : projection.leftOut)
        script.comment(
            QStringLiteral("left out: %1 %2: %3").arg(row.resource, row.row, row.reason));
    script.blank();
    writeGroups(script, projection);
    writeRules(script, projection);
    writeRoutes(script, projection);
    writeGrants(script, projection);
    writeMemberships(script, projection);
    writeSecrets(script, projection);
    return script.text();
}

} // namespace arizuko::manifest
