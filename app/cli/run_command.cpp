// arizukoctl run: one agent turn, its events streamed to the terminal as
// they arrive; exits 0 when the turn is done, 1 otherwise.

#include "agent/agent_profile.h"
#include "commands.h"
#include "engine/engine_impl.h"
#include "interrupt_notifier.h"
#include "subcommands.h"
#include "terminal_questions.h"
#include "terminal_text.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <memory>

namespace arizuko::cli {
namespace {

// Every string of an event may come from the agent (its output, what the
// guest reported, an error quoting either): made inert before it is printed.
QString text(const QJsonObject &object, const char *key)
{
    return inertForTerminal(object.value(QLatin1String(key)).toString());
}

// The kinds --agent takes: the command agent and those of the profiles.
QStringList agentNames()
{
    return QStringList{turns::agentKindName(turns::AgentKind::Command)} +
           agent::conversationAgentNames();
}

// "claude, codex, pi or command (default claude; pi has no MCP, so no host
// tools)."
QString agentHelp()
{
    QStringList notes{QStringLiteral("default ") + QString(agent::defaultAgentProfile().name)};
    for (const agent::AgentProfile *profile : agent::agentProfiles()) {
        if (!profile->hostTools)
            notes << QString(profile->name) + QStringLiteral(" has no MCP, so no host tools");
    }
    return QStringLiteral("%1 or %2 (%3).")
        .arg(agent::conversationAgentNames().join(QStringLiteral(", ")),
             turns::agentKindName(turns::AgentKind::Command), notes.join(QStringLiteral("; ")));
}

// How many lines of a tool's output the terminal shows.
constexpr int toolResultLines = 4;

QString indented(const QString &text, const QString &firstPrefix, const QString &prefix)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    const qsizetype hidden = lines.size() - toolResultLines;
    if (hidden > 0) {
        lines = lines.mid(0, toolResultLines);
        lines << QStringLiteral("\u2026 (%1 more lines)").arg(hidden);
    }
    for (qsizetype i = 0; i < lines.size(); ++i)
        lines[i] = (i == 0 ? firstPrefix : prefix) + lines[i];
    return lines.join(QLatin1Char('\n'));
}

// The agent's transcript on stdout (its text, one folded line per tool
// call, the start of each result); the engine's notes on stderr. So
// `arizukoctl run f "…" > out` captures just what the agent said and did.
bool printAgentEvent(Context &context, const turns::TurnEventRecord &event)
{
    const QJsonObject &json = event.json;
    QTextStream &out = context.out();
    if (event.kind == QLatin1String("text")) {
        out << text(json, "text") << "\n";
    } else if (event.kind == QLatin1String("tool_use")) {
        out << QStringLiteral("\u25cf ") << text(json, "summary") << "\n";
    } else if (event.kind == QLatin1String("tool_result")) {
        const QString content = text(json, "content");
        const QString mark = json.value(QStringLiteral("is_error")).toBool()
                                 ? QStringLiteral("  \u23bf [error] ")
                                 : QStringLiteral("  \u23bf ");
        out << indented(content.isEmpty() ? QStringLiteral("(no output)") : content, mark,
                        QStringLiteral("    "))
            << "\n";
    } else if (event.kind == QLatin1String("output")) {
        out << text(json, "line") << "\n";
    } else if (event.kind == QLatin1String("event")) {
        out << text(json, "line") << (json.value(QStringLiteral("continued")).toBool() ? "" : "\n");
    } else {
        return false;
    }
    out.flush();
    return true;
}

void printEngineEvent(Context &context, const turns::TurnEventRecord &event)
{
    const QJsonObject &json = event.json;
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
    else if (event.kind == QLatin1String("init") && json.contains(QStringLiteral("agent")))
        err << "[agent] " << text(json, "agent") << ", session " << text(json, "session_id")
            << "\n";
    else if (event.kind == QLatin1String("init"))
        err << "[agent] Claude Code " << text(json, "claude_code_version") << ", model "
            << text(json, "model") << ", session " << text(json, "session_id") << "\n";
    else if (event.kind == QLatin1String("session"))
        err << "[session] " << text(json, "reason") << "\n";
    else if (event.kind == QLatin1String("result") &&
             json.value(QStringLiteral("is_error")).toBool())
        err << "[agent] ended with an error: " << text(json, "text") << "\n";
    else if (event.kind == QLatin1String("tool"))
        err << "[tool] " << text(json, "tool") << " on " << text(json, "scope") << ": "
            << (json.value(QStringLiteral("allowed")).toBool() ? "allowed" : "refused") << " ("
            << text(json, "reason") << ")\n";
    else if (event.kind == QLatin1String("connector"))
        err << "[connector] " << text(json, "tool") << ": " << text(json, "method") << " "
            << text(json, "path") << " " << text(json, "status") << " "
            << json.value(QStringLiteral("http_status")).toInteger() << "\n";
    else if (event.kind == QLatin1String("message"))
        err << "[message to " << text(json, "topic") << "] " << text(json, "text") << "\n";
    else if (event.kind == QLatin1String("guest-protocol") ||
             event.kind == QLatin1String("guest-limit"))
        err << "[guest] " << text(json, "message")
            << (json.contains(QStringLiteral("violation"))
                    ? QStringLiteral(": ") + text(json, "violation")
                    : QString())
            << "\n";
    else if (event.kind == QLatin1String("gateway"))
        err << "[gateway] refused " << text(json, "peer") << ": " << text(json, "reason") << "\n";
    else if (event.kind == QLatin1String("model") || event.kind == QLatin1String("usage") ||
             event.kind == QLatin1String("result") || event.kind == QLatin1String("thinking") ||
             event.kind == QLatin1String("timing") ||
             event.kind == QLatin1String("tool_progress") || event.kind == QLatin1String("task"))
        return; // in the closing line, or only of interest in --json
    else
        err << "[" << inertForTerminal(event.kind) << "] " << inertJsonLine(json) << "\n";
    err.flush();
}

void printEvent(Context &context, const turns::TurnEventRecord &event)
{
    if (context.json()) {
        context.out() << inertJsonLine(QJsonObject{{QStringLiteral("seq"), event.seq},
                                                   {QStringLiteral("kind"), event.kind},
                                                   {QStringLiteral("at"), event.at},
                                                   {QStringLiteral("json"), event.json}})
                      << "\n";
        context.out().flush();
        return;
    }
    if (!printAgentEvent(context, event))
        printEngineEvent(context, event);
}

// "done in 41.2 s · 1,234 tokens in, 56 out · $0.0031"
QString closingLine(const turns::TurnRecord &record)
{
    QStringList parts;
    const QDateTime started = QDateTime::fromString(record.queuedAt, Qt::ISODateWithMs);
    const QDateTime ended = QDateTime::fromString(record.endedAt, Qt::ISODateWithMs);
    QString head = turns::turnStateName(record.state);
    if (started.isValid() && ended.isValid())
        head += QStringLiteral(" in %1 s").arg(double(started.msecsTo(ended)) / 1000.0, 0, 'f', 1);
    parts << head;
    if (!record.usage.isEmpty()) {
        const qint64 input =
            record.usage.value(QStringLiteral("input_tokens")).toInteger() +
            record.usage.value(QStringLiteral("cache_read_input_tokens")).toInteger() +
            record.usage.value(QStringLiteral("cache_creation_input_tokens")).toInteger();
        parts << QStringLiteral("%1 tokens in, %2 out")
                     .arg(input)
                     .arg(record.usage.value(QStringLiteral("output_tokens")).toInteger());
    }
    parts << (record.costUsd ? QStringLiteral("$%1").arg(*record.costUsd, 0, 'f', 4)
                             : QStringLiteral("cost unknown"));
    return parts.join(QStringLiteral(" \u00b7 "));
}

// The engine's start: the accelerator turns run under, and what earlier
// engines had left behind.
void printStart(Context &context, const host::AcceleratorChoice &accelerator,
                const turns::ReapReport &reaped)
{
    context.err() << "[engine] accelerator " << host::acceleratorName(accelerator.accelerator)
                  << ": " << accelerator.reason << "\n";
    if (!reaped.isEmpty())
        context.err() << "[engine] reaped after an earlier crash: turns "
                      << reaped.interruptedTurns.join(QLatin1Char(' ')) << " interrupted; domains "
                      << reaped.domains.join(QLatin1Char(' ')) << "; networks "
                      << reaped.networks.join(QLatin1Char(' ')) << "; proxies "
                      << reaped.proxies.size() << "\n";
    for (const QString &orphan : reaped.leftBehind)
        context.err() << "[engine] left behind, could not be removed: " << orphan << "\n";
    context.err().flush();
}

} // namespace

