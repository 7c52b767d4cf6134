#pragma once

// A widget's picture into the build tree (SCREENSHOT_DIR, from
// ARIZUKO_SCREENSHOT_DIR), where a person looks at it; `docs-screenshots`
// copies the user guide's from there.

#include <QDir>
#include <QTest>
#include <QWidget>

namespace arizuko::desktop {

inline void screenshot(QWidget &widget, const QString &name, int settleMs = 50)
{
    widget.show();
    QTest::qWait(settleMs); // the last paint
    QDir().mkpath(QStringLiteral(SCREENSHOT_DIR));
    const QString path = QStringLiteral(SCREENSHOT_DIR "/%1.png").arg(name);
    if (!widget.grab().save(path))
        qWarning("could not save %s", qPrintable(path));
}

} // namespace arizuko::desktop
