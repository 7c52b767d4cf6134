#include "engine_thread.h"

#include "connectors/connector_broker.h"
#include "connectors/connector_catalogue.h"
#include "history/turn_history_recorder.h"
#include "store/store.h"
#include "turn_records/turn_records.h"
#include "turns/turn.h"
#include "turns/turn_runner.h"

#include <QThread>

namespace arizuko::desktop {

EngineThread::EngineThread(store::Store &store, const turns::RunnerSettings &settings,
                           QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_thread(new QThread(this))
    , m_anchor(std::make_unique<QObject>())
{
    // The mirror of live turns follows the reports; connected first, it is
    // up to date before any other receiver hears of a change.
    connect(this, &EngineThread::ready, this, [this](const host::AcceleratorChoice &accelerator) {
        m_ready = true;
        m_accelerator = accelerator;
    });
    connect(this, &EngineThread::turnQueued, this,
            [this](const turns::TurnRecord &turn) { m_live.append(turn); });
    connect(this, &EngineThread::turnPhaseChanged, this, &EngineThread::updateLive);
    connect(this, &EngineThread::turnFinished, this, [this](const turns::TurnRecord &turn) {
        m_live.removeIf([&turn](const turns::TurnRecord &live) { return live.id == turn.id; });
    });
    m_thread->setObjectName(QStringLiteral("engine"));
    m_anchor->moveToThread(m_thread);
    m_thread->start();
    // The runner's timers and watchers are members, not children: it must
    // be made on the thread it lives on, not moved there.
    QMetaObject::invokeMethod(
        m_anchor.get(),
        [this, settings] {
            m_history = std::make_unique<history::TurnHistoryRecorder>(
                m_store, history::snapshotOptions(settings));
            m_runner = std::make_unique<turns::TurnRunner>(m_store, settings);
            m_history->watch(*m_runner);
            connect(m_history.get(), &history::TurnHistoryRecorder::changesRecorded,
                    m_history.get(), [this](const QString &turnId) {
                        QMetaObject::invokeMethod(
                            this, [this, turnId] { emit turnChangesRecorded(turnId); },
                            Qt::QueuedConnection);
                    });
            // The window's runner outlives its turns: it may keep a spare.
            m_runner->setKeepsSpares(true);
            relay();
        },
        Qt::QueuedConnection);
}

EngineThread::~EngineThread()
{
    // Reports still queued for this object are dropped with it.
    QMetaObject::invokeMethod(
        m_anchor.get(),
        [this] {
            m_tries.reset();
            m_runner.reset();
            m_history.reset();
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

template<typename Call>
void EngineThread::onEngine(Call call)
{
    QMetaObject::invokeMethod(
        m_anchor.get(), [this, call] { call(*m_runner); }, Qt::QueuedConnection);
}

void EngineThread::start()
{
    onEngine([](turns::TurnRunner &runner) { runner.startInBackground(); });
}

void EngineThread::submit(const turns::TurnRequest &request)
{
    onEngine([this, request](turns::TurnRunner &runner) {
        if (const auto submitted = runner.submit(request); !submitted) {
            const QString message = submitted.error().message;
            QMetaObject::invokeMethod(
                this, [this, message] { emit requestFailed(message); }, Qt::QueuedConnection);
        }
    });
}

void EngineThread::cancel(const QString &turnId)
{
    onEngine([this, turnId](turns::TurnRunner &runner) {
        if (const Result<void> cancelled = runner.cancel(turnId); !cancelled) {
            const QString message = cancelled.error().message;
            QMetaObject::invokeMethod(
                this, [this, message] { emit requestFailed(message); }, Qt::QueuedConnection);
        }
    });
}

void EngineThread::suggestSpare(const QString &folder)
{
    onEngine([folder](turns::TurnRunner &runner) { runner.suggestSpare(folder); });
}

void EngineThread::prepareSpare(const QString &folder)
{
    onEngine([folder](turns::TurnRunner &runner) { runner.prepareSpare(folder); });
}

void EngineThread::discardSpare(const QString &why)
{
    onEngine([why](turns::TurnRunner &runner) { runner.discardSpare(why); });
}

void EngineThread::setKeepsSpares(bool keeps)
{
    onEngine([keeps](turns::TurnRunner &runner) { runner.setKeepsSpares(keeps); });
}

void EngineThread::askSpareName()
{
    onEngine([this](turns::TurnRunner &runner) {
        QMetaObject::invokeMethod(
            this, [this, name = runner.spareName()] { emit spareNamed(name); },
            Qt::QueuedConnection);
    });
}

void EngineThread::tryConnector(const QString &folder, const QString &tool,
                                const QJsonObject &arguments)
{
    QMetaObject::invokeMethod(
        m_anchor.get(),
        [this, folder, tool, arguments] {
            const auto report = [this, folder, tool](const connectors::ConnectorOutcome &outcome) {
                QMetaObject::invokeMethod(
                    this,
                    [this, folder, tool, outcome] {
                        emit connectorTried(folder, tool, outcome.text, outcome.isError);
                    },
                    Qt::QueuedConnection);
            };
            // Read now, so a Try uses the definition as the file says it
            // today; kept alive by the call it serves.
            auto catalogue = std::make_shared<connectors::ConnectorCatalogue>(
                connectors::ConnectorCatalogue::load(m_store.dataDir()));
            const connectors::CatalogueEntry entry = catalogue->find(tool);
            if (!entry.operation || !entry.operation->isRead())
                return report(
                    {tr("%1 is not a read (GET) operation of any connector").arg(tool), true});
            if (!m_tries)
                m_tries = std::make_unique<connectors::ConnectorBroker>(m_store);
            m_tries->call(entry, folder, QStringLiteral("gui"), arguments,
                          [catalogue, report](const connectors::ConnectorOutcome &outcome) {
                              report(outcome);
                          });
        },
        Qt::QueuedConnection);
}

void EngineThread::relay()
{
    using turns::Turn;
    using turns::TurnRunner;
    // Each report is copied here, on the engine thread, and handed to this
    // object's thread; nothing there touches a Turn.
    TurnRunner *runner = m_runner.get();
    const auto toWindow = [this](auto report) {
        QMetaObject::invokeMethod(this, std::move(report), Qt::QueuedConnection);
    };
    connect(runner, &TurnRunner::ready, runner, [this, runner, toWindow] {
        // arizukoctl prints these itself; the window's engine logs them.
        for (const QString &orphan : runner->startupReap().leftBehind)
            qWarning("left behind, could not be removed: %s", qPrintable(orphan));
        toWindow([this, accelerator = runner->accelerator()] { emit ready(accelerator); });
    });
    connect(runner, &TurnRunner::failed, runner, [this, toWindow](const Error &error) {
        toWindow([this, error] { emit failed(error); });
    });
    connect(runner, &TurnRunner::turnQueued, runner, [this, toWindow](Turn *turn) {
        toWindow([this, record = turn->record()] { emit turnQueued(record); });
    });
    connect(runner, &TurnRunner::turnPhaseChanged, runner, [this, toWindow](Turn *turn) {
        toWindow([this, record = turn->record()] { emit turnPhaseChanged(record); });
    });
    connect(runner, &TurnRunner::turnEvents, runner,
            [this, toWindow](Turn *turn, const QList<turns::TurnEventRecord> &events) {
                toWindow([this, id = turn->id(), events] { emit turnEvents(id, events); });
            });
    connect(runner, &TurnRunner::turnNetworkDecision, runner,
            [this, toWindow](Turn *turn, const QJsonObject &decision) {
                toWindow([this, record = turn->record(), decision] {
                    emit turnNetworkDecision(record, decision);
                });
            });
    connect(runner, &TurnRunner::spareReady, runner,
            [this, toWindow](const QString &name, const QString &folder) {
                toWindow([this, name, folder] { emit spareReady(name, folder); });
            });
    connect(runner, &TurnRunner::spareDiscarded, runner,
            [this, toWindow](const QString &name, const QString &why) {
                toWindow([this, name, why] { emit spareDiscarded(name, why); });
            });
    connect(runner, &TurnRunner::turnFinished, runner, [this, runner, toWindow](Turn *turn) {
        // As stored: the end time, cost and usage are written by now.
        const auto stored = runner->records().find(turn->id());
        toWindow([this, record = stored ? *stored : turn->record()] { emit turnFinished(record); });
    });
}

void EngineThread::updateLive(const turns::TurnRecord &turn)
{
    for (turns::TurnRecord &live : m_live) {
        if (live.id == turn.id)
            live = turn;
    }
}

} // namespace arizuko::desktop
