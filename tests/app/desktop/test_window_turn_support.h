#pragma once

// What the tests of the window with real turns in real VMs share: the
// runner's settings they start from, and the window shown with its engine
// ready.

#include "engine_ready.h"
#include "main_window.h"
#include "turns/runner_settings.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <optional>

// The runner's settings from the environment, read before test mode moves
// the standard paths (the guest image is the one in the real cache, or
// $ARIZUKO_GUEST_IMAGE_DIR's); then test mode, so the window's own settings
// (geometry, per-topic agent) stay apart from a real user's and from the
// last run's.
inline std::optional<arizuko::turns::RunnerSettings> windowTurnSettings()
{
    auto settings = arizuko::turns::RunnerSettings::fromEnvironment();
    if (!settings.ok()) {
        qWarning("%s", qPrintable(settings.error().message));
        return std::nullopt;
    }
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    return *settings;
}

// The window shown and its engine ready to run turns.
inline bool readyToRun(arizuko::desktop::MainWindow &window)
{
    window.resize(1500, 900);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && engineIsReady(window);
}
