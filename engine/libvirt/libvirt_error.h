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

// After a failed destroy, whether the object may still exist: it is gone
// when libvirt calls it inactive (`isActive` 0) or unknown (`goneError`,
// VIR_ERR_NO_DOMAIN or VIR_ERR_NO_NETWORK); anything else, such as a
// connection that died with a libvirtd restart, leaves it in doubt.
bool stillThereAfterFailedDestroy(int isActive, int goneError);

} // namespace arizuko::libvirt
