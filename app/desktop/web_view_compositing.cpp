#include "web_view_compositing.h"

#include <QQuickWindow>
#include <QSGRendererInterface>

namespace arizuko::desktop {

WebViewCompositing webViewCompositing()
{
    static const WebViewCompositing chosen = [] {
        if (qEnvironmentVariableIsSet("QT_QUICK_BACKEND") ||
            qEnvironmentVariableIsSet("QSG_RHI_BACKEND"))
            return WebViewCompositing::ChosenByEnvironment;
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
        return WebViewCompositing::Software;
    }();
    return chosen;
}

namespace {

void chooseBeforeTheApplication()
{
    webViewCompositing();
}
Q_CONSTRUCTOR_FUNCTION(chooseBeforeTheApplication)

} // namespace

} // namespace arizuko::desktop
