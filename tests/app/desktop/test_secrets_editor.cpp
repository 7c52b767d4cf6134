// The secrets editor offscreen on a real store with a key file: a value set
// in the password field is sealed and listed by name, and no widget, model
// role or tooltip of the editor ever holds it again; bad names are refused
// with the store unchanged; the key store is named; a secret set by
// arizukoctl appears in the open editor; Set waits for the folder chooser,
// whose empty state would mean every folder; a secret is bound to hosts (a
// header template or Basic) and unbound in a dialog that refuses what the
// engine would, and the engine's own refusals are shown.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/secret_list_model.h"
#include "secret_binding_dialog.h"
#include "secrets_editor.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>

using namespace arizuko;
using arizuko::desktop::SecretsEditor;
using namespace editor_test;

namespace {

// No four characters in a row of it are hexadecimal, so no key id can hold
// a piece of it by chance.
const QString secretValue = QStringLiteral("s3cr3t-VALUE-zqxw");

// A leak of any four characters in a row of the value, not only all of it.
bool leaks(const QString &text)
{
    for (qsizetype at = 0; at + 4 <= secretValue.size(); ++at) {
        if (text.contains(secretValue.mid(at, 4)))
            return true;
    }
    return false;
}

} // namespace

class SecretsEditorTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;

    QByteArray secretsJson()
    {
        return arizukoctl(m_dir.path(), {QStringLiteral("secret"), QStringLiteral("list")}).out;
    }

    // Every text and every model role the editor could show.
    static QStringList everything(const QWidget &editor)
    {
        QStringList texts = visibleTexts(editor);
        for (const QTableView *view : editor.findChildren<QTableView *>()) {
            const QAbstractItemModel *model = view->model();
            for (int row = 0; row < model->rowCount(); ++row) {
                for (int column = 0; column < model->columnCount(); ++column) {
                    for (int role = 0; role < Qt::UserRole + 8; ++role)
                        texts << model->index(row, column).data(role).toString();
                }
            }
        }
        return texts;
    }

