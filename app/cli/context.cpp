#include "context.h"

#include "terminal_text.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace arizuko::cli {

Context::Context(GlobalOptions options, QTextStream &out, QTextStream &err)
    : m_options(std::move(options))
    , m_out(out)
    , m_err(err)
{}

std::optional<Exit> Context::parse(QCommandLineParser &parser, const CommandLine &line,
                                   const QStringList &arguments)
{
    parser.setApplicationDescription(line.description);
    for (const Positional &positional : line.positionals)
        parser.addPositionalArgument(positional.name, positional.help, positional.syntax);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("arizukoctl ") + line.command} + arguments))
        return usageError(QStringLiteral("%1: %2").arg(line.command, parser.errorText()));
    if (parser.isSet(help)) {
        m_out << parser.helpText();
        m_out.flush();
        return Exit::Ok;
    }
    const QStringList given = parser.positionalArguments();
    const auto required = std::count_if(
        line.positionals.cbegin(), line.positionals.cend(),
        [](const Positional &positional) { return positional.kind == Positional::Kind::Required; });
    if (given.size() < required)
        return usageError(QStringLiteral("%1: missing <%2>")
                              .arg(line.command, line.positionals[given.size()].name));
    const bool variadic =
        !line.positionals.isEmpty() && line.positionals.last().kind == Positional::Kind::Variadic;
    if (!variadic && given.size() > line.positionals.size())
        return usageError(line.tooMany.isEmpty()
                              ? QStringLiteral("%1: unexpected argument '%2'")
                                    .arg(line.command, given[line.positionals.size()])
                              : QStringLiteral("%1: %2").arg(line.command, line.tooMany));
    return std::nullopt;
}

Exit Context::usageError(const QString &message)
{
    m_err << "arizukoctl: " << message << "\n"
          << "Try 'arizukoctl --help' for usage.\n";
    m_err.flush();
    return Exit::Usage;
}

Exit Context::failure(const QString &message)
{
    // Errors name what a guest wrote too (a file of its home).
    m_err << "arizukoctl: " << inertForTerminal(message) << "\n";
    m_err.flush();
    return Exit::Failed;
}

Exit Context::failure(const Error &error)
{
    return failure(error.message);
}

void Context::printTable(const QStringList &headers, const QList<QStringList> &cells)
{
    // Cells hold what guests wrote (topics, errors, audit details).
    QList<QStringList> rows;
    for (const QStringList &row : cells) {
        QStringList &shown = rows.emplaceBack();
        for (const QString &cell : row)
            shown << inertLine(cell);
    }
    QList<qsizetype> widths(headers.size(), 0);
    const auto measure = [&widths](const QStringList &row) {
        for (qsizetype column = 0; column < row.size() && column < widths.size(); ++column)
            widths[column] = std::max(widths[column], row[column].size());
    };
    measure(headers);
    for (const QStringList &row : rows)
        measure(row);

    const auto print = [this, &widths](const QStringList &row) {
        QString line;
        for (qsizetype column = 0; column < row.size(); ++column) {
            const bool last = column + 1 == row.size();
            line += last ? row[column] : row[column].leftJustified(widths[column] + 2);
        }
        m_out << line << "\n";
    };
    print(headers);
    for (const QStringList &row : rows)
        print(row);
    m_out.flush();
}

void Context::printJson(const QJsonValue &value)
{
    QJsonDocument document;
    if (value.isArray())
        document.setArray(value.toArray());
    else
        document.setObject(value.toObject());
    m_out << inertJson(document, QJsonDocument::Indented);
    m_out.flush();
}

} // namespace arizuko::cli
