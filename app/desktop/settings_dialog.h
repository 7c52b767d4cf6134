#pragma once

// What this engine runs with, read-only: each setting, its value, and the
// environment variable that changes it (settings come from the environment;
// editing them here is not done yet).

#include "turns/runner_settings.h"

#include <QDialog>

namespace arizuko::store {
class Store;
}

namespace arizuko::desktop {

class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    SettingsDialog(const store::Store &store, const turns::RunnerSettings &settings,
                   QWidget *parent = nullptr);
};

} // namespace arizuko::desktop
