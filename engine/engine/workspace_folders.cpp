#include "core/actors.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "secrets/folder_move.h"

namespace arizuko::engine {

void Workspace::listFolders(QObject *context,
                            std::function<void(Result<QList<folders::Folder>>)> done)
{
    ask(
        context, [](store::Store &store) { return folders::Folders(store, actors::gui).list(); },
        std::move(done));
}

void Workspace::ownNetworkSettings(const QString &folder, QObject *context,
                                   std::function<void(Result<folders::NetworkSettings>)> done)
{
    ask(
        context,
        [folder](store::Store &store) { return folders::ownNetworkSettings(store, folder); },
        std::move(done));
}

void Workspace::setNetworkSettings(const QString &folder, const folders::NetworkSettings &settings,
                                   QObject *context, std::function<void(Result<void>)> done)
{
    ask(
        context,
        [folder, settings](store::Store &store) {
            return folders::setNetworkSettings(store, folder, settings, actors::gui);
        },
        std::move(done));
}

void Workspace::ledgerRetention(const QString &folder, QObject *context,
                                std::function<void(Result<int>)> done)
{
    ask(
        context,
        [folder](store::Store &store) { return ledger::Ledger(store).retentionDays(folder); },
        std::move(done));
}

void Workspace::setLedgerRetention(const QString &folder, int days, QObject *context,
                                   std::function<void(Result<void>)> done)
{
    ask(
        context,
        [folder, days](store::Store &store) {
            return ledger::Ledger(store).setRetentionDays(folder, days, actors::gui);
        },
        std::move(done));
}

void Workspace::exportLedger(const ledger::LedgerFilter &filter, ledger::LedgerFormat format,
                             const QString &path, std::shared_ptr<ledger::ExportProgress> progress,
                             QObject *context, std::function<void(Result<qint64>)> done)
{
    ask(
        context,
        [filter, format, path, progress](store::Store &store) {
            ledger::Ledger ledger(store);
            return ledger::exportLedger(ledger, filter, format, path, *progress);
        },
        std::move(done));
}

void Workspace::addFolder(const QString &path, QObject *context,
                          std::function<void(Result<folders::Folder>)> done)
{
    ask(
        context,
        [path](store::Store &store) { return folders::Folders(store, actors::gui).add(path); },
        std::move(done));
}

void Workspace::addTopic(const QString &folder, const QString &name, QObject *context,
                         std::function<void(Result<folders::Topic>)> done)
{
    ask(
        context,
        [folder, name](store::Store &store) {
            return folders::Topics(store, actors::gui).add(folder, name);
        },
        std::move(done));
}

void Workspace::renameTopic(const QString &folder, const QString &topic, const QString &name,
                            QObject *context, std::function<void(Result<folders::Topic>)> done)
{
    ask(
        context,
        [folder, topic, name](store::Store &store) {
            return folders::Topics(store, actors::gui).rename(folder, topic, name);
        },
        std::move(done));
}

void Workspace::moveFolder(const QString &from, const QString &to, QObject *context,
                           std::function<void(Result<QStringList>)> done)
{
    ask(
        context,
        [from, to](store::Store &store) {
            return secrets::moveFolder(store, actors::gui, from, to);
        },
        std::move(done));
}

void Workspace::removeFolder(const QString &path, QObject *context,
                             std::function<void(Result<QStringList>)> done)
{
    ask(
        context,
        [path](store::Store &store) {
            return folders::Folders(store, actors::gui).remove(path, true);
        },
        std::move(done));
}

void Workspace::removeTopic(const QString &folder, const QString &topic, QObject *context,
                            std::function<void(Result<void>)> done)
{
    ask(
        context,
        [folder, topic](store::Store &store) {
            return folders::Topics(store, actors::gui).remove(folder, topic);
        },
        std::move(done));
}

void Workspace::checkFirstRun(const turns::RunnerSettings &settings, QObject *context,
                              std::function<void(turns::FirstRunCheck)> done)
{
    ask(
        context, [settings](store::Store &store) { return turns::checkFirstRun(store, settings); },
        std::move(done));
}

void Workspace::createDemoFolder(QObject *context, std::function<void(Result<QString>)> done)
{
    ask(
        context, [](store::Store &store) { return turns::createDemoFolder(store, actors::gui); },
        std::move(done));
}

void Workspace::planImport(const QByteArray &manifest, QObject *context,
                           std::function<void(Result<manifest::ImportPlan>)> done)
{
    ask(
        context, [manifest](store::Store &store) { return manifest::planImport(store, manifest); },
        std::move(done));
}

void Workspace::applyImport(const QByteArray &manifest, QObject *context,
                            std::function<void(Result<manifest::ImportPlan>)> done)
{
    ask(
        context,
        [manifest](store::Store &store) {
            return manifest::applyImport(store, manifest, actors::desktop);
        },
        std::move(done));
}

void Workspace::previewExport(const manifest::ExportOptions &options, ExportWriter write,
                              QObject *context, std::function<void(Result<ExportPreview>)> done)
{
    ask(
        context,
        [options, write](store::Store &store) -> Result<ExportPreview> {
            auto projection = manifest::project(store, options);
            if (!projection)
                return projection.error();
            QByteArray text = write(*projection);
            return ExportPreview{std::move(projection).value(), std::move(text)};
        },
        std::move(done));
}

} // namespace arizuko::engine
