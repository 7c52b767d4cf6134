#include "engine/engine_impl.h"

#include "connectors/connector_broker.h"
#include "connectors/connector_catalogue.h"
#include "core/actors.h"
#include "engine/workspace_store.h"
#include "history/turn_history_recorder.h"
#include "store/store.h"
#include "turn_records/turn_records.h"
#include "turns/turn.h"
#include "turns/turn_runner.h"

#include <QThread>

namespace arizuko::engine {

template<typename Call>
void EngineImpl::onEngine(Call call)
{
    QMetaObject::invokeMethod(
        m_anchor.get(), [this, call] { call(*m_runner); }, Qt::QueuedConnection);
}

template<typename Report>
void EngineImpl::toCaller(Report report)
{
    QMetaObject::invokeMethod(this, std::move(report), Qt::QueuedConnection);
}

EngineImpl::EngineImpl(store::Store &store, const turns::RunnerSettings &settings, QObject *parent)
    : Engine(parent)
    , m_store(store)
    , m_thread(new QThread(this))
    , m_anchor(std::make_unique<QObject>())
{
    // The mirror follows the reports; connected first, it is up to date
    // before any other receiver hears of a change.
    connect(this, &Engine::ready, this, [this](const host::AcceleratorChoice &accelerator) {
        m_ready = true;
        m_accelerator = accelerator;
    });
    connect(this, &Engine::turnQueued, this,
            [this](const turns::TurnRecord &turn) { m_live.append(turn); });
    connect(this, &Engine::turnPhaseChanged, this, &EngineImpl::updateLive);
    connect(this, &Engine::turnFinished, this, [this](const turns::TurnRecord &turn) {
        m_live.removeIf([&turn](const turns::TurnRecord &live) { return live.id == turn.id; });
    });
    m_thread->setObjectName(QStringLiteral("engine"));
    m_anchor->moveToThread(m_thread);
    m_thread->start();
    // The runner's timers and watchers are members, not children: it must
    // be made on the thread it lives on, not moved there.
    QMetaObject::invokeMethod(
        m_anchor.get(), [this, settings] { assemble(settings); }, Qt::QueuedConnection);
}

EngineImpl::EngineImpl(Workspace &workspace, const turns::RunnerSettings &settings, QObject *parent)
    : EngineImpl(storeOf(workspace), settings, parent)
{}

EngineImpl::~EngineImpl()
{
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

void EngineImpl::assemble(const turns::RunnerSettings &settings)
{
    // The recorder first, so it is destroyed after the runner: the
    // runner's turns tear down in its destructor and queue their last
    // snapshots, which the recorder's destructor waits for.
    m_history =
        std::make_unique<history::TurnHistoryRecorder>(m_store, history::snapshotOptions(settings));
    m_runner = std::make_unique<turns::TurnRunner>(m_store, settings);
    m_history->watch(*m_runner);
    connect(m_history.get(), &history::TurnHistoryRecorder::changesRecorded, m_history.get(),
            [this](const QString &turnId) {
                toCaller([this, turnId] { emit turnChangesRecorded(turnId); });
            });
    connect(m_history.get(), &history::TurnHistoryRecorder::budgetRanOut, m_history.get(),
            [this](const QString &turnId, bool after, const QString &note) {
                toCaller(
                    [this, turnId, after, note] { emit historyBudgetRanOut(turnId, after, note); });
            });
    relay();
}

void EngineImpl::start()
{
    onEngine([](turns::TurnRunner &runner) { runner.startInBackground(); });
}

void EngineImpl::submit(const turns::TurnRequest &request)
{
    onEngine([this, request](turns::TurnRunner &runner) {
        if (const auto submitted = runner.submit(request); !submitted)
            toCaller([this, message = submitted.error().message] { emit requestFailed(message); });
    });
}

void EngineImpl::cancel(const QString &turnId)
{
    onEngine([this, turnId](turns::TurnRunner &runner) {
        if (const Result<void> cancelled = runner.cancel(turnId); !cancelled)
            toCaller([this, message = cancelled.error().message] { emit requestFailed(message); });
    });
}

void EngineImpl::cancelAll(const QString &why)
{
    onEngine([why](turns::TurnRunner &runner) {
        for (turns::Turn *turn : runner.turns())
            turn->cancel(why);
    });
}

void EngineImpl::suggestSpare(const QString &folder)
{
    onEngine([folder](turns::TurnRunner &runner) { runner.suggestSpare(folder); });
}

void EngineImpl::prepareSpare(const QString &folder)
{
    onEngine([folder](turns::TurnRunner &runner) { runner.prepareSpare(folder); });
}

void EngineImpl::discardSpare(const QString &why)
{
    onEngine([why](turns::TurnRunner &runner) { runner.discardSpare(why); });
}

void EngineImpl::setKeepsSpares(bool keeps)
{
    onEngine([keeps](turns::TurnRunner &runner) { runner.setKeepsSpares(keeps); });
}

void EngineImpl::askSpareName()
{
    onEngine([this](turns::TurnRunner &runner) {
        toCaller([this, name = runner.spareName()] { emit spareNamed(name); });
    });
}

void EngineImpl::tryConnector(const QString &folder, const QString &tool,
                              const QJsonObject &arguments)
{
    QMetaObject::invokeMethod(
        m_anchor.get(),
        [this, folder, tool, arguments] {
            const auto report = [this, folder, tool](const connectors::ConnectorOutcome &outcome) {
                toCaller([this, folder, tool, outcome] {
                    emit connectorTried(folder, tool, outcome.text, outcome.isError);
                });
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
            m_tries->call(entry, folder, actors::guiTry, arguments,
                          [catalogue, report](const connectors::ConnectorOutcome &outcome) {
                              report(outcome);
                          });
        },
        Qt::QueuedConnection);
}

void EngineImpl::relay()
{
    using turns::Turn;
    using turns::TurnRunner;
    // Each report is copied here, on the engine thread, and handed to this
    // object's thread; nothing there touches a Turn.
    TurnRunner *runner = m_runner.get();
    connect(runner, &TurnRunner::ready, runner, [this, runner] {
        toCaller([this, accelerator = runner->accelerator(), reaped = runner->startupReap()] {
            emit ready(accelerator, reaped);
        });
    });
    connect(runner, &TurnRunner::failed, runner,
            [this](const Error &error) { toCaller([this, error] { emit failed(error); }); });
    connect(runner, &TurnRunner::turnQueued, runner, [this](Turn *turn) {
        toCaller([this, record = turn->record()] { emit turnQueued(record); });
    });
    connect(runner, &TurnRunner::turnPhaseChanged, runner, [this](Turn *turn) {
        toCaller([this, record = turn->record()] { emit turnPhaseChanged(record); });
    });
    connect(runner, &TurnRunner::turnEvents, runner,
            [this](Turn *turn, const QList<turns::TurnEventRecord> &events) {
                toCaller([this, id = turn->id(), events] { emit turnEvents(id, events); });
            });
    connect(runner, &TurnRunner::turnNetworkDecision, runner,
            [this](Turn *turn, const QJsonObject &decision) {
                toCaller([this, record = turn->record(), decision] {
                    emit turnNetworkDecision(record, decision);
                });
            });
    connect(runner, &TurnRunner::spareReady, runner,
            [this](const QString &name, const QString &folder) {
                toCaller([this, name, folder] { emit spareReady(name, folder); });
            });
    connect(runner, &TurnRunner::spareDiscarded, runner,
            [this](const QString &name, const QString &why) {
                toCaller([this, name, why] { emit spareDiscarded(name, why); });
            });
    connect(runner, &TurnRunner::turnFinished, runner, [this, runner](Turn *turn) {
        // As stored: the end time, cost and usage are written by now.
        const auto stored = runner->records().find(turn->id());
        toCaller([this, record = stored ? *stored : turn->record()] { emit turnFinished(record); });
    });
}

void EngineImpl::updateLive(const turns::TurnRecord &turn)
{
    for (turns::TurnRecord &live : m_live) {
        if (live.id == turn.id)
            live = turn;
    }
}

} // namespace arizuko::engine
