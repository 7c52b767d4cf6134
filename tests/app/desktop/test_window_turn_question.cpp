// End to end through the real window under Xvfb, with a real command turn in
// a real VM (TCG here) in a folder that asks about hosts on no allow entry
// (issue 36): the guest fetches a plain HTTP origin of this test on loopback
// (localhost, on no list of the folder) through its real proxy, which holds
// the request and asks the engine; the question appears in the window's bar
// while the user types in the composer, without taking the focus; the test
// answers by the keyboard alone (the button's mnemonic, Alt+T: "Allow for
// this turn"); the guest then gets the origin's body, and the Network tab,
// the turn's network events, the question's row and the egress ledger show
// the request allowed after it was asked. Screenshots go to the build tree:
// look at them.

#include "composer.h"
#include "egress_question_bar.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "folder_tree_panel.h"
#include "folders/folders.h"
#include "folders/network_settings.h"
#include "folders/topics.h"
#include "ledger/ledger.h"
#include "main_window.h"
#include "models/network_decision_model.h"
#include "screenshot.h"
#include "store/store.h"
#include "test_window_turn_support.h"
#include "turn_panel.h"
#include "turn_records/turn_record.h"
#include "turns/runner_settings.h"

#include <QApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace arizuko;
using desktop::MainWindow;

