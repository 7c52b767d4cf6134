// arizukoctl audit: the newest audit log entries, oldest first.

#include "audit/audit_log.h"
#include "commands.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

namespace arizuko::cli {

Exit runAudit(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption kind(
        QStringLiteral("kind"),
        QStringLiteral("Only this kind and its sub-kinds (secret, grant.add)."),
        QStringLiteral("kind"));
    const QCommandLineOption subject(QStringLiteral("subject"),
                                     QStringLiteral("Only entries about this subject."),
                                     QStringLiteral("subject"));
    const QCommandLineOption after(QStringLiteral("after"),
                                   QStringLiteral("Only entries after this id."),
                                   QStringLiteral("id"));
    const QCommandLineOption limit(QStringLiteral("limit"),
                                   QStringLiteral("At most this many, the newest (default 100)."),
                                   QStringLiteral("n"), QStringLiteral("100"));
    const QCommandLineOption since(
        QStringLiteral("since"),
        QStringLiteral("Only entries at or after this UTC time (2026-12-01T16:00:00.000Z)."),
        QStringLiteral("time"));
    parser.addOptions({kind, subject, after, limit, since});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("audit"),
             QStringLiteral("Show the audit log: grant decisions, rule/grant/secret changes, "
                            "folder and topic\n"
                            "changes, turn lifecycle events. Secret values are never in it.")},
            arguments))
        return *stop;
    bool limitOk = false;
    const int limitValue = parser.value(limit).toInt(&limitOk);
    if (!limitOk || limitValue < 1)
        return context.usageError(QStringLiteral("audit: --limit '%1' is not a positive number")
                                      .arg(parser.value(limit)));
    bool afterOk = true;
    const qint64 afterValue = parser.isSet(after) ? parser.value(after).toLongLong(&afterOk) : 0;
    if (!afterOk || afterValue < 0)
        return context.usageError(
            QStringLiteral("audit: --after '%1' is not an entry id").arg(parser.value(after)));

    return withStore(context, [&](store::Store &store) {
        const Result<QList<audit::Entry>> entries =
            audit::AuditLog(store).query({parser.value(kind), parser.value(subject), afterValue,
                                          limitValue, parser.value(since)});
        if (!entries)
            return context.failure(entries.error());
        context.printList(
            *entries,
            {QStringLiteral("ID"), QStringLiteral("AT"), QStringLiteral("ACTOR"),
             QStringLiteral("KIND"), QStringLiteral("SUBJECT"), QStringLiteral("DETAIL")},
            [](const audit::Entry &entry) {
                return QJsonObject{{QStringLiteral("id"), entry.id},
                                   {QStringLiteral("at"), entry.at},
                                   {QStringLiteral("actor"), entry.actor},
                                   {QStringLiteral("kind"), entry.kind},
                                   {QStringLiteral("subject"), entry.subject},
                                   {QStringLiteral("detail"), entry.detail}};
            },
            [](const audit::Entry &entry) {
                return QStringList{
                    QString::number(entry.id),
                    entry.at,
                    entry.actor,
                    entry.kind,
                    entry.subject,
                    QString::fromUtf8(QJsonDocument(entry.detail).toJson(QJsonDocument::Compact))};
            });
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
