// A long-lived engine for the warm-start tests and the turn benchmark: the
// window's own EngineImpl (engine/engine/engine_impl.h), keeping spares as
// the window's does, without the window (arizukoctl run is one-shot and
// never keeps a spare). Reads one
// command a line on stdin and writes one JSON object a line on stdout:
//
//   spare FOLDER                      make a spare for FOLDER (reports its name)
//   discard                           discard the spare
//   keep on|off                       whether the runner keeps spares at all
//   run FOLDER TOPIC COMMAND...       submit a `command` turn
//   claude|codex|pi FOLDER TOPIC PROMPT...  submit a turn of that agent (the model: the
//                                     runner's settings, e.g. ARIZUKO_MODEL_PROVIDER=demo)
//   quit                              tear everything down and exit
//
// Reports: {"event":"ready"}, {"event":"spare","name"} (empty: none made),
// {"event":"spare-ready","name","folder"},
// {"event":"spare-discarded","name","why"}, {"event":"submitted","turn"},
// {"event":"finished","turn","state"}, {"event":"quitting","spare"},
// {"event":"error","message"}.

#include "engine/engine_impl.h"
#include "store/store.h"
#include "turns/runner_settings.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <cstdio>
#include <unistd.h>

using namespace arizuko;

namespace {

void report(const QJsonObject &object)
{
    std::fputs(QJsonDocument(object).toJson(QJsonDocument::Compact).append('\n').constData(),
               stdout);
    std::fflush(stdout);
}

void reportError(const QString &message)
{
    report({{QStringLiteral("event"), QStringLiteral("error")},
            {QStringLiteral("message"), message}});
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication application(argc, argv);
    const QStringList arguments = application.arguments();
    const int dataDir = arguments.indexOf(QStringLiteral("--data-dir"));
    if (dataDir < 0 || dataDir + 1 >= arguments.size()) {
        std::fputs("usage: spare-driver --data-dir DIR\n", stderr);
        return 2;
    }
    auto store = store::Store::open(arguments.at(dataDir + 1));
    if (!store) {
        reportError(store.error().message);
        return 1;
    }
    auto settings = turns::RunnerSettings::load(**store);
    if (!settings) {
        reportError(settings.error().message);
        return 1;
    }
    using engine::Engine;
    std::unique_ptr<Engine> engine = std::make_unique<engine::EngineImpl>(**store, *settings);
    engine->setKeepsSpares(true);
    // What each answer to askSpareName() is for, in the order asked.
    QStringList spareQuestions;
    QObject::connect(engine.get(), &Engine::ready, &application, [] {
        report({{QStringLiteral("event"), QStringLiteral("ready")}});
    });
    QObject::connect(engine.get(), &Engine::failed, &application, [](const Error &error) {
        reportError(error.message);
        QCoreApplication::exit(1);
    });
    QObject::connect(engine.get(), &Engine::requestFailed, &application, &reportError);
    QObject::connect(engine.get(), &Engine::turnQueued, &application,
                     [](const turns::TurnRecord &turn) {
                         report({{QStringLiteral("event"), QStringLiteral("submitted")},
                                 {QStringLiteral("turn"), turn.name}});
                     });
    QObject::connect(engine.get(), &Engine::spareReady, &application,
                     [](const QString &name, const QString &folder) {
                         report({{QStringLiteral("event"), QStringLiteral("spare-ready")},
                                 {QStringLiteral("name"), name},
                                 {QStringLiteral("folder"), folder}});
                     });
    QObject::connect(engine.get(), &Engine::spareDiscarded, &application,
                     [](const QString &name, const QString &why) {
                         report({{QStringLiteral("event"), QStringLiteral("spare-discarded")},
                                 {QStringLiteral("name"), name},
                                 {QStringLiteral("why"), why}});
                     });
    QObject::connect(engine.get(), &Engine::turnFinished, &application,
                     [](const turns::TurnRecord &turn) {
                         report({{QStringLiteral("event"), QStringLiteral("finished")},
                                 {QStringLiteral("turn"), turn.name},
                                 {QStringLiteral("state"), turns::turnStateName(turn.state)}});
                     });
    QObject::connect(engine.get(), &Engine::spareNamed, &application,
                     [&](const QString &name) {
                         const QString question = spareQuestions.takeFirst();
                         if (question == QLatin1String("spare")) {
                             report({{QStringLiteral("event"), QStringLiteral("spare")},
                                     {QStringLiteral("name"), name}});
                             return;
                         }
                         // What the engine's destructor tears down,
                         // for the tests to check.
                         report({{QStringLiteral("event"), QStringLiteral("quitting")},
                                 {QStringLiteral("spare"), name}});
                         // Not inside the engine's own signal.
                         QMetaObject::invokeMethod(
                             &application,
                             [&engine] {
                                 engine.reset();
                                 QCoreApplication::quit();
                             },
                             Qt::QueuedConnection);
                     });
    engine->start();

    const auto handle = [&](const QString &line) {
        const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QString verb = words.value(0);
        if (verb == QLatin1String("spare") && words.size() == 2) {
            engine->prepareSpare(words.at(1));
            spareQuestions << QStringLiteral("spare");
            engine->askSpareName();
        } else if (verb == QLatin1String("keep") && words.size() == 2) {
            engine->setKeepsSpares(words.at(1) == QLatin1String("on"));
        } else if (verb == QLatin1String("discard")) {
            engine->discardSpare(QStringLiteral("asked to"));
        } else if (const std::optional<turns::AgentKind> agent =
                       verb == QLatin1String("run") ? turns::AgentKind::Command
                                                    : turns::agentKindFromName(verb);
                   agent && words.size() >= 4) {
            // `run` is a command turn; claude, codex and pi name their agent.
            turns::TurnRequest request;
            request.folder = words.at(1);
            request.topic = words.at(2);
            request.agent = *agent;
            request.prompt = words.mid(3).join(QLatin1Char(' '));
            engine->submit(request);
        } else {
            reportError(QStringLiteral("unknown command: ") + line);
        }
    };
    // Raw reads: several commands may arrive in one.
    QByteArray pending;
    QSocketNotifier notifier(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &application, [&] {
        char buffer[4096];
        const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
        bool quit = got <= 0;
        if (got > 0)
            pending.append(buffer, got);
        qsizetype newline;
        while ((newline = pending.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(pending.left(newline)).trimmed();
            pending.remove(0, newline + 1);
            if (line == QLatin1String("quit")) {
                quit = true;
                break;
            }
            if (!line.isEmpty())
                handle(line);
        }
        if (quit) {
            notifier.setEnabled(false);
            spareQuestions << QStringLiteral("quit");
            engine->askSpareName();
        }
    });
    return QCoreApplication::exec();
}
