#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace arizuko::desktop {
namespace {

// Where qt_add_translations puts the compiled .qm files (CMakeLists.txt).
const QString ourDirectory = QStringLiteral(":/i18n");
const QString ourName = QStringLiteral("arizuko-desktop");

bool install(QCoreApplication &application, const QLocale &language, const QString &name,
             const QString &directory)
{
    auto *translator = new QTranslator(&application);
    if (translator->load(language, name, QStringLiteral("_"), directory) &&
        application.installTranslator(translator))
        return true;
    delete translator;
    return false;
}

} // namespace

QString installTranslations(QCoreApplication &application, const QStringList &languages)
{
    // English needs only the plural forms of the %n texts ("1 prompt").
    const auto english = [&application] {
        install(application, QLocale(QLocale::English), ourName, ourDirectory);
        return QString();
    };
    // The walk stops at English, the language the texts are written in: a
    // user who prefers English over German gets English, not the next match.
    for (const QString &name : languages) {
        const QLocale language(name);
        if (language.language() == QLocale::English || language.language() == QLocale::C)
            return english();
        if (!install(application, language, ourName, ourDirectory))
            continue;
        // Qt's own texts are optional (Debian's qt6-translations-l10n).
        install(application, language, QStringLiteral("qtbase"),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath));
        return QLocale::languageToCode(language.language());
    }
    return english();
}

} // namespace arizuko::desktop
