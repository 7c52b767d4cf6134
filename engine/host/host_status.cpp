#include "host/host_status.h"

namespace arizuko::host {

QString acceleratorName(Accelerator accelerator)
{
    return accelerator == Accelerator::Kvm ? QStringLiteral("kvm") : QStringLiteral("tcg");
}

} // namespace arizuko::host
