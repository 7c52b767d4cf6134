// arizukoctl network log|retention: the egress ledger (docs/egress.md,
// "Egress ledger"), every request the turns' proxies, model gateways and
// connectors decided, as a table, JSON Lines or OCSF events; and how long
// each folder keeps it.

#include "commands.h"
#include "core/actors.h"
#include "folders/folders.h"
#include "ledger/ledger.h"
#include "ledger/ledger_export.h"
#include "ledger/ledger_format.h"
#include "subcommands.h"
#include "terminal_text.h"
#include "turn_records/turn_records.h"

#include <QCommandLineParser>
#include <QThread>
#include <algorithm>

namespace arizuko::cli {
namespace {

constexpr int followIntervalMs = 500;

class LedgerPrinter
{
public:
    LedgerPrinter(Context &context, ledger::LedgerFormat format)
        : m_context(context)
        , m_format(format)
    {}

    // Oldest first.
    void print(const QList<ledger::LedgerEntry> &entries)
    {
        if (m_format == ledger::LedgerFormat::Table) {
            QList<QStringList> rows;
            for (const ledger::LedgerEntry &entry : entries)
                rows << ledger::ledgerTableRow(entry);
            // A followed ledger prints its heading once.
            if (!rows.isEmpty() || !m_headed)
                m_context.printTable(m_headed ? QStringList() : ledger::ledgerTableHeaders(), rows);
            m_headed = true;
            return;
        }
        // The lines the window's Export… writes (ledger/ledger_export.h).
        for (const ledger::LedgerEntry &entry : entries)
            m_context.out() << ledger::ledgerLine(entry, m_format);
        m_context.out().flush();
    }

private:
    Context &m_context;
    ledger::LedgerFormat m_format;
    bool m_headed = false;
};

} // namespace

Exit runNetworkLog(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption folder(QStringLiteral("folder"),
                                    QStringLiteral("Only this folder's turns ('' the base)."),
                                    QStringLiteral("folder"));
    const QCommandLineOption turn(QStringLiteral("turn"),
                                  QStringLiteral("Only this turn (id, id prefix or az-name)."),
                                  QStringLiteral("id"));
    const QCommandLineOption since(
        QStringLiteral("since"),
        QStringLiteral("Only requests at or after this time: ISO-8601 (UTC unless it names a "
                       "zone) or an age (90s, 15m, 2h, 7d)."),
        QStringLiteral("time"));
    const QCommandLineOption decision(QStringLiteral("decision"),
                                      QStringLiteral("Only allowed or only denied requests."),
                                      QStringLiteral("allow|deny"));
    const QCommandLineOption format(
        QStringLiteral("format"),
        QStringLiteral("table (default), jsonl (schema arizuko.egress-ledger/1) or ocsf (OCSF "
                       "events, one a line); --json means jsonl."),
        QStringLiteral("format"));
    const QCommandLineOption limit(
        QStringLiteral("limit"),
        QStringLiteral("The newest this many, printed oldest first (default 100; 0: all)."),
        QStringLiteral("n"), QStringLiteral("100"));
    const QCommandLineOption follow(
        QStringLiteral("follow"),
        QStringLiteral("Then print new requests as they are decided, until interrupted."));
    parser.addOptions({folder, turn, since, decision, format, limit, follow});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("network log"),
             QStringLiteral(
                 "Show the egress ledger: every request a turn's proxy, model gateway or\n"
                 "connector decided, with the rule that decided it.")},
            arguments))
        return *stop;

    const QString formatName = parser.isSet(format) ? parser.value(format)
                               : context.json()     ? QStringLiteral("jsonl")
                                                    : QStringLiteral("table");
    const auto chosenFormat = ledger::ledgerFormatFromName(formatName);
    if (!chosenFormat)
        return context.usageError(
            QStringLiteral("network log: --format '%1' is not jsonl, ocsf or table")
                .arg(inertLine(formatName)));
    bool limitOk = false;
    const int limitValue = parser.value(limit).toInt(&limitOk);
    if (!limitOk || limitValue < 0)
        return context.usageError(QStringLiteral("network log: --limit '%1' is not a number")
                                      .arg(inertLine(parser.value(limit))));
    ledger::LedgerFilter filter;
    if (parser.isSet(folder))
        filter.folder = parser.value(folder);
    if (parser.isSet(decision)) {
        filter.decision = parser.value(decision);
        if (filter.decision != QLatin1String("allow") && filter.decision != QLatin1String("deny"))
            return context.usageError(
                QStringLiteral("network log: --decision '%1' is not allow or deny")
                    .arg(inertLine(filter.decision)));
    }
    if (parser.isSet(since)) {
        const auto from =
            ledger::sinceTimestamp(parser.value(since), QDateTime::currentDateTimeUtc());
        if (!from)
            return context.usageError(
                QStringLiteral("network log: --since '%1' is neither an ISO-8601 time nor an "
                               "age like 2h")
                    .arg(inertLine(parser.value(since))));
        filter.since = *from;
    }

    return withStore(context, [&](store::Store &store) {
        if (parser.isSet(turn)) {
            const Result<turns::TurnRecord> found =
                turns::TurnRecords(store).find(parser.value(turn));
            if (!found)
                return context.failure(found.error());
            filter.turn = found->id;
        }
        ledger::Ledger ledger(store);
        LedgerPrinter printer(context, *chosenFormat);
        qint64 lastId = 0;
        const auto printOldestFirst = [&]() -> Result<void> {
            filter.afterId = lastId;
            const Result<qint64> last =
                ledger::followLedger(ledger, filter, [&](const QList<ledger::LedgerEntry> &page) {
                    printer.print(page);
                    return true;
                });
            if (!last)
                return last.error();
            lastId = *last;
            return {};
        };
        if (limitValue == 0) {
            if (const Result<void> printed = printOldestFirst(); !printed)
                return context.failure(printed.error());
        } else {
            filter.limit = limitValue;
            Result<QList<ledger::LedgerEntry>> newest = ledger.page(filter);
            if (!newest)
                return context.failure(newest.error());
            std::reverse(newest->begin(), newest->end());
            if (!newest->isEmpty())
                lastId = newest->last().id;
            printer.print(*newest);
        }
        while (parser.isSet(follow)) {
            QThread::msleep(followIntervalMs);
            if (const Result<void> printed = printOldestFirst(); !printed)
                return context.failure(printed.error());
        }
        return Exit::Ok;
    });
}