Exit runRun(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption topicOption(QStringLiteral("topic"),
                                         QStringLiteral("The topic (default main)."),
                                         QStringLiteral("T"), QStringLiteral("main"));
    const QCommandLineOption agentOption(QStringLiteral("agent"), agentHelp(),
                                         QStringLiteral("KIND"),
                                         QString(agent::defaultAgentProfile().name));
    const QCommandLineOption deadlineOption(
        QStringLiteral("deadline"), QStringLiteral("Seconds the turn may take (default 1800)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption providerOption(
        QStringLiteral("model-provider"),
        QStringLiteral(
            "auto, api-key, oauth or demo (default: ARIZUKO_MODEL_PROVIDER, else auto)."),
        QStringLiteral("P"));
    const QCommandLineOption scriptOption(
        QStringLiteral("model-script"),
        QStringLiteral("With the demo provider: a script file instead of the built-in demo."),
        QStringLiteral("FILE"));
    const QCommandLineOption modelOption(QStringLiteral("model"),
                                         QStringLiteral("The model the agent asks for."),
                                         QStringLiteral("NAME"));
    parser.addOptions(
        {topicOption, agentOption, deadlineOption, providerOption, scriptOption, modelOption});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("run"),
             QStringLiteral("Run one agent turn in a throw-away VM and stream its events.\n"
                            "The command agent runs one shell command line in the guest."),
             {{QStringLiteral("folder"), QStringLiteral("The folder the turn runs for.")},
              {QStringLiteral("prompt"), QStringLiteral("The prompt, or the command line.")}},
             // An unquoted command line arrives as several arguments.
             QStringLiteral("expected <folder> and one prompt or command argument")},
            arguments))
        return *stop;
    const QStringList positional = parser.positionalArguments();
    const std::optional<turns::AgentKind> agent =
        turns::agentKindFromName(parser.value(agentOption));
    if (!agent)
        return context.usageError(
            QStringLiteral("run: --agent '%1' is not one of %2")
                .arg(parser.value(agentOption), agentNames().join(QStringLiteral(", "))));

    turns::TurnRequest request;
    request.folder = positional[0];
    request.topic = parser.value(topicOption);
    request.agent = *agent;
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

    return withStore(context, [&](store::Store &store) {
        auto settings = runnerSettings(context, store);
        if (!settings)
            return context.failure(settings.error());
        if (parser.isSet(providerOption)) {
            const auto provider = turns::parseModelProviderChoice(parser.value(providerOption));
            if (!provider)
                return context.usageError(QStringLiteral("run: ") + provider.error().message);
            settings->modelProvider = *provider;
        }
        if (parser.isSet(scriptOption)) {
            if (settings->modelProvider != turns::ModelProviderChoice::Demo)
                return context.usageError(
                    QStringLiteral("run: --model-script needs --model-provider demo"));
            settings->modelScript = parser.value(scriptOption);
        }
        if (parser.isSet(modelOption))
            settings->model = parser.value(modelOption);
        // The window's engine, made the same way; on its own thread, while this
        // one only prints what it reports. Destroyed before the store.
        engine::EngineImpl engine(store, *settings);
        Exit exit = Exit::Failed;
        const auto stop = [&exit](Exit with) {
            exit = with;
            QCoreApplication::exit();
        };
        // A snapshot's budget that ran out: said as it happens (the one after a
        // turn is in `turn changes` too, as a note).
        QObject::connect(&engine, &engine::Engine::historyBudgetRanOut, &engine,
                         [&context](const QString &turnId, bool after, const QString &note) {
                             context.err()
                                 << "[history] the snapshot " << (after ? "after" : "before")
                                 << " turn " << turnId << ": " << note << "\n";
                             context.err().flush();
                         });
        QObject::connect(&engine, &engine::Engine::failed, &engine,
                         [&context, &stop](const Error &error) { stop(context.failure(error)); });
        QObject::connect(
            &engine, &engine::Engine::requestFailed, &engine,
            [&context, &stop](const QString &message) { stop(context.failure(message)); });
        // Ctrl-C cancels the turns instead of killing the engine mid-teardown.
        // Caught from the start: before the engine is ready it may be reaping
        // what a dead engine left, so an early Ctrl-C waits for that and
        // submits nothing.
        InterruptNotifier interrupts;
        bool interruptedEarly = false;
        QObject::connect(&interrupts, &InterruptNotifier::interrupted, &engine,
                         [&engine, &interruptedEarly, &context] {
                             if (!engine.isReady()) {
                                 interruptedEarly = true;
                                 context.err() << "[engine] interrupted: stopping once the engine "
                                                  "has finished starting, with no turn\n";
                                 context.err().flush();
                                 return;
                             }
                             engine.cancelAll(
                                 QStringLiteral("interrupted (SIGINT/SIGTERM to arizukoctl)"));
                         });
        // Submitted once the engine is ready, so a start that fails leaves no
        // queued turn behind.
        QObject::connect(
            &engine, &engine::Engine::ready, &engine,
            [&](const host::AcceleratorChoice &accelerator, const turns::ReapReport &reaped) {
                printStart(context, accelerator, reaped);
                if (interruptedEarly)
                    return stop(Exit::Interrupted);
                engine.submit(request);
            });

        // The first turn queued is the one submitted: nothing else submits to
        // this engine. Turns its tools queue (delegate_group, escalate_group)
        // run in this engine too: it stays until every one of them has ended.
        QString submitted;
        // On a terminal, a folder that asks about hosts on no allow entry
        // asks here, while the request waits.
        std::unique_ptr<TerminalQuestions> questions;
        if (!context.json() && TerminalQuestions::available())
            questions = std::make_unique<TerminalQuestions>(store, context);
        QObject::connect(&engine, &engine::Engine::turnQueued, &engine,
                         [&context, &submitted, &questions](const turns::TurnRecord &turn) {
                             if (questions)
                                 questions->watch(turn.id);
                             if (submitted.isEmpty()) {
                                 submitted = turn.id;
                                 context.err()
                                     << "[engine] turn " << turn.name << " (" << turn.id << ")\n";
                             } else {
                                 context.err()
                                     << "[engine] turn " << turn.name << " queued by a tool in "
                                     << turn.folder << " (topic " << turn.topic << ")\n";
                             }
                             context.err().flush();
                         });
        QObject::connect(&engine, &engine::Engine::turnEvents, &engine,
                         [&context, &submitted](const QString &turnId,
                                                const QList<turns::TurnEventRecord> &events) {
                             if (turnId != submitted)
                                 return;
                             for (const turns::TurnEventRecord &event : events)
                                 printEvent(context, event);
                         });
        QObject::connect(&engine, &engine::Engine::turnFinished, &engine,
                         [&context, &engine, &submitted, &exit](const turns::TurnRecord &turn) {
                             if (turn.id == submitted)
                                 exit =
                                     turn.state == turns::TurnState::Done ? Exit::Ok : Exit::Failed;
                             context.err() << "[engine] turn " << turn.name << " "
                                           << closingLine(turn) << "\n";
                             context.err().flush();
                             // The engine's own mirror has dropped this turn already.
                             if (engine.liveTurns().isEmpty())
                                 QCoreApplication::exit(0);
                         });
        engine.start();
        QCoreApplication::exec();
        return exit;
    });
}

} // namespace arizuko::cli
