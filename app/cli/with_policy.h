#pragma once

// For the policy command groups (grant, network, route): withStore's
// prologue, with the policy over the store.

#include "context.h"
#include "policy/policy.h"
#include "subcommands.h"

namespace arizuko::cli {

template<typename Use>
Exit withPolicy(Context &context, Use &&use)
{
    return withStore(context, [&use](store::Store &store) {
        policy::Policy policy(store);
        return use(policy);
    });
}

} // namespace arizuko::cli
