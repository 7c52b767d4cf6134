#pragma once

// The window's texts in the user's language: our translation and Qt's own
// (standard buttons and dialogs), both for the first of the user's languages
// that has one. The texts are written in English, so English needs none.

#include <QStringList>

class QCoreApplication;

namespace arizuko::desktop {

// Walks the user's languages in order of preference (BCP 47 names, as
// QLocale::uiLanguages gives them), installs the translators for the first
// that has one on the application (which owns them) and returns it ("de");
// an empty string when the texts stay English (with English plural forms).
QString installTranslations(QCoreApplication &application, const QStringList &languages);

} // namespace arizuko::desktop
