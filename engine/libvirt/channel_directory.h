#pragma once

// The short private directory a turn VM's channel sockets live in. libvirt
// (root, under qemu:///system) creates each socket there itself and hands it
// to QEMU, owned by root with its umask's mode; an engine that is not root
// could not connect to it. The directory's default ACL names the engine's
// own user, so every socket made in it is the engine's to connect to and
// nobody else's (docs/security-model.md).

#include "core/result.h"

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace arizuko::libvirt {

// A fresh 0700 directory in the temporary directory, named `name`-XXXXXX
// (short: a socket path must fit sun_path's 108 bytes), with the default ACL
// above when the engine is not root. Fails naming the directory and why.
Result<std::unique_ptr<QTemporaryDir>> makeChannelDirectory(const QString &name);

} // namespace arizuko::libvirt
