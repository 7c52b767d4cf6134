// egress-bench-ledger: arizuko-egress as a turn runs it, its decision log read
// by the engine's own reader (turns::EgressProxy: the process, its stderr line
// by line, each line parsed) and then, by --mode:
//   discard  dropped: what the engine did before the ledger existed, minus
//            the store;
//   ledger   each line to the real LedgerRecorder, its writes batched per
//            event-loop pass and stored with Ledger::write in a real SQLite
//            store, as the turn journal batches them;
//   journal  each line to a real TurnJournal (network event rows and ledger
//            rows, one transaction per event-loop pass), as a turn does.
// Once the proxy answers /health, one line on stderr:
//   {"event":"listening","addr":"127.0.0.1:PORT","proxy_pid":N}
// and when stdin closes, the totals, then it exits:
//   {"event":"totals","lines":N,"batches":B,"store_ms":T,"store_max_ms":M}
// (batches with ledger and journal, store times with ledger). --batch N (ledger
// mode): store every N writes instead of once per event-loop pass, so runs
// store in the same transactions whatever the machine's load (the reader's
// CPU per request depends on how many commits it makes). The proxy's lists:
// --allow, exactly the benchmark's; the ledger's rules are those lists, each
// an allow rule of the base folder, so every row looks its rule up.

#include "ledger/ledger.h"
#include "ledger/ledger_recorder.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"
#include "turns/egress_proxy.h"
#include "turns/turn_journal.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <cstdio>
#include <memory>
#include <unistd.h>

using namespace arizuko;

namespace {

const QString turnId = QStringLiteral("be9c0000-0000-4000-8000-000000000036");
const QString folder = QStringLiteral("bench");

void say(const QJsonObject &line)
{
    std::fputs(QJsonDocument(line).toJson(QJsonDocument::Compact).append('\n').constData(), stderr);
    std::fflush(stderr);
}

[[noreturn]] void quit(const QString &why)
{
    std::fprintf(stderr, "egress-bench-ledger: %s\n", qPrintable(why));
    std::exit(1);
}

policy::NetworkPolicy benchPolicy(const QStringList &allow)
{
    policy::NetworkPolicy policy;
    policy.allow = allow;
    qint64 id = 0;
    for (const QString &host : allow) {
        policy::NetworkRule rule;
        rule.id = ++id;
        rule.target = host;
        rule.createdAt = store::nowTimestamp();
        rule.createdBy = QStringLiteral("user:bench");
        policy.rules << rule;
    }
    return policy;
}

// The time each store write took, for the totals.
struct StoreTimes
{
    qint64 batches = 0;
    double totalMs = 0;
    double maxMs = 0;

    void add(const QElapsedTimer &timer)
    {
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        ++batches;
        totalMs += ms;
        maxMs = std::max(maxMs, ms);
    }
};

// --mode ledger: the recorder's writes, stored once per event-loop pass.
class LedgerSink final : public QObject
{
public:
    LedgerSink(store::Store &store, const policy::NetworkPolicy &policy, StoreTimes &times,
               qsizetype batch)
        : m_ledger(store)
        , m_recorder(turnId, folder, QStringLiteral("main"))
        , m_times(times)
        , m_batch(batch)
    {
        m_recorder.setPolicy(policy);
    }

    void take(const QJsonObject &line)
    {
        if (auto write = m_recorder.take(QStringLiteral("network"), line, m_nextSeq++,
                                         store::nowTimestamp()))
            m_pending.append(std::move(*write));
        if (m_batch > 0) {
            if (m_pending.size() >= m_batch)
                flush();
        } else if (m_pending.size() == 1) {
            QMetaObject::invokeMethod(this, &LedgerSink::flush, Qt::QueuedConnection);
        }
    }

    void flush()
    {
        if (m_pending.isEmpty())
            return;
        QElapsedTimer timer;
        timer.start();
        const Result<void> stored = m_ledger.write(std::exchange(m_pending, {}));
        m_times.add(timer);
        if (!stored)
            quit(QStringLiteral("the ledger refused a batch: ") + stored.error().message);
    }

private:
    ledger::Ledger m_ledger;
    ledger::LedgerRecorder m_recorder;
    QList<ledger::LedgerWrite> m_pending;
    qint64 m_nextSeq = 1;
    StoreTimes &m_times;
    // Writes per transaction; 0: one transaction per event-loop pass.
    const qsizetype m_batch;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication application(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("arizuko-egress with the engine's reader of "
                                                    "its decision log (see README.md)"));
    parser.addHelpOption();
    const QCommandLineOption egressOption(
        QStringLiteral("egress"), QStringLiteral("path of arizuko-egress"), QStringLiteral("PATH"));
    const QCommandLineOption modeOption(QStringLiteral("mode"),
                                        QStringLiteral("discard, ledger or journal"),
                                        QStringLiteral("MODE"));
    const QCommandLineOption allowOption(QStringLiteral("allow"),
                                         QStringLiteral("the proxy's allowlist, comma-separated"),
                                         QStringLiteral("LIST"));
    const QCommandLineOption storeOption(
        QStringLiteral("store"), QStringLiteral("data directory of the store (ledger, journal)"),
        QStringLiteral("DIR"));
    const QCommandLineOption batchOption(
        QStringLiteral("batch"),
        QStringLiteral("ledger mode: writes per transaction (default: one per event-loop pass)"),
        QStringLiteral("N"), QStringLiteral("0"));
    parser.addOptions({egressOption, modeOption, allowOption, storeOption, batchOption});
    parser.process(application);
    const QString mode = parser.value(modeOption);
    const bool storing = mode == QLatin1String("ledger") || mode == QLatin1String("journal");
    if (!storing && mode != QLatin1String("discard"))
        quit(QStringLiteral("--mode is discard, ledger or journal"));
    if (!parser.isSet(egressOption) || !parser.isSet(allowOption) ||
        (storing && !parser.isSet(storeOption)))
        quit(QStringLiteral("--egress and --allow are needed, and --store with ledger or journal"));