private slots:
    void initTestCase()
    {
        // No desktop keyring in a test: the key file, as on a headless host.
        qputenv("ARIZUKO_KEY_STORE", "file");
        m_store = openStore(m_dir);
        QVERIFY(
            folders::Folders(*m_store, QStringLiteral("user:test")).add(QStringLiteral("corp")));
    }

    void setValueIsSealedAndNeverReadableBack()
    {
        engine::Workspace workspace(*m_store);
        SecretsEditor editor(workspace, QStringLiteral("corp"));
        QSignalSpy settled(&editor, &SecretsEditor::settled);
        QVERIFY(settled.wait(10000));
        QVERIFY2(child<QLabel>(editor, "keyStore")->text().contains(QStringLiteral("key file")),
                 qPrintable(child<QLabel>(editor, "keyStore")->text()));
        QTest::keyClicks(child<QLineEdit>(editor, "name"), QStringLiteral("GITHUB_TOKEN"));
        QTest::keyClicks(child<QLineEdit>(editor, "value"), secretValue);
        QTRY_VERIFY(child<QPushButton>(editor, "set")->isEnabled());
        QCOMPARE(child<QComboBox>(editor, "folder")->currentData().toString(),
                 QStringLiteral("corp"));
        QCOMPARE(child<QLineEdit>(editor, "value")->echoMode(), QLineEdit::Password);
        QVERIFY(!child<QLineEdit>(editor, "value")->displayText().contains(secretValue));
        QTest::mouseClick(child<QPushButton>(editor, "set"), Qt::LeftButton);
        // The value is out of the widget before the worker answers.
        QVERIFY(child<QLineEdit>(editor, "value")->text().isEmpty());
        QVERIFY(editor.isBusy());
        QVERIFY(settled.wait(10000));
        QCOMPARE(editor.model()->rowCount(), 1);
        QCOMPARE(editor.model()->index(0, 0).data().toString(), QStringLiteral("GITHUB_TOKEN"));
        QCOMPARE(editor.model()->index(0, 0).data(models::SecretListModel::FolderRole).toString(),
                 QStringLiteral("corp"));
        QCOMPARE(child<QLabel>(editor, "status")->text(),
                 QStringLiteral("GITHUB_TOKEN set for corp."));
        QVERIFY2(secretsJson().contains("\"GITHUB_TOKEN\""), secretsJson().constData());
        screenshot(editor, QStringLiteral("secrets-editor"));
        for (const QString &text : everything(editor))
            QVERIFY2(!leaks(text), qPrintable(text));
        QVERIFY(!secretsJson().contains(secretValue.toUtf8()));

        // Replacing it: same name, one row, and still nothing readable.
        // (The editor follows the store: a re-read after the change may be
        // in flight, and the buttons wait for it.)
        QTest::keyClicks(child<QLineEdit>(editor, "value"),
                         QStringLiteral("second-") + secretValue);
        QTRY_VERIFY(child<QPushButton>(editor, "set")->isEnabled());
        QTest::mouseClick(child<QPushButton>(editor, "set"), Qt::LeftButton);
        QVERIFY(settled.wait(10000));
        QCOMPARE(editor.model()->rowCount(), 1);
        for (const QString &text : everything(editor))
            QVERIFY2(!leaks(text), qPrintable(text));

        // Removing it: the row goes, from the store too. (A re-read the
        // watcher brings resets the rows and with them the selection: the
        // row is chosen until Remove takes it.)
        auto *table = child<QTableView>(editor, "secrets");
        QTRY_VERIFY((table->selectRow(0), child<QPushButton>(editor, "remove")->isEnabled()));
        QTest::mouseClick(child<QPushButton>(editor, "remove"), Qt::LeftButton);
        QVERIFY(editor.isBusy());
        QVERIFY(settled.wait(10000));
        QCOMPARE(editor.model()->rowCount(), 0);
        QCOMPARE(child<QLabel>(editor, "status")->text(),
                 QStringLiteral("GITHUB_TOKEN removed from corp."));
        QVERIFY2(!secretsJson().contains("\"GITHUB_TOKEN\""), secretsJson().constData());
    }

    void aSecretIsBoundAndUnboundInADialog()
    {
        const auto setByCtl = [this](const QString &name) {
            QProcess ctl;
            ctl.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("--data-dir"), m_dir.path(), QStringLiteral("secret"),
                       QStringLiteral("set"), name, QStringLiteral("--folder"),
                       QStringLiteral("corp")});
            ctl.write(secretValue.toUtf8() + "\n");
            ctl.closeWriteChannel();
            return ctl.waitForFinished(30000) && ctl.exitCode() == 0;
        };
        QVERIFY(setByCtl(QStringLiteral("BIND_TOKEN")));
        engine::Workspace workspace(*m_store);
        SecretsEditor editor(workspace, QStringLiteral("corp"));
        QSignalSpy settled(&editor, &SecretsEditor::settled);
        QVERIFY(settled.wait(10000));
        editor.show();
        editor.activateWindow(); // no window manager under Xvfb does it
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        const auto rowOf = [&editor](const QString &name) {
            for (int row = 0; row < editor.model()->rowCount(); ++row) {
                if (editor.model()->index(row, 0).data().toString() == name)
                    return row;
            }
            return -1;
        };
        const auto cell = [&](int column) {
            return editor.model()
                ->index(rowOf(QStringLiteral("BIND_TOKEN")), column)
                .data()
                .toString();
        };
        QVERIFY(rowOf(QStringLiteral("BIND_TOKEN")) >= 0);
        QCOMPARE(cell(models::SecretListModel::HostsColumn), QStringLiteral("(not bound)"));
        auto *table = child<QTableView>(editor, "secrets");
        auto *bind = child<QPushButton>(editor, "bind");
        auto *unbind = child<QPushButton>(editor, "unbind");
        // A re-read the watcher brings may reset the selection: chosen until Bind is on.
        QTRY_VERIFY((table->selectRow(rowOf(QStringLiteral("BIND_TOKEN"))), bind->isEnabled()));
        QVERIFY(!unbind->isEnabled());

        // The dialog, by the keyboard: refusals as typed, OK only when all is well.
        bind->setFocus();
        QTest::keyClick(bind, Qt::Key_Space);
        auto *dialog = editor.findChild<desktop::SecretBindingDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *hosts = child<QLineEdit>(*dialog, "bindHosts");
        auto *headerTemplate = child<QLineEdit>(*dialog, "bindTemplate");
        auto *validation = child<QLabel>(*dialog, "bindValidation");
        auto *ok = child<QPushButton>(*dialog, "bindOk");
        QCOMPARE(headerTemplate->text(), QStringLiteral("Authorization: Bearer {}"));
        QVERIFY(validation->text().startsWith(QStringLiteral("Refused: Name at least one host")));
        QVERIFY(!ok->isEnabled());
        hosts->setFocus();
        QTest::keyClicks(hosts, QStringLiteral("api.github.com, https://github.com/x"));
        QVERIFY2(validation->text().contains(QStringLiteral("is a URL")),
                 qPrintable(validation->text()));
        QVERIFY(!ok->isEnabled());
        hosts->selectAll();
        QTest::keyClicks(hosts, QStringLiteral("API.GitHub.com github.com"));
        QVERIFY2(validation->text().startsWith(QStringLiteral("The proxy will put the value")),
                 qPrintable(validation->text()));
        QVERIFY(ok->isEnabled());
        for (const QString &bad :
             {QStringLiteral("Authorization Bearer {}"),
              QStringLiteral("Authorization: Bearer {} {}"),
              QStringLiteral("Authorization: Bearer"), QStringLiteral("Host: {}")}) {
            headerTemplate->setText(bad);
            QVERIFY2(validation->text().startsWith(QStringLiteral("Refused: '%1' is not a header "
                                                                  "template")
                                                       .arg(bad)),
                     qPrintable(validation->text()));
            QVERIFY(!ok->isEnabled());
        }
        headerTemplate->setText(QStringLiteral("Authorization: Bearer {}"));
        QVERIFY(ok->isEnabled());
        screenshot(*dialog, QStringLiteral("secret-binding-dialog"));
        QTest::keyClick(hosts, Qt::Key_Return); // the default button
        QVERIFY(settled.wait(10000));
        QCOMPARE(child<QLabel>(editor, "status")->text(),
                 QStringLiteral("BIND_TOKEN of corp bound."));
        QCOMPARE(cell(models::SecretListModel::HostsColumn),
                 QStringLiteral("api.github.com, github.com"));
        QCOMPARE(cell(models::SecretListModel::PlacementColumn),
                 QStringLiteral("Authorization: Bearer {}"));
        QVERIFY2(secretsJson().contains("api.github.com"), secretsJson().constData());
        screenshot(editor, QStringLiteral("secrets-editor-bound"));

        // Bound anew, to Basic: the dialog starts from the binding.
        QTRY_VERIFY((table->selectRow(rowOf(QStringLiteral("BIND_TOKEN"))), unbind->isEnabled()));
        QTest::mouseClick(bind, Qt::LeftButton);
        dialog = editor.findChild<desktop::SecretBindingDialog *>();
        QVERIFY(dialog);
        QCOMPARE(child<QLineEdit>(*dialog, "bindHosts")->text(),
                 QStringLiteral("api.github.com, github.com"));
        auto *basic = child<QRadioButton>(*dialog, "bindBasic");
        basic->setFocus();
        QTest::keyClick(basic, Qt::Key_Space);
        QVERIFY(basic->isChecked());
        QVERIFY(!child<QLineEdit>(*dialog, "bindTemplate")->isEnabled());
        QTest::mouseClick(child<QPushButton>(*dialog, "bindOk"), Qt::LeftButton);
        QVERIFY(settled.wait(10000));
        QTRY_COMPARE(cell(models::SecretListModel::PlacementColumn),
                     QStringLiteral("HTTP Basic password"));

        // Unbound: the row says so, and the store holds no binding.
        QTRY_VERIFY((table->selectRow(rowOf(QStringLiteral("BIND_TOKEN"))), unbind->isEnabled()));
        QTest::mouseClick(unbind, Qt::LeftButton);
        QVERIFY(settled.wait(10000));
        QCOMPARE(child<QLabel>(editor, "status")->text(),
                 QStringLiteral("BIND_TOKEN of corp unbound: turns get no placeholder for it."));
        QTRY_COMPARE(cell(models::SecretListModel::HostsColumn), QStringLiteral("(not bound)"));
        QVERIFY2(!secretsJson().contains("api.github.com"), secretsJson().constData());

        // The engine's refusal is shown: the secret went (arizukoctl) while
        // the dialog was open.
        QTRY_VERIFY((table->selectRow(rowOf(QStringLiteral("BIND_TOKEN"))), bind->isEnabled()));
        QTest::mouseClick(bind, Qt::LeftButton);
        dialog = editor.findChild<desktop::SecretBindingDialog *>();
        QVERIFY(dialog);
        child<QLineEdit>(*dialog, "bindHosts")->setText(QStringLiteral("api.github.com"));
        QCOMPARE(arizukoctl(m_dir.path(), {QStringLiteral("secret"), QStringLiteral("rm"),
                                           QStringLiteral("BIND_TOKEN"), QStringLiteral("--folder"),
                                           QStringLiteral("corp")})
                     .exitCode,
                 0);
        QTest::mouseClick(child<QPushButton>(*dialog, "bindOk"), Qt::LeftButton);
        QTRY_VERIFY2(
            child<QLabel>(editor, "status")->text().startsWith(QStringLiteral("Not changed: ")),
            qPrintable(child<QLabel>(editor, "status")->text()));
        for (const QString &text : everything(editor))
            QVERIFY2(!leaks(text), qPrintable(text));
    }

    void aSecretSetByArizukoctlShowsInTheOpenEditor()
    {
        engine::Workspace workspace(*m_store);
        SecretsEditor editor(workspace, QStringLiteral("corp"));
        QSignalSpy settled(&editor, &SecretsEditor::settled);
        QVERIFY(settled.wait(10000));
        const int before = editor.model()->rowCount();
        QProcess ctl;
        ctl.start(QStringLiteral(ARIZUKOCTL),
                  {QStringLiteral("--data-dir"), m_dir.path(), QStringLiteral("secret"),
                   QStringLiteral("set"), QStringLiteral("FROM_CLI"), QStringLiteral("--folder"),
                   QStringLiteral("corp")});
        ctl.write("value-from-the-cli\n");
        ctl.closeWriteChannel();
        QVERIFY(ctl.waitForFinished(30000));
        QCOMPARE(ctl.exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), before + 1, 10000);
        bool listed = false;
        for (int row = 0; row < editor.model()->rowCount(); ++row)
            listed = listed ||
                     editor.model()->index(row, 0).data().toString() == QStringLiteral("FROM_CLI");
        QVERIFY(listed);
    }

    // Until a worker has filled the folder chooser, its empty state would
    // mean every folder: Set waits for it, and when the folders cannot be
    // read it stays off and the editor says why.
    void setWaitsForTheFolders()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(folders::Folders(*store, QStringLiteral("user:test")).add(QStringLiteral("corp")));
        QSqlQuery query(store->database());
        QVERIFY2(query.exec(QStringLiteral("ALTER TABLE groups RENAME TO groups_gone")),
                 qPrintable(query.lastError().text()));
        engine::Workspace workspace(*store);
        SecretsEditor editor(workspace, QStringLiteral("corp"));
        QSignalSpy settled(&editor, &SecretsEditor::settled);
        QTest::keyClicks(child<QLineEdit>(editor, "name"), QStringLiteral("GITHUB_TOKEN"));
        QTest::keyClicks(child<QLineEdit>(editor, "value"), secretValue);
        QVERIFY(settled.wait(10000));
        QTRY_VERIFY(child<QLabel>(editor, "status")
                        ->text()
                        .startsWith(QStringLiteral("The folders cannot be read: ")));
        QVERIFY(!editor.isBusy());
        QVERIFY(!child<QPushButton>(editor, "set")->isEnabled());
        QCOMPARE(child<QComboBox>(editor, "folder")->count(), 0);
    }

    void hostileNamesAreRefusedAndTheStoreUnchanged()
    {
        engine::Workspace workspace(*m_store);
        SecretsEditor editor(workspace, QStringLiteral("corp"));
        QSignalSpy settled(&editor, &SecretsEditor::settled);
        QVERIFY(settled.wait(10000));
        QTRY_COMPARE(child<QComboBox>(editor, "folder")->currentData().toString(),
                     QStringLiteral("corp"));
        const QByteArray before = secretsJson();
        child<QLineEdit>(editor, "value")->setText(QStringLiteral("x"));
        for (const QString &input : hostileInputs()) {
            child<QLineEdit>(editor, "name")->setText(input);
            const QString validation = child<QLabel>(editor, "validation")->text();
            QVERIFY2(validation.startsWith(QStringLiteral("Refused: ")),
                     qPrintable(validation.left(300)));
            QVERIFY(!validation.contains(QChar(0x202E)) && !validation.contains(QChar(0)) &&
                    validation.size() < 1000);
            QVERIFY(!child<QPushButton>(editor, "set")->isEnabled());
            QVERIFY(!secrets::SecretStore::validateKey(input));
        }
        QCOMPARE(secretsJson(), before);
    }
};

QTEST_MAIN(SecretsEditorTest)
#include "test_secrets_editor.moc"
