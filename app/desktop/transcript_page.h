#pragma once

// The transcript's web page: navigation to anywhere but the page itself is
// refused (a link the user clicks opens in the desktop browser when it is
// http or https), and new windows are never made.

#include <QWebEnginePage>

namespace arizuko::desktop {

class TranscriptPage final : public QWebEnginePage
{
    Q_OBJECT

public:
    using QWebEnginePage::QWebEnginePage;

signals:
    // For tests and the console: what the page logged.
    void consoleMessage(const QString &message);

protected:
    bool acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame) override;
    QWebEnginePage *createWindow(WebWindowType type) override;
    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel level, const QString &message,
                                  int line, const QString &source) override;
};

} // namespace arizuko::desktop
