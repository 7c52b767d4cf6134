// The window in German, as a user with LANGUAGE=de starts it (CMake sets the
// environment): the translation is found through the system locale, and the
// menus, buttons, an editor's labels, a model's headers and the transcript
// page's own words are German. Its screenshot is the user guide's.

#include "allowlist_editor.h"
#include "audit_log_viewer.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "host_status_panel.h"
#include "main_window.h"
#include "store/store.h"
#include "transcript_view.h"
#include "translations.h"
#include "web_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEngineView>

using namespace arizuko;

namespace {

QString installedLanguage;

QStringList labelTexts(const QWidget &widget)
{
    QStringList texts;
    for (const QLabel *label : widget.findChildren<QLabel *>())
        texts << label->text();
    return texts;
}

} // namespace

class GermanWindowTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_directory;
    std::unique_ptr<store::Store> m_store;

private slots:
    void initTestCase()
    {
        auto opened = store::Store::open(m_directory.filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("corp/eng")));
    }

    void findsTheGermanTranslationThroughTheSystemLocale()
    {
        QCOMPARE(qEnvironmentVariable("LANGUAGE"), QStringLiteral("de"));
        QCOMPARE(installedLanguage, QStringLiteral("de"));
    }

    void showsTheWindowInGerman()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        engine::Workspace workspace(*m_store);
        desktop::MainWindow window(workspace, *settings);
        QSignalSpy refreshed(window.hostStatusPanel(), &desktop::HostStatusPanel::refreshed);
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QStringList menus;
        for (const QAction *menu : window.menuBar()->actions())
            menus << menu->text();
        QCOMPARE(menus, (QStringList{QStringLiteral("&Datei"), QStringLiteral("&Bearbeiten"),
                                     QStringLiteral("&Ordner"), QStringLiteral("&Ansicht"),
                                     QStringLiteral("&Hilfe")}));
        QCOMPARE(window.findChild<QAction *>(QStringLiteral("openAllowlist"))->text(),
                 QStringLiteral("&Zulassungsliste\u2026"));
        QCOMPARE(window.findChild<QAbstractButton *>(QStringLiteral("sendButton"))->text(),
                 QStringLiteral("&Senden"));
        const auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("turnTabs"));
        QCOMPARE(tabs->tabText(1), QStringLiteral("&Netzwerk"));
        // A header from an engine model, translated as well.
        const auto *network = window.findChild<QTableView *>(QStringLiteral("networkTable"));
        QCOMPARE(network->model()->headerData(4, Qt::Horizontal).toString(),
                 QStringLiteral("Grund"));

        // The transcript page's own words come over the bridge.
        QWebEnginePage *page = window.transcript()->webView()->page();
        QVERIFY(waitForScript(page, QStringLiteral("document.documentElement.lang === 'de'")));
        const auto text = [page](const char *id) {
            return runJavaScript(page, QStringLiteral("document.getElementById('%1').textContent")
                                           .arg(QLatin1String(id)))
                .toString();
        };
        QCOMPARE(text("empty"),
                 QStringLiteral("Wählen Sie ein Thema und schreiben Sie dann unten einen Prompt."));
        QCOMPARE(text("earlier"), QStringLiteral("Frühere anzeigen"));

        QVERIFY(refreshed.wait(15000) || refreshed.count() > 0);
        QTest::qWait(300);
        QDir().mkpath(QStringLiteral(SCREENSHOT_DIR));
        const QString path = QStringLiteral(SCREENSHOT_DIR "/window-german.png");
        QVERIFY2(window.grab().save(path), qPrintable(path));
    }

    void showsAnEditorInGerman()
    {
        engine::Workspace workspace(*m_store);
        desktop::AllowlistEditor editor(workspace, QStringLiteral("corp/eng"));
        const QStringList labels = labelTexts(editor);
        for (const char *label : {"&Ordner:", "&Host:", "Host &testen:"})
            QVERIFY2(labels.contains(QString::fromUtf8(label)),
                     qPrintable(labels.join(QLatin1Char('|'))));
        QCOMPARE(editor.findChild<QAbstractButton *>(QStringLiteral("add"))->text(),
                 QStringLiteral("Regel hinzu&fügen"));
        // Titled with the folder once the folders are read.
        QTRY_COMPARE(editor.windowTitle(), QStringLiteral("Zulassungsliste von corp/eng"));
    }

    void showsQtsOwnButtonsInGerman()
    {
        const QString qtBase = QDir(QLibraryInfo::path(QLibraryInfo::TranslationsPath))
                                   .filePath(QStringLiteral("qtbase_de.qm"));
        // ./dev installs the package: its absence is a broken setup, not a skip.
        QVERIFY2(QFileInfo::exists(qtBase),
                 qPrintable(QStringLiteral("%1 is missing: install qt6-translations-l10n")
                                .arg(qtBase)));
        engine::Workspace workspace(*m_store);
        desktop::AuditLogViewer viewer(workspace, QString());
        const auto *buttons = viewer.findChild<QDialogButtonBox *>();
        QVERIFY(buttons);
        QCOMPARE(buttons->button(QDialogButtonBox::Close)->text(), QStringLiteral("Schließen"));
    }

    // The user's order decides: English first stays English (the texts are
    // written in it), a language without a translation is passed over.
    // Last, since the translators it installs stay installed.
    void followsTheUsersOrderOfLanguages()
    {
        const auto chosen = [](const QStringList &languages) {
            return desktop::installTranslations(*qApp, languages);
        };
        QCOMPARE(chosen({QStringLiteral("fr-FR"), QStringLiteral("ja"), QStringLiteral("de-AT")}),
                 QStringLiteral("de"));
        QCOMPARE(chosen({QStringLiteral("C")}), QString());
        QCOMPARE(chosen({QStringLiteral("fr-FR")}), QString());
        QCOMPARE(chosen({QStringLiteral("en-GB"), QStringLiteral("de-DE")}), QString());
        // English gets its plural forms, not the source's "(s)".
        const auto queued = [](int count) {
            return QCoreApplication::translate("arizuko::desktop::Composer", "%n prompt(s) queued",
                                               nullptr, count);
        };
        QCOMPARE(queued(1), QStringLiteral("1 prompt queued"));
        QCOMPARE(queued(2), QStringLiteral("2 prompts queued"));
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    // As main.cpp does: the system's languages, here LANGUAGE=de from CMake.
    installedLanguage = desktop::installTranslations(application, QLocale::system().uiLanguages());
    GermanWindowTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_german_window.moc"
