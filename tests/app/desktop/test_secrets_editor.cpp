// The secrets editor offscreen on a real store with a key file: a value set
// in the password field is sealed and listed by name, and no widget, model
// role or tooltip of the editor ever holds it again; bad names are refused
// with the store unchanged; the key store is named; a secret set by
// arizukoctl appears in the open editor; Set waits for the folder chooser,
// whose empty state would mean every folder.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/secret_list_model.h"
#include "secrets_editor.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
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
