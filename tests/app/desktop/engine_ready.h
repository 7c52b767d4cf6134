#pragma once

// Waiting for a window's engine the way its user does: until it is ready,
// or until the status bar gives the engine's own reason why not (libvirtd
// down, no image, a start-up failure), which the test then prints.

#include "engine/engine.h"
#include "main_window.h"

#include <QStatusBar>
#include <QTest>

inline bool engineIsReady(arizuko::desktop::MainWindow &window, int timeoutMs = 120000)
{
    const QString cannot = QStringLiteral("The engine cannot run turns");
    const bool settled = QTest::qWaitFor(
        [&window, &cannot] {
            return window.engine()->isReady() ||
                   window.statusBar()->currentMessage().startsWith(cannot);
        },
        timeoutMs);
    if (window.engine()->isReady())
        return true;
    if (!settled)
        qWarning("the engine neither got ready nor failed within %d s", timeoutMs / 1000);
    qWarning("%s", qPrintable(window.statusBar()->currentMessage()));
    return false;
}
