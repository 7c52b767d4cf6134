// The export and import dialogs as a person uses them, offscreen, on real
// SQLite stores: choices change the preview, wholesale resources warn, rows
// the server cannot hold are listed or refuse the export, and an import
// shows its plan and writes only when applied, all or nothing.

#include "data_dir_tree.h"
#include "engine/workspace.h"
#include "export_dialog.h"
#include "folders/folders.h"
#include "import_dialog.h"
#include "policy/policy.h"
#include "store/store.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace arizuko;
using arizuko::desktop::ExportDialog;
using arizuko::desktop::ImportDialog;

namespace {

const QString actor = QStringLiteral("user:test");

std::unique_ptr<store::Store> openStore(const QTemporaryDir &directory)
{
    auto store = store::Store::open(directory.path());
    if (!store)
        qFatal("%s", qPrintable(store.error().message));
    return std::move(*store);
}

QStringList networkTargets(store::Store &store)
{
    policy::Policy policy(store);
    const auto rules = policy.network().list();
    QStringList targets;
    for (const policy::NetworkRule &rule : *rules)
        targets << rule.folder + QLatin1Char(':') + rule.target;
    targets.sort();
    return targets;
}

} // namespace

class ExportDialogsTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_sourceDir;
    std::unique_ptr<store::Store> m_source;
    std::unique_ptr<engine::Workspace> m_sourceWorkspace;

    QString exportedManifest()
    {
        ExportDialog dialog(*m_sourceWorkspace);
        QSignalSpy ready(&dialog, &ExportDialog::previewReady);
        if (!ready.wait(10000))
            qFatal("no preview");
        const QString path = m_sourceDir.filePath(QStringLiteral("export.yaml"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(dialog.previewText()) <= 0)
            qFatal("cannot write the export");
        return path;
    }

private slots:
    void initTestCase()
    {
        m_source = openStore(m_sourceDir);
        folders::Folders folders(*m_source, actor);
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("corp/eng")));
        policy::Policy policy(*m_source);
        QVERIFY(policy.network().add(QStringLiteral("corp"), QStringLiteral("github.com"),
                                     policy::RuleKind::Allow, actor));
        // arizuko has no deny rules: this one must be listed, never dropped silently.
        QVERIFY(policy.network().add(QStringLiteral("corp/eng"), QStringLiteral("gist.github.com"),
                                     policy::RuleKind::Deny, actor));
        m_sourceWorkspace = std::make_unique<engine::Workspace>(*m_source);
    }

    void cleanupTestCase()
    {
        m_sourceWorkspace.reset();
        m_source.reset();
    }

    void previewShowsTheManifestAndListsWhatIsLeftOut()
    {
        ExportDialog dialog(*m_sourceWorkspace);
        QSignalSpy ready(&dialog, &ExportDialog::previewReady);
        QVERIFY(ready.wait(10000));
        const QString text =
            dialog.findChild<QPlainTextEdit *>(QStringLiteral("preview"))->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("checksum: sha256:")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("github.com")));
        QVERIFY(!text.contains(QStringLiteral("acl:")));
        const auto *leftOut = dialog.findChild<QTreeWidget *>(QStringLiteral("leftOut"));
        QCOMPARE(leftOut->topLevelItemCount(), 1);
        QVERIFY(leftOut->topLevelItem(0)->text(1).contains(QStringLiteral("gist.github.com")));
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("warnings"))->text().isEmpty());

        // A wholesale resource: in the document, and the warning says what it replaces.
        dialog.findChild<QCheckBox *>(QStringLiteral("include-acl"))->setChecked(true);
        QVERIFY(ready.wait(10000));
        QVERIFY(dialog.previewText().contains("acl:"));
        QVERIFY2(dialog.findChild<QLabel *>(QStringLiteral("warnings"))
                     ->text()
                     .contains(QStringLiteral("acl")),
                 "choosing acl warns that it replaces the server's table");

        // Refusing: nothing to save, and the refused row is named.
        auto *choice = dialog.findChild<QComboBox *>();
        choice->setCurrentIndex(choice->findData(int(manifest::Unrepresentable::Refuse)));
        QVERIFY(ready.wait(10000));
        QVERIFY(dialog.previewText().isEmpty());
        const QString status = dialog.findChild<QLabel *>(QStringLiteral("status"))->text();
        QVERIFY2(status.startsWith(QStringLiteral("Not exported")) &&
                     status.contains(QStringLiteral("gist.github.com")),
                 qPrintable(status));
    }

    // The folder list is read on a worker; a folder checked there narrows
    // the export to its subtree.
    void checkingAFolderExportsOnlyItsSubtree()
    {
        ExportDialog dialog(*m_sourceWorkspace);
        QSignalSpy ready(&dialog, &ExportDialog::previewReady);
        auto *folders = dialog.findChild<QListWidget *>();
        QTRY_COMPARE(folders->count(), 2);
        QCOMPARE(folders->item(0)->text(), QStringLiteral("corp"));
        QCOMPARE(folders->item(1)->text(), QStringLiteral("corp/eng"));
        QTRY_VERIFY(dialog.previewText().contains("github.com"));
        folders->item(1)->setCheckState(Qt::Checked);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.previewText().isEmpty() &&
                                     !dialog.previewText().contains("folder: corp\n"),
                                 10000);
        QVERIFY2(dialog.previewText().contains("corp/eng"), dialog.previewText().constData());
        QVERIFY2(!dialog.previewText().contains("target: github.com"),
                 dialog.previewText().constData());
    }

    void importShowsThePlanAndWritesOnlyWhenApplied()
    {
        const QString manifest = exportedManifest();
        QTemporaryDir targetDir;
        auto target = openStore(targetDir);
        engine::Workspace workspace(*target);
        ImportDialog dialog(workspace);
        QSignalSpy planned(&dialog, &ImportDialog::planned);
        QSignalSpy applied(&dialog, &ImportDialog::applied);

        dialog.openFile(manifest);
        QVERIFY(planned.wait(10000));
        const auto *plan = dialog.findChild<QTreeWidget *>(QStringLiteral("plan"));
        QVERIFY(plan->topLevelItemCount() >= 3); // two groups and a rule, at least
        QVERIFY2(networkTargets(*target).isEmpty(), "nothing written by planning");
        QPushButton *apply = nullptr;
        for (QPushButton *button : dialog.findChildren<QPushButton *>()) {
            if (button->text().contains(QStringLiteral("Apply")))
                apply = button;
        }
        QVERIFY(apply && apply->isEnabled());

        dialog.apply(true);
        QVERIFY(applied.wait(10000));
        QCOMPARE(networkTargets(*target), QStringList{QStringLiteral("corp:github.com")});
        QVERIFY(folders::Folders(*target, actor).exists(QStringLiteral("corp/eng")).value());

        // The same manifest again: nothing to do, nothing to apply.
        dialog.openFile(manifest);
        QVERIFY(planned.wait(10000));
        QCOMPARE(plan->topLevelItemCount(), 0);
        QVERIFY(!apply->isEnabled());
    }

    void aHostileManifestIsRefusedAndNothingChanges()
    {
        QTemporaryDir targetDir;
        auto target = openStore(targetDir);
        const QStringList directoriesBefore = arizuko::test::directoriesUnder(targetDir.path());
        const QString path = targetDir.filePath(QStringLiteral("laughs.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "subsystem: routd\nresources:\n  groups: &a\n    - folder: x\n  network_rules: *a\n");
        file.close();
        engine::Workspace workspace(*target);
        ImportDialog dialog(workspace);
        QSignalSpy planned(&dialog, &ImportDialog::planned);
        dialog.openFile(path);
        QVERIFY(planned.wait(10000));
        const QString status = dialog.findChild<QLabel *>(QStringLiteral("status"))->text();
        QVERIFY2(status.startsWith(QStringLiteral("Refused")) &&
                     (status.contains(QStringLiteral("anchor"), Qt::CaseInsensitive) ||
                      status.contains(QStringLiteral("alias"), Qt::CaseInsensitive)),
                 qPrintable(status));
        QVERIFY(!folders::Folders(*target, actor).exists(QStringLiteral("x")).value());
        // Neither x's home under homes/ nor any other directory was made.
        QCOMPARE(arizuko::test::directoriesUnder(targetDir.path()), directoriesBefore);
    }
};

QTEST_MAIN(ExportDialogsTest)
#include "test_export_dialogs.moc"
