#pragma once

// What the policy editors' tests share: a real store in a temporary data
// directory, the real arizukoctl run against it, the hostile inputs every
// field must refuse, and screenshots written where the user guide shows them.

#include "screenshot.h"
#include "store/store.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDir>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

namespace editor_test {

inline std::unique_ptr<arizuko::store::Store> openStore(const QTemporaryDir &directory)
{
    auto store = arizuko::store::Store::open(directory.path());
    if (!store)
        qFatal("%s", qPrintable(store.error().message));
    return std::move(*store);
}

struct CtlResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonDocument json() const { return QJsonDocument::fromJson(out); }
};

// The real command-line tool, as a person beside the window would run it.
inline CtlResult arizukoctl(const QString &dataDir, const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(ARIZUKOCTL),
                  QStringList{QStringLiteral("--data-dir"), dataDir, QStringLiteral("--json")} +
                      arguments);
    if (!process.waitForFinished(30000))
        qFatal("arizukoctl did not finish");
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// A named child widget; a missing one ends the test run loudly.
template<typename T>
T *child(const QWidget &editor, const char *name)
{
    auto *found = editor.findChild<T *>(QString::fromLatin1(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

inline QStringList hostileInputs()
{
    return {QString(5000, QLatin1Char('a')) + QStringLiteral(".com"),
            QStringLiteral("git\x01hub.com"),
            QStringLiteral("evil\u202Emoc.com"),
            QStringLiteral("'; DROP TABLE network_rules; --"),
            QStringLiteral("github") + QChar(0) + QStringLiteral(".com"),
            QStringLiteral("line\nbreak.com")};
}

// Every string any child widget shows or holds.
inline QStringList visibleTexts(const QWidget &root)
{
    QStringList texts;
    for (const QWidget *widget : root.findChildren<QWidget *>()) {
        if (const auto *label = qobject_cast<const QLabel *>(widget))
            texts << label->text();
        else if (const auto *edit = qobject_cast<const QLineEdit *>(widget))
            texts << edit->text() << edit->displayText() << edit->placeholderText();
        else if (const auto *plain = qobject_cast<const QPlainTextEdit *>(widget))
            texts << plain->toPlainText();
        else if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
            texts << button->text();
        else if (const auto *combo = qobject_cast<const QComboBox *>(widget))
            for (int i = 0; i < combo->count(); ++i)
                texts << combo->itemText(i);
        texts << widget->toolTip() << widget->accessibleName() << widget->windowTitle();
    }
    return texts;
}

using arizuko::desktop::screenshot;

} // namespace editor_test
