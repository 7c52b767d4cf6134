#include "transcript_page.h"

#include <QDesktopServices>

namespace arizuko::desktop {

bool TranscriptPage::acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame)
{
    if (url.scheme() == QLatin1String("qrc") && isMainFrame && type != NavigationTypeLinkClicked)
        return true;
    if (type == NavigationTypeLinkClicked &&
        (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("http")))
        QDesktopServices::openUrl(url);
    return false;
}

QWebEnginePage *TranscriptPage::createWindow(WebWindowType)
{
    return nullptr;
}

void TranscriptPage::javaScriptConsoleMessage(JavaScriptConsoleMessageLevel, const QString &message,
                                              int line, const QString &source)
{
    emit consoleMessage(QStringLiteral("%1:%2: %3").arg(source).arg(line).arg(message));
}

} // namespace arizuko::desktop
