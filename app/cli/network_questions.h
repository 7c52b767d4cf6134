#pragma once

// arizukoctl network pending|approve|deny: the questions turns' proxies ask
// about hosts on no allow entry, seen and answered from any process; the
// engine that runs the turn forwards the answer (docs/egress.md).

#include "context.h"

namespace arizuko::cli {

Exit runNetworkPending(Context &context, const QStringList &arguments);
Exit runNetworkApprove(Context &context, const QStringList &arguments);
Exit runNetworkDeny(Context &context, const QStringList &arguments);
// `network deny` of one argument, a number, answers a question; of two
// (folder, host) it adds a deny rule.
bool isQuestionDenial(const QStringList &arguments);

} // namespace arizuko::cli
