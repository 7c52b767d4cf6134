#pragma once

// A turn's arizuko-egress process: started with the folder's resolved
// lists and the guest as its only client, checked healthy before the turn
// spec goes to the guest (no healthy proxy, no turn), its decision log
// turned into signals, and killed with the engine (parent-death signal) if
// the engine dies. Started with --ask, it asks on its log and is answered
// on its stdin.

#include "core/result.h"
#include "policy/egress_command_line.h"
#include "posix/unique_fd.h"
#include "process/line_process.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <chrono>
#include <memory>

namespace arizuko::turns {

// The command line (policy/egress_command_line.h) and how the process runs.
struct EgressOptions : policy::EgressCommandLine
{
    QString program;  // path of arizuko-egress
    QString turnName; // az-<turn8>, put in the process environment for the reaper
    QString owner;    // the engine's mark, likewise
    std::chrono::milliseconds healthTimeout = std::chrono::seconds(15);
    // With rules: the read end of the pipe holding the turn's CA certificate
    // and key (https::TurnAuthority::proxyBundlePipe), put on the child's
    // kInspectCaFd and closed in the engine once the child started.
    std::shared_ptr<posix::UniqueFd> inspectCa;
    // With boundSecrets: the read end of the pipe holding them
    // (turns/bound_secrets.h: egressSecretLines), put on kSecretsFd and
    // closed in the engine likewise.
    std::shared_ptr<posix::UniqueFd> secrets;
};

// The environment variable naming the turn a proxy process serves.
inline constexpr const char *turnEnvironmentVariable = "ARIZUKO_TURN";
// The environment variable naming the engine that started a proxy.
inline constexpr const char *ownerEnvironmentVariable = "ARIZUKO_ENGINE";

class EgressProxy final : public QObject
{
    Q_OBJECT

public:
    explicit EgressProxy(EgressOptions options, QObject *parent = nullptr);
    ~EgressProxy() override;

    // Starts the process; later exactly one of healthy() or failed().
    void start();
    // Kills the process and reaps it. Safe to call at any time and more
    // than once.
    void stop();

    qint64 pid() const { return m_pid; }
    quint16 port() const { return m_port; }
    QString address() const { return m_options.listenAddress; }
    bool isRunning() const { return m_child.process().state() != QProcess::NotRunning; }
    // It answered /health and has not died since.
    bool isHealthy() const { return m_healthy && isRunning(); }
    // Answers one of its questions (started with --ask): "once", "turn" or
    // "deny" with a reason, one line on its stdin, which only this engine
    // holds.
    void answer(quint64 id, const QString &answer, const QString &reason = {});

signals:
    void healthy();
    void failed(const arizuko::Error &error);
    // One decision or close line of the proxy's log.
    void decision(const QJsonObject &line);
    // An `ask` line: a request to a host on no allow entry waits for answer().
    void question(const QJsonObject &line);
    // The process ended after it had been healthy.
    void died(const QString &why);

private:
    void readLogLine(const QByteArray &line);
    void checkHealth();
    void fail(const QString &why);

    EgressOptions m_options;
    process::LineProcess m_child{QProcess::StandardError};
    QTimer m_healthTimer;
    QElapsedTimer m_sinceStart;
    QString m_lastWords;
    qint64 m_pid = 0;
    quint16 m_port = 0;
    bool m_healthy = false;
    bool m_failed = false;
    bool m_stopping = false;
    bool m_probing = false;
};

} // namespace arizuko::turns
