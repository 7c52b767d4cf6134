#include "turns/turn_home.h"

#include "core/actors.h"
#include "folders/folders.h"
#include "store/store.h"

namespace arizuko::turns {
namespace {

// Reads only: nothing is audited under this name.
Error unsafeHome(const QString &folder, const QString &why)
{
    return makeError(
        QStringLiteral("turns.unsafe-home"),
        QStringLiteral("the home of folder '%1' is not shared with a VM: %2").arg(folder, why));
}

} // namespace

Result<TurnHome> resolveTurnHome(store::Store &store, const QString &folder)
{
    const Result<folders::Home> home = folders::Folders(store, actors::turns).home(folder);
    if (!home)
        return home.error();
    const Result<store::OpenedDirectory> opened =
        folders::Folders::openHome(store.dataDir(), home->id);
    if (!opened)
        return unsafeHome(folder, opened.error().message);
    return TurnHome{folder, home->id, home->path, opened->identity};
}

Result<void> checkTurnHome(const QString &dataDir, const TurnHome &home)
{
    const Result<store::OpenedDirectory> opened = folders::Folders::openHome(dataDir, home.id);
    if (!opened)
        return unsafeHome(home.folder, opened.error().message);
    if (opened->identity != home.identity)
        return unsafeHome(
            home.folder,
            QStringLiteral("%1 was replaced after the turn was planned").arg(home.path));
    return {};
}

} // namespace arizuko::turns
