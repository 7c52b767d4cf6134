// arizukoctl model serve: a scripted, Anthropic-compatible model on its
// own port — the upstream for tests and benchmarks, and a compatible URL
// to try the gateway against. Script format: docs/model-gateway.md.

#include "commands.h"
#include "gateway/scripted_server.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QSocketNotifier>

#include <csignal>
#include <memory>
#include <sys/eventfd.h>
#include <unistd.h>

namespace arizuko::cli {
namespace {

struct ListenAddress
{
    QHostAddress address;
    quint16 port = 0;
};

std::optional<ListenAddress> parseListen(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    const QHostAddress address(host);
    if (!ok || port > 65535 || address.isNull())
        return std::nullopt;
    return ListenAddress{address, quint16(port)};
}

// SIGINT/SIGTERM end the event loop, so the request log is closed whole.
int stopSignal = -1;

void onStopSignal(int)
{
    const quint64 one = 1;
    [[maybe_unused]] const auto written = ::write(stopSignal, &one, sizeof one);
}

Exit serve(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption script(
        QStringLiteral("script"),
        QStringLiteral("The model script (JSON), or :/gateway/demo-script.json."),
        QStringLiteral("FILE"));
    const QCommandLineOption listen(
        QStringLiteral("listen"),
        QStringLiteral("Address and port (default 127.0.0.1:0, any free port)."),
        QStringLiteral("HOST:PORT"), QStringLiteral("127.0.0.1:0"));
    const QCommandLineOption requestLog(
        QStringLiteral("request-log"),
        QStringLiteral("Append each request (method, path, all headers, body) as a JSON line."),
        QStringLiteral("FILE"));
    const QCommandLineOption variable(QStringLiteral("var"),
                                      QStringLiteral("A script variable, ${NAME} in the script."),
                                      QStringLiteral("NAME=VALUE"));
    parser.addOptions({script, listen, requestLog, variable});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("model serve"),
             QStringLiteral("Serve a model script as an Anthropic-compatible HTTP server.")},
            arguments))
        return *stop;
    if (!parser.isSet(script))
        return context.usageError(QStringLiteral("model serve: --script is required"));
    const auto address = parseListen(parser.value(listen));
    if (!address)
        return context.usageError(QStringLiteral("model serve: --listen wants HOST:PORT, not '%1'")
                                      .arg(parser.value(listen)));
    QMap<QString, QString> variables;
    for (const QString &assignment : parser.values(variable)) {
        const qsizetype equals = assignment.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return context.usageError(
                QStringLiteral("model serve: --var wants NAME=VALUE, not '%1'").arg(assignment));
        variables.insert(assignment.left(equals), assignment.mid(equals + 1));
    }
    auto model = gateway::ScriptedModel::loadFile(parser.value(script), variables);
    if (!model)
        return context.failure(model.error());

    std::unique_ptr<QFile> log;
    if (parser.isSet(requestLog)) {
        log = std::make_unique<QFile>(parser.value(requestLog));
        if (!log->open(QIODevice::WriteOnly | QIODevice::Append))
            return context.failure(
                QStringLiteral("cannot open %1: %2").arg(log->fileName(), log->errorString()));
    }

    gateway::HttpServerOptions options;
    options.address = address->address;
    options.port = address->port;
    gateway::ScriptedServer server(
        std::make_shared<const gateway::ScriptedModel>(std::move(*model)), options);
    QObject::connect(&server, &gateway::ScriptedServer::requestLogged, &server,
                     [&log](const QJsonObject &entry) {
                         if (!log)
                             return;
                         log->write(QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n');
                         log->flush();
                     });
    if (const Result<void> listening = server.listen(); !listening)
        return context.failure(listening.error());

    stopSignal = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    QSocketNotifier stopNotifier(stopSignal, QSocketNotifier::Read);
    QObject::connect(&stopNotifier, &QSocketNotifier::activated, QCoreApplication::instance(),
                     &QCoreApplication::quit);
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);

    const QString host = server.address().protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(server.address().toString())
                             : server.address().toString();
    context.out() << "listening on " << host << ":" << server.port() << "\n";
    context.out().flush();
    QCoreApplication::exec();
    ::close(stopSignal);
    return Exit::Ok;
}

} // namespace

Exit runModel(Context &context, const QStringList &arguments)
{
    return runSubcommand(
        context, QStringLiteral("model"), arguments,
        {{QStringLiteral("serve"),
          QStringLiteral("serve --script FILE [--listen HOST:PORT] [--request-log FILE] "
                         "[--var NAME=VALUE]..."),
          serve}});
}

} // namespace arizuko::cli
