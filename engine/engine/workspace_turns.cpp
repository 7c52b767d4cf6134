#include "core/actors.h"
#include "engine/workspace.h"
#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "policy/policy.h"
#include "store/store.h"
#include "turns/runner_settings.h"

#include <QDir>

namespace arizuko::engine {

void Workspace::topicTurns(const QString &folder, const QString &topic, QObject *context,
                           std::function<void(Result<QList<turns::TurnRecord>>)> done)
{
    ask(
        context,
        [folder, topic](store::Store &store) {
            return turns::TurnRecords(store).ofTopic(folder, topic);
        },
        std::move(done));
}

void Workspace::topicActivity(const QString &folder, const QString &topic, QObject *context,
                              std::function<void(Result<turns::TopicActivity>)> done)
{
    ask(
        context,
        [folder, topic](store::Store &store) {
            return turns::TurnRecords(store).topicActivity(folder, topic);
        },
        std::move(done));
}

void Workspace::topicPageBefore(const QStringList &turnIds, turns::TopicCursor cursor,
                                turns::PageSize size, QObject *context,
                                std::function<void(turns::TopicPage)> done)
{
    ask(
        context,
        [turnIds, cursor, size](store::Store &store) {
            return turns::topicPageBefore(store, turnIds, cursor, size);
        },
        std::move(done));
}

void Workspace::turnsEvents(const QStringList &turnIds, QObject *context,
                            std::function<void(QList<QList<turns::TurnEventRecord>>)> done)
{
    ask(
        context,
        [turnIds](store::Store &store) {
            QList<QList<turns::TurnEventRecord>> events(turnIds.size());
            turns::TurnRecords records(store);
            for (qsizetype index = 0; index < turnIds.size(); ++index) {
                if (const auto read = records.events(turnIds[index]))
                    events[index] = *read;
            }
            return events;
        },
        std::move(done));
}

void Workspace::networkEventsBefore(const QString &turn, qint64 beforeSeq, int limit,
                                    QObject *context,
                                    std::function<void(Result<QList<turns::TurnEventRecord>>)> done)
{
    ask(
        context,
        [turn, beforeSeq, limit](store::Store &store) {
            return turns::eventsOfKindBefore(store, turn, QStringLiteral("network"), beforeSeq,
                                             limit);
        },
        std::move(done));
}

void Workspace::allowHost(const QString &folder, const QString &host, QObject *context,
                          std::function<void(Result<QString>)> done)
{
    ask(
        context,
        [folder, host](store::Store &store) -> Result<QString> {
            const auto added = policy::Policy(store).network().add(
                folder, host, policy::RuleKind::Allow, actors::gui);
            if (!added)
                return added.error();
            return added->rule.target;
        },
        std::move(done));
}

void Workspace::openQuestions(QObject *context,
                              std::function<void(Result<QList<turns::EgressQuestion>>)> done)
{
    ask(
        context, [](store::Store &store) { return turns::openQuestions(store); }, std::move(done));
}

void Workspace::answerQuestion(qint64 id, turns::QuestionAnswer answer, QObject *context,
                               std::function<void(Result<void>)> done)
{
    ask(
        context,
        [id, answer](store::Store &store) {
            return turns::answerQuestion(store, id, answer, actors::gui);
        },
        std::move(done));
}

QString Workspace::consoleLogPath(const QString &turn) const
{
    return QDir(m_store.dataDir()).filePath(QStringLiteral("turns/%1/console.log").arg(turn));
}

void Workspace::turnChanges(const turns::TurnRecord &turn, QObject *context,
                            std::function<void(Result<history::TurnChanges>)> done)
{
    ask(
        context,
        [turn](store::Store &store) -> Result<history::TurnChanges> {
            const auto snapshot = history::savedSnapshotOptions(store);
            if (!snapshot)
                return snapshot.error();
            return history::turnChanges(store, turn, *snapshot, true);
        },
        std::move(done));
}

void Workspace::historyUse(const QString &folder, QObject *context,
                           std::function<void(Result<QString>)> done)
{
    ask(
        context,
        [folder](store::Store &store) -> Result<QString> {
            const auto snapshot = history::savedSnapshotOptions(store);
            if (!snapshot)
                return snapshot.error();
            const auto use = history::folderHistoryUse(store, folder, *snapshot);
            if (!use)
                return use.error();
            return history::historyUseText(*use, snapshot->retention);
        },
        std::move(done));
}

void Workspace::undoTurn(const turns::TurnRecord &turn, history::UndoMode mode, QObject *context,
                         std::function<void(Result<history::UndoReport>)> done)
{
    ask(
        context,
        [turn, mode](store::Store &store) -> Result<history::UndoReport> {
            const auto snapshot = history::savedSnapshotOptions(store);
            if (!snapshot)
                return snapshot.error();
            return history::undoTurn(store, turn, mode, *snapshot, actors::gui);
        },
        std::move(done));
}

} // namespace arizuko::engine
