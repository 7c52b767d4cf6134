#pragma once

// How the transcript's web view reaches the screen. QWebEngineView draws
// through a Qt Quick scene; with Qt's default (RHI, OpenGL on Linux) the
// whole main window is then composited through OpenGL on the GUI thread at
// every repaint. Without a GPU (Mesa's llvmpipe: Xvfb, VMs, remote
// desktops) each such repaint waited 15-30 ms for the rasteriser threads,
// longer while a TCG guest kept both cores busy (docs/architecture.md).
// The transcript is text, which Chromium rasterises in software anyway
// when it has no GPU: compositing it in software keeps the window on the
// plain raster backing store.

namespace arizuko::desktop {

enum class WebViewCompositing { Software, ChosenByEnvironment };

// Software compositing for every Qt Quick scene of this process, unless
// QT_QUICK_BACKEND or QSG_RHI_BACKEND names a choice (a user with a GPU
// may set QT_QUICK_BACKEND=rhi). The choice must precede the application
// object (WebEngine sets up the scene graph while it is constructed), so
// it is made once as the program loads, in every program that links the
// transcript view: the window, its tests and the benchmarks draw alike.
// Returns what was chosen.
WebViewCompositing webViewCompositing();

} // namespace arizuko::desktop
