#include "policy/glob.h"

namespace arizuko::policy {
namespace {

// A position in a '/'-separated path. `done` is distinct from an empty rest: the
// path "" has one empty segment, a path whose segments are all consumed has none.
struct Segments
{
    QStringView rest;
    bool done = false;

    QStringView head() const
    {
        const qsizetype slash = rest.indexOf(u'/');
        return slash < 0 ? rest : rest.first(slash);
    }
    Segments tail() const
    {
        const qsizetype slash = rest.indexOf(u'/');
        return slash < 0 ? Segments{{}, true} : Segments{rest.sliced(slash + 1), false};
    }
};

bool isDoubleStar(QStringView segment)
{
    return segment == u"**";
}

// Wildcard match within one segment: greedy with a single backtrack point, which
// is enough for `*` and keeps the match linear in practice.
bool segmentMatches(QStringView pattern, QStringView text)
{
    qsizetype p = 0;
    qsizetype t = 0;
    qsizetype starAt = -1;
    qsizetype textAtStar = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == u'?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == u'*') {
            starAt = p++;
            textAtStar = t;
        } else if (starAt >= 0) {
            p = starAt + 1;
            t = ++textAtStar;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == u'*')
        ++p;
    return p == pattern.size();
}

bool matches(Segments pattern, Segments text)
{
    while (!pattern.done) {
        const QStringView head = pattern.head();
        if (isDoubleStar(head)) {
            const Segments after = pattern.tail();
            if (after.done)
                return true;
            for (Segments candidate = text;; candidate = candidate.tail()) {
                if (matches(after, candidate))
                    return true;
                if (candidate.done)
                    return false;
            }
        }
        if (text.done || !segmentMatches(head, text.head()))
            return false;
        pattern = pattern.tail();
        text = text.tail();
    }
    return text.done;
}

bool segmentCovers(QStringView outer, QStringView inner)
{
    if (!hasGlobWildcard(outer))
        return outer == inner;
    if (!hasGlobWildcard(inner))
        return segmentMatches(outer, inner);
    // Two patterns: only the all-covering `*` (or identical text) is provable here.
    return outer == u"*" || outer == inner;
}

bool covers(Segments outer, Segments inner)
{
    while (!outer.done) {
        const QStringView head = outer.head();
        if (isDoubleStar(head)) {
            const Segments after = outer.tail();
            if (after.done)
                return true;
            for (Segments candidate = inner;; candidate = candidate.tail()) {
                if (covers(after, candidate))
                    return true;
                if (candidate.done)
                    return false;
            }
        }
        if (inner.done || isDoubleStar(inner.head()) || !segmentCovers(head, inner.head()))
            return false;
        outer = outer.tail();
        inner = inner.tail();
    }
    return inner.done;
}

} // namespace

bool hasGlobWildcard(QStringView text)
{
    return text.contains(u'*') || text.contains(u'?');
}

bool globMatches(QStringView pattern, QStringView text)
{
    return matches(Segments{pattern, false}, Segments{text, false});
}

bool globCovers(QStringView outer, QStringView inner)
{
    return covers(Segments{outer, false}, Segments{inner, false});
}

} // namespace arizuko::policy
