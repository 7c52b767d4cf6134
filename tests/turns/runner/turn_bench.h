#pragma once

// What the runner's unit tests stand on: a real store in a temporary
// directory with folders (each with its topic `main`), its turn records,
// and a turn environment whose machines are fakes (fake_guest_machine.h).

#include "fake_guest_machine.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turns/turn_request.h"

#include <QStringList>
#include <QTemporaryDir>
#include <QUuid>
#include <memory>

namespace arizuko::turns {

struct TurnBench
{
    QTemporaryDir directory;
    std::unique_ptr<store::Store> store;
    std::unique_ptr<TurnRecords> records;
    std::unique_ptr<TurnEnvironment> environment;
    QList<FakeGuestMachine *> machines;

    explicit TurnBench(const QStringList &folders, const RunnerSettings &settings = {})
    {
        auto opened = store::Store::open(directory.filePath(QStringLiteral("data")));
        if (!opened)
            qFatal("store: %s", qPrintable(opened.error().message));
        store = std::move(*opened);
        const QString user = QStringLiteral("user:test");
        for (const QString &folder : folders) {
            if (!folders::Folders(*store, user).add(folder) ||
                !folders::Topics(*store, user).add(folder, QStringLiteral("main")))
                qFatal("no folder or topic %s", qPrintable(folder));
        }
        records = std::make_unique<TurnRecords>(*store);
        environment = fakeMachineEnvironment(*store, *records, settings, machines);
    }

    // A queued turn of `agent` in `folder`'s topic main, in the store.
    TurnRecord addTurn(AgentKind agent, const QString &folder = QStringLiteral("corp"),
                       const QString &prompt = QStringLiteral("hello"))
    {
        const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        TurnRecord record;
        record.id = id;
        record.name = QStringLiteral("az-") + id.left(8);
        record.folder = folder;
        record.topic = QStringLiteral("main");
        record.agent = agentKindName(agent);
        record.prompt = prompt;
        record.queuedAt = store::nowTimestamp();
        if (!records->insert(record))
            qFatal("no turn record");
        return record;
    }
};

} // namespace arizuko::turns
