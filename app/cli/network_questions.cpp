#include "network_questions.h"

#include "core/actors.h"
#include "store/store.h"
#include "subcommands.h"
#include "turns/egress_question_rows.h"

#include <QCommandLineParser>
#include <QJsonObject>

namespace arizuko::cli {

namespace {

Exit answer(Context &context, qint64 id, turns::QuestionAnswer answer)
{
    return withStore(context, [&](store::Store &store) {
        if (const Result<void> answered = turns::answerQuestion(store, id, answer, actors::cli);
            !answered)
            return context.failure(answered.error());
        const QString name = turns::questionAnswerName(answer);
        if (context.json())
            context.printJson(
                QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("answer"), name}});
        else
            context.out() << "question " << id << ": " << name << "\n";
        return Exit::Ok;
    });
}

std::optional<qint64> questionId(Context &context, const QString &text)
{
    bool number = false;
    const qint64 id = text.toLongLong(&number);
    if (number && id > 0)
        return id;
    context.failure(makeError(QStringLiteral("cli.bad-value"),
                              QStringLiteral("'%1' is not a question id").arg(text)));
    return std::nullopt;
}

} // namespace

Exit runNetworkPending(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("network pending"),
             QStringLiteral("List the open questions of turns whose folder asks about hosts on "
                            "no allow entry.")},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const Result<QList<turns::EgressQuestion>> open = turns::openQuestions(store);
        if (!open)
            return context.failure(open.error());
        context.printList(
            *open,
            {QStringLiteral("ID"), QStringLiteral("FOLDER"), QStringLiteral("TURN"),
             QStringLiteral("HOST"), QStringLiteral("PORT"), QStringLiteral("REQUEST"),
             QStringLiteral("EXPIRES")},
            [](const turns::EgressQuestion &question) { return turns::toJson(question); },
            [](const turns::EgressQuestion &question) {
                return QStringList{QString::number(question.id),
                                   question.folder,
                                   question.turnId.left(8),
                                   question.host,
                                   QString::number(question.port),
                                   (question.method + QLatin1Char(' ') + question.path).trimmed(),
                                   question.expiresAt.toLocalTime().toString(Qt::ISODate)};
            });
        return Exit::Ok;
    });
}

Exit runNetworkApprove(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption once(QStringLiteral("once"),
                                  QStringLiteral("Only the waiting request (the default)."));
    const QCommandLineOption turn(QStringLiteral("turn"),
                                  QStringLiteral("The host for the rest of the turn."));
    const QCommandLineOption always(
        QStringLiteral("always"),
        QStringLiteral("An allow rule for the host in the turn's folder (covers its "
                       "subdomains), and the rest of the turn."));
    parser.addOptions({once, turn, always});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("network approve"),
             QStringLiteral("Let a waiting request through. An approved host still goes through "
                            "every other check\n(deny rules, private and metadata addresses)."),
             {{QStringLiteral("id"), QStringLiteral("The question's id (network pending).")}}},
            arguments))
        return *stop;
    if (int(parser.isSet(once)) + int(parser.isSet(turn)) + int(parser.isSet(always)) > 1)
        return context.failure(
            makeError(QStringLiteral("cli.bad-value"),
                      QStringLiteral("give one of --once, --turn and --always")));
    const auto id = questionId(context, parser.positionalArguments().first());
    if (!id)
        return Exit::Failed;
    return answer(context, *id,
                  parser.isSet(always) ? turns::QuestionAnswer::Always
                  : parser.isSet(turn) ? turns::QuestionAnswer::Turn
                                       : turns::QuestionAnswer::Once);
}

bool isQuestionDenial(const QStringList &arguments)
{
    QStringList positionals;
    for (const QString &argument : arguments)
        if (!argument.startsWith(QLatin1Char('-')))
            positionals << argument;
    bool number = false;
    return positionals.size() == 1 && (positionals.first().toLongLong(&number), number);
}

Exit runNetworkDeny(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("network deny"),
             QStringLiteral("Deny a waiting request (403 user-denied). With a folder and a host "
                            "instead of an id,\nadds a deny rule (network deny --help of two "
                            "arguments)."),
             {{QStringLiteral("id"), QStringLiteral("The question's id (network pending).")}}},
            arguments))
        return *stop;
    const auto id = questionId(context, parser.positionalArguments().first());
    if (!id)
        return Exit::Failed;
    return answer(context, *id, turns::QuestionAnswer::Deny);
}

} // namespace arizuko::cli
