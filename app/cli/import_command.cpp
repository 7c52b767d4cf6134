// arizukoctl import: an arizuko manifest into the store, plan first. Nothing
// is written until the plan is confirmed (a prompt on a terminal, or --yes).

#include "commands.h"
#include "core/actors.h"
#include "export/import_plan.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <unistd.h>

namespace arizuko::cli {
namespace {

// The reader refuses larger documents anyway; this stops reading early.
constexpr qint64 maxFileBytes = 4 * 1024 * 1024;

QString kindSign(manifest::PlannedRow::Kind kind)
{
    switch (kind) {
    case manifest::PlannedRow::Kind::Add:
        return QStringLiteral("+");
    case manifest::PlannedRow::Kind::Change:
        return QStringLiteral("~");
    case manifest::PlannedRow::Kind::Remove:
        return QStringLiteral("-");
    }
    return {};
}

void printPlan(Context &context, const manifest::ImportPlan &plan)
{
    if (context.json()) {
        QJsonArray rows, ignored, notes;
        for (const manifest::PlannedRow &row : plan.rows)
            rows.append(QJsonObject{{QStringLiteral("change"), kindSign(row.kind)},
                                    {QStringLiteral("resource"), row.resource},
                                    {QStringLiteral("key"), row.key}});
        for (const QString &line : plan.ignored)
            ignored.append(line);
        for (const QString &line : plan.notes)
            notes.append(line);
        context.printJson(QJsonObject{{QStringLiteral("rows"), rows},
                                      {QStringLiteral("ignored"), ignored},
                                      {QStringLiteral("notes"), notes}});
        return;
    }
    for (const QString &note : plan.notes)
        context.out() << note << "\n";
    QString resource;
    for (const manifest::PlannedRow &row : plan.rows) {
        if (row.resource != resource)
            context.out() << row.resource << ":\n";
        resource = row.resource;
        context.out() << "  " << kindSign(row.kind) << " " << row.key << "\n";
    }
    if (plan.changesNothing())
        context.out() << "no changes\n";
    for (const QString &line : plan.ignored)
        context.out() << "ignored: " << line << "\n";
    context.out().flush();
}

} // namespace

Exit runImport(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("import");
    QCommandLineParser parser;
    const QCommandLineOption planOnly(QStringLiteral("plan"),
                                      QStringLiteral("Show the plan and stop."));
    const QCommandLineOption yes(QStringLiteral("yes"), QStringLiteral("Apply without asking."));
    parser.addOptions({planOnly, yes});
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Import an arizuko manifest (a server's export or ours). Shows the plan: rows\n"
                 "added (+), changed (~) and removed (-), scoped like arizuko's apply. Applies it\n"
                 "in one transaction only after confirmation or --yes."),
             {{QStringLiteral("file"), QStringLiteral("The manifest.")}}},
            arguments))
        return *stop;
    const QString path = parser.positionalArguments().first();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return context.failure(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray manifest = file.read(maxFileBytes + 1);
    if (manifest.size() > maxFileBytes)
        return context.failure(QStringLiteral("%1 is larger than %2 bytes; refused")
                                   .arg(path, QString::number(maxFileBytes)));

    return withStore(context, [&](store::Store &store) {
        const Result<manifest::ImportPlan> plan = manifest::planImport(store, manifest);
        if (!plan)
            return context.failure(QStringLiteral("%1: %2").arg(path, plan.error().message));
        if (parser.isSet(planOnly) || plan->changesNothing()) {
            printPlan(context, *plan);
            return Exit::Ok;
        }
        if (!parser.isSet(yes)) {
            printPlan(context, *plan);
            if (!confirmed(context, QStringLiteral("Apply these changes?")))
                return context.failure(
                    QStringLiteral("not applied: confirm on a terminal or pass --yes"));
        }
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(store, manifest, actors::cli);
        if (!applied)
            return context.failure(QStringLiteral("%1: %2").arg(path, applied.error().message));
        if (parser.isSet(yes))
            printPlan(context, *applied);
        if (!context.json())
            context.out() << "applied " << applied->rows.size() << " change(s)\n";
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
