#pragma once

// What the last snapshot of a home saw of each file: its (size, mtime,
// ctime, inode) and the blob it became. A file whose stat still matches is
// not read again, so a snapshot after a small turn costs a walk of stat
// calls, not a re-hash of the home.

#include "core/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <git2/oid.h>

namespace arizuko::history {

struct IndexEntry
{
    qint64 size = 0;
    qint64 modifiedNs = 0;
    qint64 changedNs = 0;
    quint64 inode = 0;
    quint32 mode = 0;   // the git file mode it was recorded with
    bool stored = true; // false: over the size limit or the budget, recorded by size and time
    git_oid blob{};
};

class SnapshotIndex
{
public:
    // An index that cannot be read is an empty one: the next snapshot reads
    // every file again, which costs time, never correctness.
    static SnapshotIndex load(const QString &file);
    Result<void> save(const QString &file) const;

    const IndexEntry *find(const QByteArray &path) const;
    void insert(const QByteArray &path, const IndexEntry &entry) { m_entries.insert(path, entry); }
    void clear() { m_entries.clear(); }
    qsizetype size() const { return m_entries.size(); }
    // Every blob named: a pruning keeps them, the next snapshot reuses them.
    QList<git_oid> blobs() const;

private:
    QHash<QByteArray, IndexEntry> m_entries;
};

} // namespace arizuko::history
