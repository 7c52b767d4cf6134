#pragma once

// For the policy command groups (grant, network, route): the store and the
// policy over it for one command; a store that will not open is the
// command's failure.

#include "context.h"
#include "policy/policy.h"
#include "subcommands.h"

namespace arizuko::cli {

template<typename Use>
Exit withPolicy(Context &context, Use &&use)
{
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    policy::Policy policy(**opened);
    return use(policy);
}

} // namespace arizuko::cli
