#pragma once

// For tests of the real transcript page: run a script in it and wait for
// the answer, and wait until a script's answer is true.

#include <QEventLoop>
#include <QPointer>
#include <QTest>
#include <QTimer>
#include <QWebEnginePage>

inline QVariant runJavaScript(QWebEnginePage *page, const QString &script, int timeoutMs = 10000)
{
    QVariant answer;
    QEventLoop loop;
    QPointer<QEventLoop> guard(&loop);
    page->runJavaScript(script, [&answer, guard](const QVariant &value) {
        // The callback may come after the loop gave up: only answer a live one.
        if (!guard)
            return;
        answer = value;
        guard->quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return answer;
}

inline bool waitForScript(QWebEnginePage *page, const QString &script, int timeoutMs = 15000)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        if (runJavaScript(page, script).toBool())
            return true;
        QTest::qWait(50);
    }
    return false;
}