namespace {

const QString folder = QStringLiteral("asks");
const QString topic = QStringLiteral("net");
// On no list of the folder; the proxy reaches it on loopback, as the
// engine's demo page is reached.
const QString originHost = QStringLiteral("localhost");

// A plain HTTP origin on 127.0.0.1 answering every request with one body.
class Origin final : public QObject
{
public:
    explicit Origin(QByteArray body)
        : m_body(std::move(body))
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    m_head += socket->readAll();
                    if (!m_head.contains("\r\n\r\n"))
                        return;
                    ++m_requests;
                    socket->write(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                        QByteArray::number(m_body.size()) + "\r\nConnection: close\r\n\r\n" +
                        m_body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    int requests() const { return m_requests; }

private:
    QTcpServer m_server;
    QByteArray m_body;
    QByteArray m_head;
    int m_requests = 0;
};

// One plain HTTP GET through the turn's proxy ($http_proxy) with bash alone
// (the guest has no curl; a command turn runs /bin/sh), the whole response
// on standard output.
QString fetchCommand(const QString &url, const QString &hostPort)
{
    return QStringLiteral(
               "bash -c 'p=${http_proxy#http://}; p=${p%/}; "
               "exec 3<>/dev/tcp/${p%:*}/${p##*:} && "
               "printf \"GET %s HTTP/1.1\\r\\nHost: %s\\r\\nConnection: close\\r\\n\\r\\n\" "
               "\"$1\" \"$2\" >&3 && timeout 120 cat <&3' fetch %1 %2")
        .arg(url, hostPort);
}

QString compact(const QJsonObject &json)
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

} // namespace

class WindowTurnQuestionTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto settings = windowTurnSettings();
        QVERIFY(settings);
        m_settings = *settings;
    }

    void aQuestionOfALiveTurnIsAnsweredByTheKeyboard()
    {
        QTemporaryDir directory;
        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        QVERIFY(folders::Folders(**store, QStringLiteral("user:test")).add(folder).ok());
        QVERIFY(folders::Topics(**store, QStringLiteral("user:test")).add(folder, topic).ok());
        folders::NetworkSettings asking;
        asking.unlisted = folders::UnlistedHosts::Ask;
        QVERIFY(
            folders::setNetworkSettings(**store, folder, asking, QStringLiteral("user:test")).ok());

        const QByteArray token = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        Origin origin("origin body " + token + "\n");
        QVERIFY(origin.listen());
        const QString hostPort = QStringLiteral("%1:%2").arg(originHost).arg(origin.port());

        turns::RunnerSettings settings = m_settings;
        settings.egressProgram = QStringLiteral(EGRESS_PROGRAM);
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        // The origin is on loopback, where a proxy reaches nothing unless
        // told to (as the ask test's engine is told).
        settings.proxyAllowsLoopback = true;
        engine::Workspace workspace(**store);
        MainWindow window(workspace, settings);
        QVERIFY(readyToRun(window));
        engine::Engine *engine = window.engine();
        QTRY_VERIFY(window.folderTree()->select(folder, topic));
        window.activateWindow();
        QTRY_VERIFY(window.isActiveWindow());

        QList<turns::TurnEventRecord> events;
        connect(engine, &engine::Engine::turnEvents, this,
                [&events](const QString &, const QList<turns::TurnEventRecord> &batch) {
                    events << batch;
                });
        QSignalSpy finished(engine, &engine::Engine::turnFinished);
        turns::TurnRequest request;
        request.folder = folder;
        request.topic = topic;
        request.agent = turns::AgentKind::Command;
        request.prompt = fetchCommand(QStringLiteral("http://%1/asked").arg(hostPort), hostPort);
        engine->submit(request);

        // The user is typing meanwhile.
        QPlainTextEdit *editor = window.composer()->editor();
        editor->setFocus();
        QTest::keyClicks(editor, QStringLiteral("a draft"));
        QCOMPARE(QApplication::focusWidget(), editor);

        desktop::EgressQuestionBar *bar = window.questionBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible() || !finished.isEmpty(), 400000);
        QVERIFY2(bar->isVisible(), "the turn ended without a question in the window");
        // Shown without taking the focus from what the user was typing in.
        QCOMPARE(QApplication::focusWidget(), editor);
        QCOMPARE(origin.requests(), 0); // held: nothing reached the origin yet
        const QString text = bar->findChild<QLabel *>(QStringLiteral("egressQuestionText"))->text();
        QVERIFY2(text.contains(originHost) && text.contains(QString::number(origin.port())) &&
                     text.contains(folder) && text.contains(topic),
                 qPrintable(text));
        qInfo("asked: %s", qPrintable(text));
        QTest::qWait(300);
        desktop::screenshot(window, QStringLiteral("window-turn-question"));

        // The keyboard alone: the mnemonic of "Allow for this &turn", typed
        // while the composer keeps the focus.
        QTest::keyClick(editor, Qt::Key_T, Qt::AltModifier);
        QTRY_VERIFY_WITH_TIMEOUT(bar->isHidden(), 10000);
        QCOMPARE(editor->toPlainText(), QStringLiteral("a draft"));
        QCOMPARE(QApplication::focusWidget(), editor);

        QVERIFY(!finished.isEmpty() || finished.wait(300000));
        const auto ended = finished.first().first().value<turns::TurnRecord>();

        // The guest got the origin's answer.
        QStringList output;
        QList<QJsonObject> network;
        for (const turns::TurnEventRecord &event : events) {
            if (event.kind == QLatin1String("network"))
                network << event.json;
            else
                output << event.kind + QLatin1Char(' ') + compact(event.json);
        }
        const QString said = output.join(QLatin1Char('\n'));
        QVERIFY2(said.contains(QStringLiteral("HTTP/1.1 200 OK")) &&
                     said.contains(QStringLiteral("origin body ") + QString::fromLatin1(token)),
                 qPrintable(said.right(3000)));
        QCOMPARE(origin.requests(), 1);
        QCOMPARE(ended.state, turns::TurnState::Done);

        // The proxy's decision: asked, answered "turn", allowed.
        const auto decided = std::find_if(network.cbegin(), network.cend(), [](const auto &line) {
            return line.value(QStringLiteral("event")).toString() == QLatin1String("decision") &&
                   line.value(QStringLiteral("host")).toString() == originHost;
        });
        QVERIFY2(decided != network.cend(), qPrintable(said.right(2000)));
        QCOMPARE(decided->value(QStringLiteral("decision")).toString(), QStringLiteral("allow"));
        QVERIFY(decided->value(QStringLiteral("asked")).toBool());
        QCOMPARE(decided->value(QStringLiteral("answer")).toString(), QStringLiteral("turn"));

        // The Network tab shows it allowed, marked as asked, with the answer.
        desktop::TurnPanel *panel = window.turnPanel();
        models::NetworkDecisionModel *model = panel->networkModel();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (row = 0; row < model->rowCount(); ++row)
                    if (model->index(row, 0)
                            .data(models::NetworkDecisionModel::HostRole)
                            .toString() == originHost)
                        return true;
                return false;
            }(),
            10000);
        QCOMPARE(model->index(row, models::NetworkDecisionModel::DecisionColumn).data().toString(),
                 QStringLiteral("allowed (asked: allowed for the turn)"));
        QCOMPARE(model->index(row, models::NetworkDecisionModel::ReasonColumn).data().toString(),
                 QStringLiteral("allowed"));
        QCOMPARE(model->index(row, models::NetworkDecisionModel::PortColumn).data().toInt(),
                 int(origin.port()));
        panel->tabs()->setCurrentIndex(1);
        panel->networkTable()->selectRow(row);
        QTest::qWait(300);
        desktop::screenshot(window, QStringLiteral("window-turn-question-network"));

        // The question's row: answered "turn" by the window's user.
        QSqlQuery question((*store)->database());
        QVERIFY(question.exec(
            QStringLiteral("SELECT answer, answered_by FROM egress_questions WHERE host = '%1'")
                .arg(originHost)));
        QVERIFY(question.next());
        QCOMPARE(question.value(0).toString(), QStringLiteral("turn"));
        QCOMPARE(question.value(1).toString(), QStringLiteral("user:gui"));
        QVERIFY(!question.next()); // one question

        // The ledger's row: asked, answered, allowed, completed.
        ledger::LedgerFilter filter;
        filter.turn = ended.id;
        const auto rows = ledger::Ledger(**store).page(filter);
        QVERIFY(rows.ok());
        const auto entry = std::find_if(rows->cbegin(), rows->cend(),
                                        [](const auto &e) { return e.host == originHost; });
        QVERIFY(entry != rows->cend());
        QCOMPARE(entry->decision, QStringLiteral("allow"));
        QVERIFY(entry->asked);
        QCOMPARE(entry->answer.value_or(QString()), QStringLiteral("turn"));
        QCOMPARE(entry->path.value_or(QString()), QStringLiteral("/asked"));
        QVERIFY(entry->bytesDown.value_or(0) > 0);
    }

private:
    turns::RunnerSettings m_settings;
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("arizuko-tests"));
    WindowTurnQuestionTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_window_turn_question.moc"
