#pragma once

// Who takes the network steps of a pretap turn that need CAP_NET_ADMIN
// (making and deleting its tap, forgetting its tracked flows, reading the
// filter tables back): the engine itself when it holds the capability
// (root), else arizuko-net-helper, which holds that capability alone and
// does those steps only, for this app's taps and bridges (nethelper/main.cpp).

#include <QString>
#include <QStringList>

namespace arizuko::libvirt {

// Whether this process has CAP_NET_ADMIN in its effective set.
bool engineHasNetAdmin();

// The helper: $ARIZUKO_NET_HELPER, else beside the running executable (the
// build tree), else ../libexec/arizuko-desktop/ from it (an installation).
QString netHelperProgram();

// Whether pretap's steps can be taken: the engine has the capability, or the
// helper is there and answers `check` (it has the capability and this user
// may call it). Asked once per process.
bool canTakeNetAdminSteps();

struct NetAdminOutput
{
    bool ran = false;
    int exitCode = -1;
    QString out;
    QString err;

    bool ok() const { return ran && exitCode == 0; }
};

// Runs `program` with `arguments` when the engine has CAP_NET_ADMIN, else
// the helper with `helperArguments`; `input` goes to its stdin.
NetAdminOutput runNetAdminStep(const QString &program, const QStringList &arguments,
                               const QStringList &helperArguments,
                               const QByteArray &input = QByteArray());

} // namespace arizuko::libvirt
