#pragma once

// A cheap, loud assert that does not take a user's session down (Qt
// Creator's QTC_ASSERT): a condition that should hold and does not is
// logged with its place under the `arizuko.assert` category, and the
// recovery action runs instead of a crash. AZ_ASSERT_OK does the same for a
// Result whose failure has nowhere better to go than the log.

#include "core/result.h"

#include <QLoggingCategory>

namespace arizuko {

inline const QLoggingCategory &softAssertCategory()
{
    static const QLoggingCategory category("arizuko.assert");
    return category;
}

} // namespace arizuko

#define AZ_ASSERT(condition, action)                                                               \
    if (Q_LIKELY(condition)) {                                                                     \
    } else {                                                                                       \
        qCWarning(arizuko::softAssertCategory(), "soft assert \"%s\" failed at %s:%d", #condition, \
                  __FILE__, __LINE__);                                                             \
        action;                                                                                    \
    }                                                                                              \
    do {                                                                                           \
    } while (0)

// `result` failed: its code and message go to the log with the place and `what` was tried.
#define AZ_ASSERT_OK(result, what)                                                                 \
    do {                                                                                           \
        if (const auto &azResult = (result); !azResult.ok())                                       \
            qCWarning(arizuko::softAssertCategory(), "%s failed at %s:%d: %s (%s)", what,          \
                      __FILE__, __LINE__, qPrintable(azResult.error().message),                    \
                      qPrintable(azResult.error().code));                                          \
    } while (0)
