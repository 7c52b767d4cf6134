// arizukoctl export: the store as an arizuko manifest or a script of arizuko
// commands. The document goes to stdout or -o FILE; warnings and the rows
// left out go to stderr, so the document itself stays clean.

#include "commands.h"
#include "export/projection.h"
#include "export/script_writer.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QSaveFile>

namespace arizuko::cli {
namespace {

Result<void> writeOutput(Context &context, const QString &path, const QByteArray &bytes)
{
    if (path.isEmpty()) {
        context.out() << QString::fromUtf8(bytes);
        context.out().flush();
        return {};
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return makeError(QStringLiteral("export.write"),
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace

Exit runExport(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("export");
    QCommandLineParser parser;
    const QCommandLineOption format(QStringLiteral("format"),
                                    QStringLiteral("manifest (default) or script."),
                                    QStringLiteral("FORMAT"), QStringLiteral("manifest"));
    const QCommandLineOption folders(
        QStringLiteral("folders"),
        QStringLiteral("Export this folder and its subtree; repeat for more; '' is the base."),
        QStringLiteral("F"));
    const QCommandLineOption include(
        QStringLiteral("include"),
        QStringLiteral(
            "Also export these, comma-separated: acl, acl_membership, routes (each REPLACES the "
            "server's whole table), secrets (names only)."),
        QStringLiteral("LIST"));
    const QCommandLineOption unrepresentable(
        QStringLiteral("unrepresentable"),
        QStringLiteral("omit (default): leave such rows out; refuse: fail instead."),
        QStringLiteral("omit|refuse"), QStringLiteral("omit"));
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("Write to FILE, not stdout."),
                                    QStringLiteral("FILE"));
    parser.addOptions({format, folders, include, unrepresentable, output});
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Export folders, network rules and, when chosen, grants, memberships, routes and\n"
                 "secret names for an arizuko server: as its manifest (routd document, canonical\n"
                 "form, checksum) or as a shell script of arizuko commands. Rows arizuko cannot\n"
                 "represent are listed on stderr. On the server: arizuko plan, then apply "
                 "--force.")},
            arguments))
        return *stop;
    const QString chosenFormat = parser.value(format);
    if (chosenFormat != u"manifest" && chosenFormat != u"script")
        return context.usageError(
            QStringLiteral("export: --format '%1' is neither manifest nor script")
                .arg(chosenFormat));
    const QString chosenUnrepresentable = parser.value(unrepresentable);
    if (chosenUnrepresentable != u"omit" && chosenUnrepresentable != u"refuse")
        return context.usageError(
            QStringLiteral("export: --unrepresentable '%1' is neither omit nor refuse")
                .arg(chosenUnrepresentable));
    manifest::ExportOptions options;
    options.folders = parser.values(folders);
    for (const QString &list : parser.values(include))
        options.include += list.split(u',', Qt::SkipEmptyParts);
    options.unrepresentable = chosenUnrepresentable == u"refuse" ? manifest::Unrepresentable::Refuse
                                                                 : manifest::Unrepresentable::Omit;

    return withStore(context, [&](store::Store &store) {
        const Result<manifest::Projection> projection = manifest::project(store, options);
        if (!projection)
            return context.failure(projection.error());
        for (const QString &warning : projection->warnings)
            context.err() << "warning: " << warning << "\n";
        for (const manifest::LeftOut &row : projection->leftOut)
            context.err() << "left out: " << row.resource << " " << row.row << ": " << row.reason
                          << "\n";
        context.err().flush();
        const QByteArray bytes = chosenFormat == u"script" ? manifest::scriptText(*projection)
                                                           : manifest::manifestText(*projection);
        if (Result<void> written = writeOutput(context, parser.value(output), bytes); !written)
            return context.failure(written.error());
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
