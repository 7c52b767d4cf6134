#include "libvirt/libvirt_error.h"

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {
namespace {

void ignoreLibvirtError(void *, virErrorPtr) {}

} // namespace

void silenceLibvirtErrors()
{
    virSetErrorFunc(nullptr, ignoreLibvirtError);
}

Error lastLibvirtError(const QString &code, const QString &what)
{
    const char *message = virGetLastErrorMessage();
    return makeError(code, QStringLiteral("%1: %2").arg(what, QString::fromUtf8(message)));
}

bool stillThereAfterFailedDestroy(int isActive, int goneError)
{
    return !(isActive == 0 || (isActive < 0 && lastLibvirtErrorNumber() == goneError));
}

int lastLibvirtErrorNumber()
{
    const virErrorPtr error = virGetLastError();
    return error ? error->code : 0;
}

} // namespace arizuko::libvirt
