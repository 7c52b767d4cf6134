// arizukoctl image: the guest image turns boot, looked at and built from a
// terminal. The build is the window's (host::GuestImageBuild running
// installer/build-guest-image); this file only shows it.

#include "commands.h"
#include "host/guest_image.h"
#include "host/guest_image_build.h"
#include "interrupt_notifier.h"
#include "subcommands.h"
#include "terminal_text.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

namespace arizuko::cli {
namespace {

using Outcome = host::GuestImageBuild::Outcome;

// How many of the builder's other lines (apt, npm, mkfs) a failure shows.
constexpr qsizetype failureTailLines = 20;

QString stateOf(const host::GuestImageStatus &status)
{
    if (status.present)
        return QStringLiteral("up to date");
    return status.missing.isEmpty() ? QStringLiteral("stale") : QStringLiteral("missing");
}

QString agentsOf(const host::GuestImageStatus &status)
{
    QStringList agents;
    for (const host::GuestAgent &agent : status.agents)
        agents << QStringLiteral("%1 %2").arg(agent.name, agent.version);
    return agents.join(QStringLiteral(", "));
}

// When its manifest says it was built, or empty.
QString builtAtOf(const host::GuestImageStatus &status)
{
    return status.builtAt.isValid() ? status.builtAt.toUTC().toString(Qt::ISODate) : QString();
}

QJsonObject toJson(const host::GuestImageStatus &status, const QString &guestProgram)
{
    QJsonArray agents;
    for (const host::GuestAgent &agent : status.agents)
        agents.append(QJsonObject{{QStringLiteral("name"), agent.name},
                                  {QStringLiteral("version"), agent.version},
                                  {QStringLiteral("entry"), agent.entry}});
    return QJsonObject{
        {QStringLiteral("directory"), status.directory},
        {QStringLiteral("state"), stateOf(status)},
        {QStringLiteral("usable"), status.present},
        {QStringLiteral("reason"), host::guestImageFault(status)},
        {QStringLiteral("missing"), QJsonArray::fromStringList(status.missing)},
        {QStringLiteral("guest_program"), guestProgram},
        {QStringLiteral("bytes"), status.bytes},
        {QStringLiteral("built_at"),
         status.builtAt.isValid() ? QJsonValue(builtAtOf(status)) : QJsonValue()},
        {QStringLiteral("agents"), agents},
        {QStringLiteral("hint"), status.present ? QString() : host::guestImageBuildHint()},
    };
}

// The image as `image status` shows it; exits 1 when turns cannot boot it.
Exit printStatus(Context &context, const host::GuestImageStatus &status)
{
    const QString guestProgram = host::siblingGuestProgram();
    if (context.json()) {
        context.printJson(toJson(status, guestProgram));
    } else {
        const QString none = QStringLiteral("-");
        context.printTable(
            {QStringLiteral("IMAGE"), QStringLiteral("VALUE")},
            {
                {QStringLiteral("directory"), status.directory},
                {QStringLiteral("state"), stateOf(status)},
                {QStringLiteral("reason"), status.present ? none : host::guestImageFault(status)},
                {QStringLiteral("guest program"), guestProgram.isEmpty()
                                                      ? QStringLiteral("not found (not compared)")
                                                      : guestProgram},
                {QStringLiteral("size"),
                 status.bytes > 0 ? QLocale::c().formattedDataSize(status.bytes) : none},
                {QStringLiteral("built"), status.builtAt.isValid() ? builtAtOf(status) : none},
                {QStringLiteral("agents"), status.agents.isEmpty() ? none : agentsOf(status)},
            });
    }
    if (status.present)
        return Exit::Ok;
    return context.failure(host::guestImageUnusable(status));
}

Exit runImageStatus(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("image status"),
             QStringLiteral("Show the guest image turns boot: where it is, whether it is up to "
                            "date\n(complete and carrying this installation's arizuko-guest), "
                            "stale or missing,\nand why; its size, build time and agents.\n"
                            "Exits 1 when turns cannot boot it.")},
            arguments))
        return *stop;
    return printStatus(context, host::inspectGuestImage());
}

