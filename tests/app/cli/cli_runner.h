#pragma once

// Runs the real arizukoctl binary against a data directory, with optional
// stdin and environment, for the CLI end-to-end tests.

#include <QByteArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct CliRun
{
    int exitCode = -1; // -1: crashed or timed out
    QByteArray out;
    QByteArray err;

    QJsonDocument json() const { return QJsonDocument::fromJson(out); }
};

class Cli
{
public:
    explicit Cli(QString dataDir)
        : m_dataDir(std::move(dataDir))
    {
        // The key file path is what headless tests exercise; a desktop
        // keyring of the person running the tests stays untouched.
        m_environment.insert(QStringLiteral("ARIZUKO_KEY_STORE"), QStringLiteral("file"));
        m_environment.remove(QStringLiteral("ARIZUKO_DATA_DIR"));
    }

    QProcessEnvironment &environment() { return m_environment; }

    CliRun run(const QStringList &arguments, const QByteArray &input = {},
               int timeoutMs = 30000) const
    {
        QProcess process;
        process.setProcessEnvironment(m_environment);
        process.start(QStringLiteral(ARIZUKOCTL),
                      QStringList{QStringLiteral("--data-dir"), m_dataDir} + arguments);
        CliRun result;
        if (!process.waitForStarted(10000))
            return result;
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

private:
    QString m_dataDir;
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
};
