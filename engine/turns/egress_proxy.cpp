#include "turns/egress_proxy.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QTcpSocket>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <utility>

namespace arizuko::turns {

EgressProxy::EgressProxy(EgressOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_healthTimer.setInterval(50);
    connect(&m_healthTimer, &QTimer::timeout, this, &EgressProxy::checkHealth);
    connect(&m_child, &process::LineProcess::lineRead, this, &EgressProxy::readLogLine);
    connect(&m_child, &process::LineProcess::ended, this, [this](const process::ProcessEnd &end) {
        if (!end.started)
            return fail(
                QStringLiteral("%1 could not be started: %2").arg(m_options.program, end.error));
        if (m_stopping)
            return;
        const QString why =
            end.crashed
                ? QStringLiteral("the egress proxy was killed")
                : QStringLiteral("the egress proxy exited with status %1").arg(end.exitCode);
        if (m_healthy)
            emit died(why);
        else
            fail(why);
    });
}

EgressProxy::~EgressProxy()
{
    stop();
}

void EgressProxy::start()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QLatin1String(turnEnvironmentVariable), m_options.turnName);
    environment.insert(QLatin1String(ownerEnvironmentVariable), m_options.owner);
    QProcess &child = m_child.process();
    child.setProcessEnvironment(environment);
    child.setProgram(m_options.program);
    child.setArguments(policy::egressArguments(m_options));
    child.setStandardOutputFile(QProcess::nullDevice());
    const int inspectCa = m_options.inspectCa ? m_options.inspectCa->get() : -1;
    const int secrets = m_options.secrets ? m_options.secrets->get() : -1;
    child.setChildProcessModifier([inspectCa, secrets] {
        // The proxy must not outlive the engine, even one killed with SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The CA's key and the bound secrets reach the proxy on inherited
        // descriptors only, never a file or its command line. Each goes to
        // a number of its own above the targets first, so neither pipe can
        // sit on the other's target; dup2 then clears close-on-exec on the
        // copy, and the intermediate copies close at exec.
        const std::pair<int, int> handovers[] = {{inspectCa, policy::kInspectCaFd},
                                                 {secrets, policy::kSecretsFd}};
        int moved[2] = {-1, -1};
        for (int i = 0; i < 2; ++i) {
            if (handovers[i].first >= 0 &&
                (moved[i] = ::fcntl(handovers[i].first, F_DUPFD_CLOEXEC, 10)) < 0)
                ::_exit(127);
        }
        for (int i = 0; i < 2; ++i) {
            if (moved[i] >= 0 && ::dup2(moved[i], handovers[i].second) < 0)
                ::_exit(127);
        }
    });
    m_sinceStart.start();
    child.start();
    // The child holds its copy; the engine's goes, so the key and the
    // values are in the pipes the proxy reads and nowhere else.
    if (m_options.inspectCa)
        m_options.inspectCa->reset();
    if (m_options.secrets)
        m_options.secrets->reset();
    m_pid = child.processId();
    m_healthTimer.start();
}

void EgressProxy::stop()
{
    m_healthTimer.stop();
    if (m_child.process().state() == QProcess::NotRunning)
        return;
    // No drain: the turn is over and its guest is being cut off.
    m_stopping = true;
    m_child.process().kill();
    m_child.process().waitForFinished(1000);
}

void EgressProxy::readLogLine(const QByteArray &line)
{
    const QJsonDocument document = QJsonDocument::fromJson(line);
    if (!document.isObject()) {
        // Not a log line: the proxy's own words about why it stopped.
        m_lastWords = QString::fromUtf8(line.left(512)).trimmed();
        return;
    }
    const QJsonObject object = document.object();
    const QString event = object.value(QStringLiteral("event")).toString();
    if (event == QLatin1String("listening")) {
        const QString address = object.value(QStringLiteral("addr")).toString();
        m_port = quint16(address.section(QLatin1Char(':'), -1).toUInt());
    } else if (event == QLatin1String("decision") || event == QLatin1String("close")) {
        emit decision(object);
    } else if (event == QLatin1String("ask")) {
        emit question(object);
    }
}

void EgressProxy::answer(quint64 id, const QString &answer, const QString &reason)
{
    if (!isRunning())
        return;
    QJsonObject line{{QStringLiteral("id"), qint64(id)}, {QStringLiteral("answer"), answer}};
    if (!reason.isEmpty())
        line.insert(QStringLiteral("reason"), reason);
    m_child.process().write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
}

void EgressProxy::checkHealth()
{
    if (m_healthy || m_failed)
        return;
    if (m_sinceStart.elapsed() > m_options.healthTimeout.count()) {
        fail(QStringLiteral("the egress proxy did not become healthy within %1 s")
                 .arg(m_options.healthTimeout.count() / 1000.0));
        return;
    }
    if (m_port == 0 || m_probing)
        return;
    // One plain GET /health per tick; the proxy answers it only after its
    // lists are loaded, so a 200 means it enforces them.
    m_probing = true;
    auto *socket = new QTcpSocket(this);
    connect(socket, &QTcpSocket::connected, socket, [socket] {
        socket->write("GET /health HTTP/1.1\r\nHost: health\r\nConnection: close\r\n\r\n");
    });
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
        // The status line is all that matters: "HTTP/1.1 200".
        if (socket->bytesAvailable() < 12)
            return;
        const bool ok = socket->peek(12) == "HTTP/1.1 200";
        m_probing = false;
        // Done with it: no later signal of this socket may reach us.
        socket->disconnect();
        socket->abort();
        socket->deleteLater();
        if (ok && !m_healthy && !m_failed) {
            m_healthy = true;
            m_healthTimer.stop();
            emit healthy();
        }
    });
    connect(socket, &QTcpSocket::errorOccurred, this, [this, socket] {
        m_probing = false;
        socket->disconnect();
        socket->deleteLater();
    });
    socket->connectToHost(QHostAddress(m_options.listenAddress.section(QLatin1Char(':'), 0, 0)),
                          m_port);
}

void EgressProxy::fail(const QString &why)
{
    if (m_failed || m_healthy)
        return;
    m_failed = true;
    m_healthTimer.stop();
    const QString log = m_lastWords.isEmpty()
                            ? QString::fromUtf8(m_child.unfinishedLine().left(512)).trimmed()
                            : m_lastWords;
    emit failed(makeError(
        QStringLiteral("turns.proxy-unhealthy"),
        QStringLiteral("no turn without a healthy egress proxy: %1%2")
            .arg(why, log.isEmpty() ? QString() : QStringLiteral(" (") + log + QLatin1Char(')'))));
}

} // namespace arizuko::turns