Exit runNetworkRetention(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("network retention"),
             QStringLiteral("Show or set how many days the egress ledger keeps the folder's "
                            "requests\n(default %1). Older ones are deleted when the engine starts "
                            "and after a turn "
                            "ends.")
                 .arg(ledger::defaultRetentionDays),
             {{QStringLiteral("folder"), QStringLiteral("The folder; '' is the base.")},
              {QStringLiteral("days"), QStringLiteral("Optional. 1 to 36500."),
               Positional::Kind::Optional}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    return withStore(context, [&](store::Store &store) {
        if (!positionals.at(0).isEmpty()) {
            const auto exists = folders::Folders(store, actors::cli).exists(positionals.at(0));
            if (!exists)
                return context.failure(exists.error());
            if (!*exists)
                return context.failure(
                    makeError(QStringLiteral("folder.not-found"),
                              QStringLiteral("there is no folder '%1'").arg(positionals.at(0))));
        }
        ledger::Ledger ledger(store);
        if (positionals.size() > 1) {
            bool ok = false;
            const int days = positionals.at(1).toInt(&ok);
            if (!ok)
                return context.usageError(
                    QStringLiteral("network retention: '%1' is not a number of days")
                        .arg(inertLine(positionals.at(1))));
            if (const Result<void> set =
                    ledger.setRetentionDays(positionals.at(0), days, actors::cli);
                !set)
                return context.failure(set.error());
        }
        const Result<int> days = ledger.retentionDays(positionals.at(0));
        if (!days)
            return context.failure(days.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("folder"), positionals.at(0)},
                                          {QStringLiteral("days"), *days}});
        else
            context.out() << inertLine(positionals.at(0).isEmpty() ? QStringLiteral("''")
                                                                   : positionals.at(0))
                          << ": " << *days << " days\n";
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
