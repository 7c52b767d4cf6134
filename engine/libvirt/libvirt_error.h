#pragma once

// libvirt reports errors through a thread-local "last error"; these helpers
// turn it into an arizuko::Error and keep libvirt from printing it itself.

#include "core/result.h"

#include <QString>

namespace arizuko::libvirt {

// Installs a no-op error handler so libvirt stops printing every error to
// stderr: we report errors ourselves, with advice. Safe to call repeatedly.
void silenceLibvirtErrors();

// libvirt's last error on this thread as an Error with `code`, its message
// prefixed by `what` ("creating network az-1a2b3c4d").
Error lastLibvirtError(const QString &code, const QString &what);

// The numeric code (virErrorNumber) of the last error on this thread, 0 if none.
int lastLibvirtErrorNumber();

} // namespace arizuko::libvirt
