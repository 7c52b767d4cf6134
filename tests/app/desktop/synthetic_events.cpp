#include "synthetic_events.h"

#include "store/timestamp.h"

#include <QJsonObject>
#include <QUuid>

namespace arizuko::desktop {

turns::TurnRecord syntheticTurn(const QString &folder, const QString &topic, turns::TurnState state,
                                const QString &agent)
{
    turns::TurnRecord record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.name = QStringLiteral("az-") + record.id.left(8);
    record.folder = folder;
    record.topic = topic;
    record.agent = agent;
    record.prompt = QStringLiteral("a synthetic turn");
    record.state = state;
    record.queuedAt = store::nowTimestamp();
    if (state != turns::TurnState::Queued) {
        record.preparingAt = record.queuedAt;
        record.bootingAt = record.queuedAt;
        record.runningAt = record.queuedAt;
    }
    return record;
}

QList<turns::TurnEventRecord> syntheticEvents(const QString &turn, int count, qint64 firstSeq)
{
    QList<turns::TurnEventRecord> events;
    // Numbered by seq, so a later slice of the same turn continues it.
    for (int i = int(firstSeq) - 1; i < int(firstSeq) - 1 + count; ++i) {
        const qint64 seq = i + 1;
        const QString at = store::nowTimestamp();
        switch (i % 4) {
        case 0: {
            QString text =
                QStringLiteral("Step %1: I **look** at `file%1.txt` and then decide.").arg(i);
            // Every other text has a code block.
            if (i % 8 == 0)
                text += QStringLiteral("\n\n```python\nimport os\n\ndef step_%1(path):\n"
                                       "    # read it\n    with open(path) as f:\n"
                                       "        return f.read().count('%1')\n```\n")
                            .arg(i);
            events.append({turn, seq, QStringLiteral("text"),
                           QJsonObject{{QStringLiteral("text"), text}}, at});
            break;
        }
        case 1: {
            // Bash, Edit and Write in turn.
            const int kind = (i / 4) % 3;
            const QString name = kind == 0   ? QStringLiteral("Bash")
                                 : kind == 1 ? QStringLiteral("Edit")
                                             : QStringLiteral("Write");
            const QString file = QStringLiteral("src/file%1.py").arg(i);
            const QJsonObject input =
                kind == 0   ? QJsonObject{{QStringLiteral("command"),
                                           QStringLiteral("cat file%1.txt").arg(i)}}
                : kind == 1 ? QJsonObject{{QStringLiteral("file_path"), file},
                                          {QStringLiteral("old_string"),
                                           QStringLiteral("def f():\n    return %1\n").arg(i)},
                                          {QStringLiteral("new_string"),
                                           QStringLiteral("def f():\n    return %1 + 1\n").arg(i)}}
                            : QJsonObject{{QStringLiteral("file_path"), file},
                                          {QStringLiteral("content"),
                                           QStringLiteral("import sys\n\nprint(%1)\n").arg(i)}};
            events.append(
                {turn, seq, QStringLiteral("tool_use"),
                 QJsonObject{{QStringLiteral("id"), QStringLiteral("toolu_%1").arg(i)},
                             {QStringLiteral("name"), name},
                             {QStringLiteral("summary"),
                              name + QStringLiteral(": ") +
                                  (kind == 0 ? QStringLiteral("cat file%1.txt").arg(i) : file)},
                             {QStringLiteral("input"), input}},
                 at});
            break;
        }
        case 2:
            events.append(
                {turn, seq, QStringLiteral("tool_result"),
                 QJsonObject{
                     {QStringLiteral("tool_use_id"), QStringLiteral("toolu_%1").arg(i - 1)},
                     {QStringLiteral("content"), QStringLiteral("line one\nline two\nline three")}},
                 at});
            break;
        default:
            events.append({turn, seq, QStringLiteral("network"),
                           QJsonObject{{QStringLiteral("event"), QStringLiteral("decision")},
                                       {QStringLiteral("host"), QStringLiteral("example.org")},
                                       {QStringLiteral("port"), 443},
                                       {QStringLiteral("decision"), QStringLiteral("allow")},
                                       {QStringLiteral("reason"), QStringLiteral("allowed")}},
                           at});
        }
    }
    return events;
}

} // namespace arizuko::desktop
