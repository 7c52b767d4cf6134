#pragma once

// Shared by the libvirt integration tests: a real connection and names that
// look like a turn's (az-<8>), so the suite's leak check covers them.

#include "libvirt/connection.h"

#include <QCoreApplication>
#include <QFile>
#include <QRandomGenerator>
#include <QString>
#include <memory>

// Checks that a Result holds a value, printing its error otherwise.
#define VERIFY_OK(result)                                                                          \
    QVERIFY2((result).ok(), (result).ok() ? "" : qPrintable((result).error().message))

namespace arizuko::libvirt::test {

inline QString libvirtUri()
{
    const QString configured = qEnvironmentVariable("ARIZUKO_LIBVIRT_URI");
    return configured.isEmpty() ? QStringLiteral("qemu:///system") : configured;
}

// Fails loudly (never skips) when libvirtd is not there: these tests exist
// to run against it.
inline std::shared_ptr<Connection> connectOrDie()
{
    auto connection = Connection::open(libvirtUri());
    if (!connection)
        qFatal("%s", qPrintable(connection.error().message));
    return *connection;
}

// This test process as the owner of what it creates ("pid:starttime", as
// an engine marks its objects), so a reaper running meanwhile leaves it.
inline QString testOwner()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    stat.open(QIODevice::ReadOnly);
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return QStringLiteral("%1:%2")
        .arg(QCoreApplication::applicationPid())
        .arg(QString::fromLatin1(fields.value(19)));
}

inline QString testTurnName()
{
    return QStringLiteral("az-t%1").arg(QRandomGenerator::global()->generate() & 0xfffffff, 7, 16,
                                        QLatin1Char('0'));
}

} // namespace arizuko::libvirt::test