Exit runImageBuild(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption force(QStringLiteral("force"),
                                   QStringLiteral("Rebuild even when the image is up to date."));
    const QCommandLineOption verbose(
        QStringLiteral("verbose"),
        QStringLiteral("Print every line of the builder (apt, npm, mkfs), not only its steps."));
    parser.addOptions({force, verbose});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("image build"),
             QStringLiteral(
                 "Build the guest image turns boot, as Arizuko Desktop's Build guest image\n"
                 "button does: from Debian's archive and the npm registry (downloads are\n"
                 "cached), into $ARIZUKO_GUEST_IMAGE_DIR or "
                 "$XDG_CACHE_HOME/arizuko-desktop/guest.\n"
                 "An image that is up to date is kept unless --force. Each step is printed\n"
                 "with the time since the start; Ctrl-C cancels the build and everything it\n"
                 "started, leaving the image that was there. Exits 1 when the build fails,\n"
                 "130 when it was cancelled.")},
            arguments))
        return *stop;

    const auto builder = host::locateGuestImageBuilder();
    if (!builder)
        return context.failure(builder.error());

    host::GuestImageBuild build;
    InterruptNotifier interrupts;
    QEventLoop loop;
    QElapsedTimer clock;
    QStringList tail; // the builder's last lines that were not shown
    std::optional<Outcome> outcome;
    QString summary;

    QTextStream &err = context.err();
    const auto show = [&err, &clock](const QString &text) {
        err << QStringLiteral("[%1s] ").arg(double(clock.elapsed()) / 1000, 6, 'f', 1)
            << inertLine(text) << "\n";
        err.flush();
    };
    QObject::connect(
        &build, &host::GuestImageBuild::progress, &loop, [&show](int percent, const QString &step) {
            show(QStringLiteral("%1% %2").arg(QString::number(percent).rightJustified(3), step));
        });
    QObject::connect(&build, &host::GuestImageBuild::logLine, &loop, [&](const QString &line) {
        if (!host::GuestImageBuild::stepOf(line).isEmpty())
            return; // shown as progress
        if (parser.isSet(verbose)) {
            err << "  " << inertLine(line) << "\n";
            err.flush();
            return;
        }
        tail << line;
        if (tail.size() > failureTailLines)
            tail.removeFirst();
    });
    QObject::connect(&build, &host::GuestImageBuild::finished, &loop,
                     [&](Outcome ended, const QString &text) {
                         outcome = ended;
                         summary = text;
                         loop.quit();
                     });
    QObject::connect(&interrupts, &InterruptNotifier::interrupted, &loop, [&] {
        if (outcome || !build.isRunning())
            return;
        show(QStringLiteral("interrupted: cancelling the build"));
        build.cancel();
    });

    clock.start();
    build.start(*builder, parser.isSet(force));
    if (!outcome)
        loop.exec();

    switch (*outcome) {
    case Outcome::Cancelled: {
        const host::GuestImageStatus left = host::inspectGuestImage(builder->outputDirectory);
        err << "arizukoctl: the guest image build was cancelled; the image in "
            << inertLine(left.directory) << " is " << stateOf(left) << "\n";
        err.flush();
        return Exit::Interrupted;
    }
    case Outcome::Failed:
        // The last line is the summary itself.
        if (!tail.isEmpty() && tail.last() == summary)
            tail.removeLast();
        for (const QString &line : std::as_const(tail))
            err << "  " << inertLine(line) << "\n";
        return context.failure(QStringLiteral("the guest image build failed: %1").arg(summary));
    case Outcome::Built:
        break;
    }
    // The builder's own word is not taken: turns boot what inspection accepts.
    return printStatus(context, host::inspectGuestImage(builder->outputDirectory));
}

} // namespace

Exit runImage(Context &context, const QStringList &arguments)
{
    return runSubcommand(
        context, QStringLiteral("image"), arguments,
        {
            {QStringLiteral("status"), QStringLiteral("status"), runImageStatus},
            {QStringLiteral("build"), QStringLiteral("build [--force] [--verbose]"), runImageBuild},
        });
}

} // namespace arizuko::cli
