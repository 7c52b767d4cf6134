// The window's widgets without a VM: the composer's keys, the tree's filter
// and its live view of the store, and an accessible name on every control.

#include "composer.h"
#include "folder_tree_panel.h"
#include "main_window.h"

#include "models/folder_topic_model.h"
#include "folders/folders.h"
#include "store/store.h"
#include "folders/topics.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace arizuko;

class WindowWidgetsTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
    }
    void cleanup() { m_store.reset(); }

    void composerSendsWithCtrlEnterAndCancelsWithEscape()
    {
        desktop::Composer composer;
        QSignalSpy sent(&composer, &desktop::Composer::sendRequested);
        QSignalSpy cancelled(&composer, &desktop::Composer::cancelRequested);
        QVERIFY(!composer.editor()->isEnabled());
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(composer.editor()->isEnabled());

        QTest::keyClicks(composer.editor(), QStringLiteral("first line"));
        QTest::keyClick(composer.editor(), Qt::Key_Return); // a plain Enter is a new line
        QTest::keyClicks(composer.editor(), QStringLiteral("second line"));
        QCOMPARE(sent.count(), 0);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.count(), 1);
        QCOMPARE(sent.first().first().toString(), QStringLiteral("first line\nsecond line"));
        QCOMPARE(composer.editor()->toPlainText(), QString());

        // Esc cancels only while there is something to cancel.
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.count(), 0);
        composer.setActivity(true, 2);
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(composer.findChild<QLabel *>(QStringLiteral("queuedIndicator"))->text(),
                 QStringLiteral("2 prompt(s) queued"));

        // The agent and model are remembered per topic.
        composer.findChild<QComboBox *>(QStringLiteral("composerAgent"))->setCurrentIndex(1);
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("other"));
        QCOMPARE(composer.agent(), QStringLiteral("claude"));
        composer.setTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QCOMPARE(composer.agent(), QStringLiteral("command"));
    }

    void treeFiltersAndFollowsTheStore()
    {
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        folders::Topics topics(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")).ok());
        QVERIFY(folders.add(QStringLiteral("home")).ok());
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("release-notes")).ok());
        QVERIFY(topics.add(QStringLiteral("home"), QStringLiteral("garden")).ok());
        models::FolderTopicModel model(*m_store);
        QVERIFY(model.reload().ok());
        desktop::FolderTreePanel panel(*m_store, &model);
        QSignalSpy selected(&panel, &desktop::FolderTreePanel::selectionChanged);
        QCOMPARE(panel.view()->model()->rowCount(), 2);

        QTest::keyClicks(panel.filter(), QStringLiteral("release"));
        QCOMPARE(panel.view()->model()->rowCount(), 1); // corp, kept for its topic
        panel.filter()->clear();
        QCOMPARE(panel.view()->model()->rowCount(), 2);

        QVERIFY(panel.select(QStringLiteral("home"), QStringLiteral("garden")));
        QCOMPARE(selected.last(), (QVariantList{QStringLiteral("home"), QStringLiteral("garden")}));
        // A topic added elsewhere appears without losing the selection.
        QVERIFY(topics.add(QStringLiteral("home"), QStringLiteral("attic")).ok());
        QVERIFY(model.reload().ok());
        QCOMPARE(panel.currentTopic(), QStringLiteral("garden"));
    }

    void everyControlHasAnAccessibleName()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings.ok());
        settings->libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock");
        desktop::MainWindow window(*m_store, *settings);
        QStringList unnamed;
        for (QWidget *widget : window.findChildren<QWidget *>()) {
            const bool control = qobject_cast<QAbstractButton *>(widget) || qobject_cast<QLineEdit *>(widget) ||
                                 qobject_cast<QComboBox *>(widget) || qobject_cast<QPlainTextEdit *>(widget) ||
                                 qobject_cast<QAbstractItemView *>(widget);
            // Buttons are named by their text; the rest need an accessible name.
            const auto *button = qobject_cast<QAbstractButton *>(widget);
            if (!control || (button && !button->text().isEmpty()) || !widget->accessibleName().isEmpty())
                continue;
            // Qt's own parts of composite widgets (headers and the corner
            // button of a view, the clear button of a line edit, …).
            if (widget->objectName().startsWith(QLatin1String("qt_")) || qobject_cast<QComboBox *>(widget->parentWidget()) ||
                qobject_cast<QAbstractItemView *>(widget->parentWidget()) ||
                qobject_cast<QLineEdit *>(widget->parentWidget()) ||
                widget->parentWidget()->inherits("QTabBar") || widget->parentWidget()->inherits("QToolBar"))
                continue;
            unnamed << QStringLiteral("%1 %2").arg(QString::fromLatin1(widget->metaObject()->className()),
                                                   widget->objectName());
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("arizuko-tests"));
    WindowWidgetsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_window_widgets.moc"
