#include "export/script_writer.h"

#include "export/server_names.h"
#include "export/shell_words.h"

using namespace Qt::StringLiterals;

namespace arizuko::manifest {
namespace {

class Script
{
public:
    void comment(const QString &text) { m_lines.append(u"# "_s + commentSafe(text)); }
    void blank() { m_lines.append(QString()); }
    void raw(const QString &line) { m_lines.append(line); }

    // `arizuko <group> "$INST" <words...>`. arizuko reads flags anywhere
    // among the positionals, so a value starting with '-' would be taken as
    // a flag: such a command is written as a comment instead.
    void command(const QString &group, const QStringList &values, const QStringList &flags = {})
    {
        QStringList words = {u"arizuko"_s, group, u"\"$INST\""_s};
        for (const QString &value : values) {
            if (value.startsWith(u'-')) {
                comment(u"not run: '%1' starts with '-' and arizuko would read it as a flag: "
                        u"arizuko %2 %3"_s.arg(value, group, values.join(u' ')));
                return;
            }
            words.append(value.startsWith(u"\"$"_s) ? value : shellQuote(value));
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
    const ResourceSpec &spec = *findResource(u"groups"_s);
    script.comment(u"groups: `group add` needs a chat JID and also adds a route for it; this "
                   u"script uses \"$JID_PREFIX:<folder>\". It does not add the folder's "
                   u"role:member membership (see acl_membership below)."_s);
    for (const Row &row : rowsOf(projection, spec.name)) {
        const QString folder = row.text(spec, u"folder"_s);
        script.command(u"group"_s,
                       {u"add"_s, u"\"$JID_PREFIX\""_s + shellQuote(u':' + folder), folder});
        if (!row.text(spec, u"config"_s).isEmpty())
            script.comment(
                u"no CLI for groups.config of %1: %2"_s.arg(folder, row.text(spec, u"config"_s)));
    }
}

void writeRules(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(u"network_rules"_s);
    for (const Row &row : rowsOf(projection, spec.name))
        script.command(u"network"_s,
                       {u"allow"_s, row.text(spec, u"folder"_s), row.text(spec, u"target"_s)});
}

void writeRoutes(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(u"routes"_s);
    for (const Row &row : rowsOf(projection, spec.name))
        script.command(u"route"_s,
                       {u"add"_s, row.text(spec, u"match"_s), row.text(spec, u"target"_s)},
                       {u"--seq"_s, row.text(spec, u"seq"_s)});
}

void writeGrants(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(u"acl"_s);
    for (const Row &row : rowsOf(projection, spec.name)) {
        const auto text = [&](const char *field) {
            return row.text(spec, QString::fromLatin1(field));
        };
        if (text("granted_by") == u"system:seed")
            continue; // the server seeds these itself
        if (text("effect") != u"allow" || !text("params").isEmpty()) {
            script.comment(u"no CLI for this grant (deny or params): %1 %2 %3 %4 params=%5"_s.arg(
                text("effect"), text("principal"), text("action"), text("scope"), text("params")));
            continue;
        }
        script.command(u"group"_s, {u"grant"_s, text("principal"), text("scope"), text("action")});
    }
}

void writeMemberships(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(u"acl_membership"_s);
    for (const Row &row : rowsOf(projection, spec.name))
        script.comment(u"no CLI for memberships: %1 -> %2"_s.arg(row.text(spec, u"child"_s),
                                                                 row.text(spec, u"parent"_s)));
}

void writeSecrets(Script &script, const Projection &projection)
{
    const ResourceSpec &spec = *findResource(u"secrets"_s);
    for (const Row &row : rowsOf(projection, spec.name))
        script.comment(u"secret %1 of folder %2: values are never exported; set it with "
                       u"arizuko secret \"$INST\" set <folder> %1 --value ..."_s.arg(
                           row.text(spec, u"key"_s), row.text(spec, u"scope_id"_s)));
}

} // namespace

QByteArray scriptText(const Projection &projection)
{
    Script script;
    script.raw(u"#!/bin/sh"_s);
    script.comment(
        u"Arizuko Desktop export: arizuko CLI commands. Usage: sh <this file> <instance>"_s);
    script.raw(u"set -eu"_s);
    script.raw(u"INST=\"${1:?usage: sh $0 <instance>}\""_s);
    script.raw(u"JID_PREFIX=\"${JID_PREFIX:-desktop}\""_s);
    for (const QString &warning : projection.warnings)
        script.comment(u"warning: "_s + warning);
    for (const LeftOut &row : projection.leftOut)
        script.comment(u"left out: %1 %2: %3"_s.arg(row.resource, row.row, row.reason));
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
