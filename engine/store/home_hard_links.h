#pragma once

// Under the layout before schema 6 a child's home lay inside its parent's,
// so the parent's guest could hard-link a file of the child's home into its
// own (`ln eng/.claude/settings.json x`): once the homes are apart, a write
// by one guest would still land in the other's file. The migration gives
// every such name a copy of its own: the content stays on both sides and
// no inode is shared with anything outside the home.

#include <QStringList>

namespace arizuko::store {

struct HardLinksBroken
{
    int copied = 0;        // names given a fresh inode with the same content
    QStringList notCopied; // one sentence each: the name and why
};

// Walks the home open at `home` one directory descriptor at a time, never
// following a link or leaving its filesystem. A regular file with more
// hard links than the home has names for it is copied to a new file
// beside it and renamed over it (mode kept). `shown` names the home in the
// sentences.
HardLinksBroken breakOutsideHardLinks(int home, const QString &shown);

} // namespace arizuko::store
