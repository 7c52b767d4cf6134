#pragma once

// Path-shaped globs shared by grant scopes, grant params and route predicates:
// `*` and `?` never cross `/`, a whole `**` segment spans any number of segments.

#include <QStringView>

namespace arizuko::policy {

// True when text is one of the strings pattern describes. A `**` segment matches
// zero or more whole segments, so `a/**` matches `a`, `a/b` and `a/b/c`; `*` matches
// any run of characters within one segment and `?` one character.
bool globMatches(QStringView pattern, QStringView text);

// True only when every string that inner matches is also matched by outer. It is
// conservative: a containment it cannot prove is reported as false, because it
// guards delegation, where a wrong "yes" would hand out authority nobody held.
bool globCovers(QStringView outer, QStringView inner);

bool hasGlobWildcard(QStringView text);

} // namespace arizuko::policy
