#include "core/actors.h"
#include "engine/workspace.h"

namespace arizuko::engine {

void Workspace::listFolders(QObject *context,
                            std::function<void(Result<QList<folders::Folder>>)> done)
{
    ask(
        context, [](store::Store &store) { return folders::Folders(store, actors::gui).list(); },
        std::move(done));
}

} // namespace arizuko::engine
