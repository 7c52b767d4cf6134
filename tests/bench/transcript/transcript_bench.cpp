// Transcript benchmark: (1) appending 10,000 events to the open transcript,
// in batches as a running turn delivers them, until all are in the DOM:
// ms per event and the page's JS heap; (2) opening a topic whose turn has
// 10,000 stored events: time until the first screen is drawn. Some of the
// text has code blocks and some tool calls are edits and writes, which the
// page highlights. With --reference-page FILE.rcc the views load the page
// in that resource file (another revision's, made by `run --reference`)
// instead of this build's.

#include "engine/workspace.h"
#include "folders/folders.h"
#include "stall_meter.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "synthetic_events.h"
#include "transcript_bridge.h"
#include "transcript_page.h"
#include "transcript_view.h"
#include "turn_records/turn_records.h"
#include "web_test_support.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QResource>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace arizuko;

namespace {

constexpr int eventCount = 10000;
// A running turn's batches are a few events each.
constexpr int batchSize = 4;
// A paced stream: what a busy turn delivers.
constexpr int pacedEvents = 400;
constexpr int pacedIntervalMs = 25;

turns::TurnRecord turnRecord(const QString &id)
{
    turns::TurnRecord record;
    record.id = id;
    record.name = QStringLiteral("az-") + id.left(8);
    record.folder = QStringLiteral("bench");
    record.topic = QStringLiteral("main");
    record.agent = QStringLiteral("claude");
    record.prompt = QStringLiteral("benchmark");
    record.state = turns::TurnState::Running;
    record.queuedAt = store::nowTimestamp();
    return record;
}

const QString itemCount = QStringLiteral("document.querySelectorAll('section.turn > *').length");

// Another revision's page (`run --reference`), registered under :/reference.
bool g_referencePage = false;

// A transcript view showing this build's page or the reference's.
void usePage(desktop::TranscriptView &view)
{
    if (g_referencePage)
        view.page()->load(QUrl(QStringLiteral("qrc:/reference/transcript/transcript.html")));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    if (const qsizetype at = arguments.indexOf(QStringLiteral("--reference-page")); at > 0) {
        if (!QResource::registerResource(arguments.value(at + 1), QStringLiteral("/reference"))) {
            std::printf("cannot read the reference page %s\n", qPrintable(arguments.value(at + 1)));
            return 2;
        }
        g_referencePage = true;
        std::printf("page: the reference's (%s)\n", qPrintable(arguments.value(at + 1)));
    }
    QTemporaryDir directory;
    auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
    if (!store ||
        !folders::Folders(**store, QStringLiteral("user:bench")).add(QStringLiteral("bench")))
        return 2;
    engine::Workspace workspace(**store);

    // (1) Appending to the open transcript.
    {
        desktop::TranscriptView view(workspace);
        usePage(view);
        view.resize(1000, 800);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        view.showTopic(QStringLiteral("bench"), QStringLiteral("main"));
        if (!ready.wait(30000))
            return 2;
        std::printf(
            "compositing: %s\n",
            view.compositing() == desktop::WebViewCompositing::Software
                ? "software (the window's default)"
                : qPrintable(QStringLiteral("chosen by the environment (QT_QUICK_BACKEND=%1)")
                                 .arg(qEnvironmentVariable("QT_QUICK_BACKEND"))));
        const turns::TurnRecord turn =
            turnRecord(QStringLiteral("11111111-0000-0000-0000-000000000000"));
        const QList<turns::TurnEventRecord> events = desktop::syntheticEvents(turn.id, eventCount);
        const double heapBefore =
            runJavaScript(view.page(), QStringLiteral("performance.memory.usedJSHeapSize"))
                .toDouble();
        QElapsedTimer clock;
        clock.start();
        view.addTurn(turn);
        for (qsizetype from = 0; from < events.size(); from += batchSize) {
            view.addEvents(events.mid(from, batchSize));
            // Let the event loop turn between batches, as during a turn.
            QCoreApplication::processEvents();
        }
        // Tool results fold into their call: prompt + text + tool + network rows.
        const int expected = 1 + eventCount / 4 * 3;
        if (!waitForScript(view.page(), itemCount + QStringLiteral(" >= %1").arg(expected),
                           600000)) {
            std::printf("append: only %d of %d items arrived\n",
                        runJavaScript(view.page(), itemCount).toInt(), expected);
            return 1;
        }
        const double ms = double(clock.elapsed());
        const double heapAfter =
            runJavaScript(view.page(), QStringLiteral("performance.memory.usedJSHeapSize"))
                .toDouble();
        const int nodes =
            runJavaScript(view.page(), QStringLiteral("document.getElementsByTagName('*').length"))
                .toInt();
        std::printf(
            "append %d events: %.0f ms, %.3f ms/event (target <= 2), JS heap %.1f MiB -> %.1f MiB, "
            "%d DOM elements\n",
            eventCount, ms, ms / eventCount, heapBefore / 1048576.0, heapAfter / 1048576.0, nodes);
    }

    // (3) The GUI thread while a turn streams into the page, without the
    // engine: batches at a turn's pace, the stall meter running. Tells the
    // page's own share of the stalls measured in app.window_turn.
    {
        desktop::TranscriptView view(workspace);
        usePage(view);
        view.resize(1000, 800);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        view.showTopic(QStringLiteral("bench"), QStringLiteral("paced"));
        if (!ready.wait(30000))
            return 2;
        turns::TurnRecord turn = turnRecord(QStringLiteral("33333333-0000-0000-0000-000000000000"));
        turn.topic = QStringLiteral("paced");
        const QList<turns::TurnEventRecord> events = desktop::syntheticEvents(turn.id, pacedEvents);
        view.addTurn(turn);
        desktop::StallMeter meter;
        qsizetype next = 0;
        QTimer feed;
        feed.setInterval(pacedIntervalMs);
        QObject::connect(&feed, &QTimer::timeout, &view, [&] {
            view.addEvents(events.mid(next, batchSize));
            next += batchSize;
            if (next >= events.size())
                feed.stop();
        });
        feed.start();
        while (feed.isActive())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        QTest::qWait(500);
        qint64 stalledMs = 0;
        qint64 onCpuMs = 0;
        qint64 waitingMs = 0;
        for (const desktop::StallMeter::Stall &stall : meter.stalls()) {
            stalledMs += stall.ms;
            onCpuMs += stall.onCpuMs;
            waitingMs += stall.waitingForCpuMs;
        }
        std::printf(
            "stream %d events at %d ms per batch of %d into the page: longest GUI stall %lld ms "
            "(%lld stalls over 16 ms, %lld ms in them: %lld ms on a CPU, %lld ms waiting for "
            "one)\n",
            int(events.size()), pacedIntervalMs, batchSize, meter.longestStallMs(),
            qint64(meter.stalls().size()), stalledMs, onCpuMs, waitingMs);
    }

    // (2) Opening a topic with 10,000 stored events.
    {
        const turns::TurnRecord turn =
            turnRecord(QStringLiteral("22222222-0000-0000-0000-000000000000"));
        turns::TurnRecords records(**store);
        if (!records.insert(turn) ||
            !records.appendEvents(desktop::syntheticEvents(turn.id, eventCount)))
            return 2;
        desktop::TranscriptView view(workspace);
        usePage(view);
        view.resize(1000, 800);
        view.show();
        QSignalSpy ready(view.bridge(), &desktop::TranscriptBridge::ready);
        view.showTopic(QStringLiteral("bench"), QStringLiteral("other"));
        if (!ready.wait(30000))
            return 2;
        QElapsedTimer clock;
        clock.start();
        view.showTopic(QStringLiteral("bench"), QStringLiteral("main"));
        const qint64 cppMs = clock.elapsed();
        // The first screen: the page has drawn items (two animation frames
        // after they arrived, so layout and paint happened).
        if (!waitForScript(view.page(), itemCount + QStringLiteral(" > 0"), 600000))
            return 1;
        runJavaScript(view.page(), QStringLiteral(
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"));
        std::printf(
            "open a topic with %d stored events: first screen after %lld ms (target <= 500); "
            "%lld ms of it reading and converting on the GUI thread; %d items drawn\n",
            eventCount, clock.elapsed(), cppMs, runJavaScript(view.page(), itemCount).toInt());
        // The page before it, as scrolling up asks for it.
        const int shown = runJavaScript(view.page(), itemCount).toInt();
        clock.restart();
        runJavaScript(view.page(),
                      QStringLiteral("document.getElementById('earlier').hidden || "
                                     "document.getElementById('earlier').click(); true"));
        if (waitForScript(view.page(), itemCount + QStringLiteral(" > %1").arg(shown), 60000))
            std::printf("one earlier page: drawn after %lld ms (%d items more)\n", clock.elapsed(),
                        runJavaScript(view.page(), itemCount).toInt() - shown);
    }
    return 0;
}
