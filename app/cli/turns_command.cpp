// arizukoctl turns: the turns in the store with the time each phase took,
// or one turn's events.

#include "commands.h"
#include "subcommands.h"
#include "terminal_text.h"
#include "turn_records/turn_records.h"

#include <QCommandLineParser>
#include <QDateTime>

namespace arizuko::cli {
namespace {

// Milliseconds between two stored timestamps, or -1 when a phase was not reached.
qint64 between(const QString &from, const QString &to)
{
    if (from.isEmpty() || to.isEmpty())
        return -1;
    return QDateTime::fromString(from, Qt::ISODateWithMs)
        .msecsTo(QDateTime::fromString(to, Qt::ISODateWithMs));
}

// How long each phase lasted: a phase ends where the next reached one starts.
QJsonObject phaseTimings(const turns::TurnRecord &turn)
{
    const QList<std::pair<QString, QString>> starts = {
        {QStringLiteral("queued"), turn.queuedAt},
        {QStringLiteral("preparing"), turn.preparingAt},
        {QStringLiteral("booting"), turn.bootingAt},
        {QStringLiteral("running"), turn.runningAt},
        {QStringLiteral("finishing"), turn.finishingAt},
        {QStringLiteral("ended"), turn.endedAt},
    };
    QJsonObject timings;
    for (qsizetype index = 0; index + 1 < starts.size(); ++index) {
        if (starts[index].second.isEmpty())
            continue;
        for (qsizetype next = index + 1; next < starts.size(); ++next) {
            if (!starts[next].second.isEmpty()) {
                timings.insert(starts[index].first,
                               between(starts[index].second, starts[next].second));
                break;
            }
        }
    }
    return timings;
}

QString milliseconds(const QJsonObject &timings, const char *phase)
{
    const QJsonValue value = timings.value(QLatin1String(phase));
    return value.isUndefined() ? QStringLiteral("-") : QString::number(value.toInteger());
}

Exit listEvents(Context &context, turns::TurnRecords &records, const QString &reference)
{
    const auto turn = records.find(reference);
    if (!turn)
        return context.failure(turn.error());
    const auto events = records.events(turn->id);
    if (!events)
        return context.failure(events.error());
    context.printList(
        *events,
        {QStringLiteral("SEQ"), QStringLiteral("AT"), QStringLiteral("KIND"),
         QStringLiteral("JSON")},
        [](const turns::TurnEventRecord &event) {
            return QJsonObject{{QStringLiteral("seq"), event.seq},
                               {QStringLiteral("kind"), event.kind},
                               {QStringLiteral("at"), event.at},
                               {QStringLiteral("json"), event.json}};
        },
        [](const turns::TurnEventRecord &event) {
            return QStringList{QString::number(event.seq), event.at, event.kind,
                               inertJsonLine(event.json)};
        });
    return Exit::Ok;
}

} // namespace

Exit runTurns(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption limitOption(QStringLiteral("limit"),
                                         QStringLiteral("At most N turns (default 50)."),
                                         QStringLiteral("N"), QStringLiteral("50"));
    const QCommandLineOption eventsOption(QStringLiteral("events"),
                                          QStringLiteral("Show the events of one turn."),
                                          QStringLiteral("TURN"));
    parser.addOptions({limitOption, eventsOption});
    if (const auto stop =
            context.parse(parser,
                          {QStringLiteral("turns"),
                           QStringLiteral("List turns with the milliseconds each phase took.")},
                          arguments))
        return *stop;
    bool numeric = false;
    const int limit = parser.value(limitOption).toInt(&numeric);
    if (!numeric || limit <= 0)
        return context.usageError(QStringLiteral("turns: --limit '%1' is not a positive number")
                                      .arg(parser.value(limitOption)));

    return withStore(context, [&](store::Store &store) {
        turns::TurnRecords records(store);
        if (parser.isSet(eventsOption))
            return listEvents(context, records, parser.value(eventsOption));

        const auto list = records.list(limit);
        if (!list)
            return context.failure(list.error());
        context.printList(
            *list,
            {QStringLiteral("TURN"), QStringLiteral("STATE"), QStringLiteral("FOLDER"),
             QStringLiteral("TOPIC"), QStringLiteral("AGENT"), QStringLiteral("PREPARE_MS"),
             QStringLiteral("BOOT_MS"), QStringLiteral("RUN_MS"), QStringLiteral("TEARDOWN_MS"),
             QStringLiteral("EXIT"), QStringLiteral("ERROR")},
            [](const turns::TurnRecord &turn) {
                QJsonObject object = turn.toJson();
                object.insert(QStringLiteral("phase_ms"), phaseTimings(turn));
                return object;
            },
            [](const turns::TurnRecord &turn) {
                const QJsonObject timings = phaseTimings(turn);
                return QStringList{turn.name,
                                   turns::turnStateName(turn.state),
                                   turn.folder,
                                   turn.topic,
                                   turn.agent,
                                   milliseconds(timings, "preparing"),
                                   milliseconds(timings, "booting"),
                                   milliseconds(timings, "running"),
                                   milliseconds(timings, "finishing"),
                                   turn.exitCode ? QString::number(*turn.exitCode)
                                                 : QStringLiteral("-"),
                                   turn.error};
            });
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
