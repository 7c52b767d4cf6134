#pragma once

// A gate for the read of a topic's session file (agent::inspectAgentSession):
// where it ran, and a hold until the test opens it (at most 10 s, so that a
// read on the test's own thread cannot hang the test). Install
// holdTheSessionRead with agent::setSessionInspectionHook.

#include <QAtomicPointer>
#include <QSemaphore>
#include <QTest>
#include <QThread>

inline QAtomicPointer<QThread> readingThread;
inline QSemaphore readStarted;
inline QSemaphore readMayGoOn;

inline void holdTheSessionRead()
{
    readingThread.storeRelease(QThread::currentThread());
    readStarted.release();
    readMayGoOn.tryAcquire(1, 10000);
}

// Turns the test's event loop until a session read has started.
inline bool aReadStarted()
{
    bool started = false;
    return QTest::qWaitFor([&started] { return started || (started = readStarted.tryAcquire()); },
                           15000);
}