    const QStringList allow = parser.value(allowOption).split(QLatin1Char(','));
    const policy::NetworkPolicy policy = benchPolicy(allow);
    std::unique_ptr<store::Store> store;
    std::unique_ptr<turns::TurnRecords> records;
    std::unique_ptr<turns::TurnJournal> journal;
    std::unique_ptr<LedgerSink> sink;
    StoreTimes times;
    if (storing) {
        auto opened = store::Store::open(parser.value(storeOption));
        if (!opened)
            quit(opened.error().message);
        store = std::move(*opened);
    }
    if (mode == QLatin1String("ledger"))
        sink = std::make_unique<LedgerSink>(*store, policy, times,
                                            parser.value(batchOption).toLongLong());
    if (mode == QLatin1String("journal")) {
        turns::TurnRecord row;
        row.id = turnId;
        row.name = QStringLiteral("az-") + turnId.left(8);
        row.folder = folder;
        row.topic = QStringLiteral("main");
        row.agent = QStringLiteral("command");
        row.prompt = QStringLiteral("egress benchmark");
        row.queuedAt = store::nowTimestamp();
        records = std::make_unique<turns::TurnRecords>(*store);
        if (const Result<void> inserted = records->insert(row); !inserted)
            quit(inserted.error().message);
        journal = std::make_unique<turns::TurnJournal>(*store, *records, row);
        journal->setNetworkPolicy(policy);
        QObject::connect(journal.get(), &turns::TurnJournal::storeFailed, &application,
                         [](const Error &error) { quit(error.message); });
    }

    turns::EgressOptions options;
    options.program = parser.value(egressOption);
    options.turnName = QStringLiteral("az-bench");
    options.owner = QStringLiteral("egress-bench-ledger");
    options.listenAddress = QStringLiteral("127.0.0.1:0");
    options.client = QStringLiteral("127.0.0.1");
    options.allow = allow;
    // The benchmark's upstream is on loopback; the bench's other proxies are
    // not told to refuse private addresses either.
    options.denyPrivate = false;
    options.folder = folder;
    turns::EgressProxy proxy(options);

    qint64 lines = 0;
    // Queued, as the guest machine hands the lines on to the turn.
    QObject::connect(
        &proxy, &turns::EgressProxy::decision, &application,
        [&](const QJsonObject &line) {
            ++lines;
            if (sink)
                sink->take(line);
            else if (journal)
                journal->record(QStringLiteral("network"), line);
        },
        Qt::QueuedConnection);
    QObject::connect(&proxy, &turns::EgressProxy::healthy, &application, [&proxy] {
        say({{QStringLiteral("event"), QStringLiteral("listening")},
             {QStringLiteral("addr"), QStringLiteral("127.0.0.1:%1").arg(proxy.port())},
             {QStringLiteral("proxy_pid"), proxy.pid()}});
    });
    QObject::connect(&proxy, &turns::EgressProxy::failed, &application,
                     [](const Error &error) { quit(error.message); });
    QObject::connect(&proxy, &turns::EgressProxy::died, &application,
                     [](const QString &why) { quit(why); });

    // The journal flushes on its own queued call, untimed from here: its
    // batches are counted.
    if (journal) {
        QObject::connect(journal.get(), &turns::TurnJournal::batch, &application,
                         [&times](const QList<turns::TurnEventRecord> &) { ++times.batches; });
    }

    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &application, [&] {
        char ignored[256];
        if (::read(STDIN_FILENO, ignored, sizeof ignored) > 0)
            return;
        input.setEnabled(false);
        // What is pending is stored before the totals are told.
        if (sink)
            sink->flush();
        if (journal)
            journal->flush();
        QJsonObject totals{{QStringLiteral("event"), QStringLiteral("totals")},
                           {QStringLiteral("lines"), lines}};
        if (storing) {
            totals.insert(QStringLiteral("batches"), times.batches);
            if (sink) {
                totals.insert(QStringLiteral("store_ms"), times.totalMs);
                totals.insert(QStringLiteral("store_max_ms"), times.maxMs);
            }
        }
        say(totals);
        proxy.stop();
        QCoreApplication::quit();
    });
    proxy.start();
    return QCoreApplication::exec();
}
