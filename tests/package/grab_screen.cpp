// grab_screen: saves what the X display ($DISPLAY) shows as a PNG, for tests
// that start a real program (not a widget in their own process) under Xvfb.
//
//   grab_screen OUTPUT.png

#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>
#include <QTextStream>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "xcb");
    QGuiApplication application(argc, argv);
    const QStringList arguments = QGuiApplication::arguments();
    QTextStream err(stderr);
    if (arguments.size() != 2) {
        err << "usage: grab_screen OUTPUT.png\n";
        return 2;
    }
    const QPixmap screen = QGuiApplication::primaryScreen()->grabWindow(0);
    if (screen.isNull() || !screen.save(arguments.at(1), "PNG")) {
        err << "grab_screen: could not grab the screen into " << arguments.at(1) << "\n";
        return 1;
    }
    return 0;
}
