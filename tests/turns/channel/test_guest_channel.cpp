// The engine's end of the guest channel over a real UNIX socket (a
// QLocalServer standing in for QEMU's, which needs no VM): lines arrive as
// messages, what the guest wrote before it hung up is still read, and
// closing the channel ourselves reads nothing more and says nothing.

#include "turns/guest_channel.h"

#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace arizuko::turns;

namespace {

QByteArray bootedLine()
{
    return QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("status")},
                                     {QStringLiteral("seq"), 1},
                                     {QStringLiteral("state"), QStringLiteral("booted")},
                                     {QStringLiteral("uptime_ms"), 3328},
                                     {QStringLiteral("kernel"), QStringLiteral("6.1.0-57-amd64")},
                                     {QStringLiteral("image"), QStringLiteral("abc")}})
               .toJson(QJsonDocument::Compact) +
           '\n';
}

} // namespace

class TestGuestChannel : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QLocalServer> m_server;
    QLocalSocket *m_guest = nullptr;

    // A channel connected to the server, and the guest's end of it, which
    // has written its first line.
    void connectAndBoot(GuestChannel &channel)
    {
        channel.open();
        QTRY_VERIFY(m_server->hasPendingConnections() || m_server->waitForNewConnection(100));
        m_guest = m_server->nextPendingConnection();
        QVERIFY(m_guest);
        m_guest->write(bootedLine());
        m_guest->flush();
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_server = std::make_unique<QLocalServer>();
        QVERIFY(m_server->listen(m_dir.filePath(QStringLiteral("turn.sock"))));
    }

    void cleanup() { m_server.reset(); }

    void whatTheGuestWroteBeforeItHungUpIsRead()
    {
        GuestChannel channel(m_server->fullServerName());
        QSignalSpy messages(&channel, &GuestChannel::message);
        QSignalSpy closed(&channel, &GuestChannel::closed);
        connectAndBoot(channel);
        QVERIFY(!QTest::currentTestFailed());
        m_guest->disconnectFromServer();
        QTRY_COMPARE(closed.size(), 1);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().first().toJsonObject().value(QStringLiteral("state")),
                 QStringLiteral("booted"));
    }

    // Closing it ourselves (a turn that ends, a spare given up) is not the
    // guest hanging up: no `closed`, and no read of the aborted socket
    // (which Qt answers with "device not open" on stderr).
    void closingItOurselvesReadsNothingMore()
    {
        GuestChannel channel(m_server->fullServerName());
        QSignalSpy messages(&channel, &GuestChannel::message);
        QSignalSpy closed(&channel, &GuestChannel::closed);
        connectAndBoot(channel);
        QVERIFY(!QTest::currentTestFailed());
        QTRY_COMPARE(messages.size(), 1);
        QTest::failOnWarning(QRegularExpression(QStringLiteral("device not open")));
        channel.close();
        QTest::qWait(100);
        QCOMPARE(closed.size(), 0);
        QCOMPARE(messages.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestGuestChannel)
#include "test_guest_channel.moc"
