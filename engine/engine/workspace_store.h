#pragma once

// The store behind a Workspace, for engine code that is handed a Workspace
// and needs the store itself (EngineImpl, say). Front-end code never
// includes this: it asks the Workspace.

#include "engine/workspace.h"

namespace arizuko::engine {

store::Store &storeOf(Workspace &workspace);

} // namespace arizuko::engine
