// arizukoctl run: one agent turn, its events streamed to the terminal as
// they arrive; exits 0 when the turn is done, 1 otherwise.

#include "commands.h"
#include "subcommands.h"
#include "store/data_dir.h"
#include "store/store.h"
#include "turns/turn_runner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QTimer>
#include <atomic>
#include <csignal>

namespace arizuko::cli {
namespace {

std::atomic_bool interrupted = false;

void onInterrupt(int)
{
    interrupted = true;
}

QString text(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

// One human line per event; agent stdout goes to stdout untouched, the rest
// to stderr, so `arizukoctl run f -- cmd > out` captures just the output.
void printEvent(Context &context, const turns::TurnEventRecord &event)
{
    const QJsonObject &json = event.json;
    if (context.json()) {
        context.out() << QJsonDocument(QJsonObject{{QStringLiteral("seq"), event.seq},
                                                   {QStringLiteral("kind"), event.kind},
                                                   {QStringLiteral("at"), event.at},
                                                   {QStringLiteral("json"), json}})
                             .toJson(QJsonDocument::Compact)
                      << "\n";
        context.out().flush();
        return;
    }
    if (event.kind == QLatin1String("event")) {
        context.out() << text(json, "line")
                      << (json.value(QStringLiteral("continued")).toBool() ? "" : "\n");
        context.out().flush();
        return;
    }
    QTextStream &err = context.err();
    if (event.kind == QLatin1String("phase"))
        err << "[turn] " << text(json, "state") << "\n";
    else if (event.kind == QLatin1String("log"))
        err << "[" << text(json, "source") << "] " << text(json, "line") << "\n";
    else if (event.kind == QLatin1String("status"))
        err << "[guest] " << text(json, "state")
            << (json.contains(QStringLiteral("kernel"))
                    ? QStringLiteral(" (kernel %1)").arg(text(json, "kernel"))
                    : QString())
            << QStringLiteral(" at %1 ms").arg(json.value(QStringLiteral("uptime_ms")).toInteger())
            << "\n";
    else if (event.kind == QLatin1String("network"))
        err << "[network] " << text(json, "event") << " " << text(json, "decision") << " "
            << text(json, "method") << " " << text(json, "host") << ":"
            << json.value(QStringLiteral("port")).toInteger() << " (" << text(json, "reason")
            << ")\n";
    else if (event.kind == QLatin1String("exit"))
        err << "[guest] agent " << text(json, "reason") << ", status "
            << json.value(QStringLiteral("code")).toInteger() << "\n";
    else if (event.kind == QLatin1String("error"))
        err << "[error] " << text(json, "message") << "\n";
    else
        err << "[" << event.kind << "] " << QJsonDocument(json).toJson(QJsonDocument::Compact)
            << "\n";
    err.flush();
}

} // namespace

Exit runRun(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run one agent turn in a throw-away VM and stream its events.\n"
                       "The command agent runs one shell command line in the guest."));
    const QCommandLineOption topicOption(QStringLiteral("topic"),
                                         QStringLiteral("The topic (default main)."),
                                         QStringLiteral("T"), QStringLiteral("main"));
    const QCommandLineOption agentOption(QStringLiteral("agent"),
                                         QStringLiteral("command or claude (default claude)."),
                                         QStringLiteral("KIND"), QStringLiteral("claude"));
    const QCommandLineOption deadlineOption(
        QStringLiteral("deadline"), QStringLiteral("Seconds the turn may take (default 1800)."),
        QStringLiteral("SECONDS"));
    parser.addOptions({topicOption, agentOption, deadlineOption});
    parser.addPositionalArgument(QStringLiteral("folder"),
                                 QStringLiteral("The folder the turn runs for."));
    parser.addPositionalArgument(QStringLiteral("prompt"),
                                 QStringLiteral("The prompt, or the command line."));
    if (const auto stop = context.parse(parser, QStringLiteral("run"), arguments))
        return *stop;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return context.usageError(
            QStringLiteral("run: expected <folder> and one prompt or command argument"));
    const QString agent = parser.value(agentOption);
    if (agent != QLatin1String("command") && agent != QLatin1String("claude"))
        return context.usageError(
            QStringLiteral("run: --agent '%1' is not one of command, claude").arg(agent));

    turns::TurnRequest request;
    request.folder = positional[0];
    request.topic = parser.value(topicOption);
    request.agent =
        agent == QLatin1String("command") ? turns::AgentKind::Command : turns::AgentKind::Claude;
    request.prompt = positional[1];
    if (parser.isSet(deadlineOption)) {
        bool ok = false;
        const int seconds = parser.value(deadlineOption).toInt(&ok);
        if (!ok || seconds <= 0)
            return context.usageError(
                QStringLiteral("run: --deadline '%1' is not a positive number of seconds")
                    .arg(parser.value(deadlineOption)));
        request.deadline = std::chrono::seconds(seconds);
    }

    const auto settings = runnerSettings(context);
    if (!settings)
        return context.failure(settings.error());
    auto store = store::Store::open(store::resolveDataDir(context.options().dataDir));
    if (!store)
        return context.failure(store.error());
    auto runner = turns::TurnRunner::create(**store, *settings);
    if (!runner)
        return context.failure(runner.error());
    const host::AcceleratorChoice &accelerator = (*runner)->accelerator();
    context.err() << "[engine] accelerator " << host::acceleratorName(accelerator.accelerator)
                  << ": " << accelerator.reason << "\n";
    const turns::ReapReport &reaped = (*runner)->startupReap();
    if (!reaped.isEmpty())
        context.err() << "[engine] reaped after an earlier crash: turns "
                      << reaped.interruptedTurns.join(QLatin1Char(' ')) << " interrupted; domains "
                      << reaped.domains.join(QLatin1Char(' ')) << "; networks "
                      << reaped.networks.join(QLatin1Char(' ')) << "; proxies "
                      << reaped.proxies.size() << "\n";
    context.err().flush();

    auto submitted = (*runner)->submit(request);
    if (!submitted)
        return context.failure(submitted.error());
    turns::Turn *turn = *submitted;
    context.err() << "[engine] turn " << turn->name() << " (" << turn->id() << ")\n";
    context.err().flush();

    Exit exit = Exit::Failed;
    QObject::connect(
        turn, &turns::Turn::eventReceived, turn,
        [&context](const turns::TurnEventRecord &event) { printEvent(context, event); });
    QObject::connect(turn, &turns::Turn::finished, turn,
                     [&exit, &context, turn](turns::TurnState outcome) {
                         exit = outcome == turns::TurnState::Done ? Exit::Ok : Exit::Failed;
                         context.err() << "[engine] turn " << turn->name() << " "
                                       << turns::turnStateName(outcome) << "\n";
                         context.err().flush();
                         QCoreApplication::exit(0);
                     });

    // Ctrl-C cancels the turn instead of killing the engine mid-teardown.
    interrupted = false;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    QTimer interruptPoll;
    interruptPoll.setInterval(100);
    QObject::connect(&interruptPoll, &QTimer::timeout, turn, [turn] {
        if (interrupted.exchange(false))
            turn->cancel(QStringLiteral("interrupted (SIGINT/SIGTERM to arizukoctl)"));
    });
    interruptPoll.start();
    QCoreApplication::exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return exit;
}

} // namespace arizuko::cli
