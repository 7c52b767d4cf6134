#include "history/snapshot_index.h"

#include <QDataStream>
#include <QFile>
#include <cstdio>

namespace arizuko::history {
namespace {

// Bumped when the layout below changes; an index of another version is dropped.
constexpr quint32 indexVersion = 1;

} // namespace

SnapshotIndex SnapshotIndex::load(const QString &file)
{
    SnapshotIndex index;
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly))
        return index;
    QDataStream stream(&input);
    quint32 version = 0;
    qint64 count = 0;
    stream >> version >> count;
    if (version != indexVersion || count < 0)
        return index;
    for (qint64 i = 0; i < count && stream.status() == QDataStream::Ok; ++i) {
        QByteArray path;
        QByteArray blob;
        IndexEntry entry;
        stream >> path >> entry.size >> entry.modifiedNs >> entry.changedNs >> entry.inode >>
            entry.mode >> entry.stored >> blob;
        if (blob.size() != GIT_OID_RAWSZ)
            return SnapshotIndex();
        git_oid_fromraw(&entry.blob, reinterpret_cast<const unsigned char *>(blob.constData()));
        index.m_entries.insert(path, entry);
    }
    if (stream.status() != QDataStream::Ok)
        return SnapshotIndex();
    return index;
}

Result<void> SnapshotIndex::save(const QString &file) const
{
    // Written beside and renamed over, but not synced: the index is a
    // cache, and one lost in a crash only costs the next snapshot a
    // re-read, while an fsync per snapshot costs more than the walk.
    const QString temporary = file + QStringLiteral(".new");
    QFile output(temporary);
    if (!output.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return makeError(QStringLiteral("history.index"),
                         QStringLiteral("cannot write the snapshot index %1: %2")
                             .arg(file, output.errorString()));
    QDataStream stream(&output);
    stream << indexVersion << qint64(m_entries.size());
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it) {
        const IndexEntry &entry = it.value();
        stream << it.key() << entry.size << entry.modifiedNs << entry.changedNs << entry.inode
               << entry.mode << entry.stored
               << QByteArray(reinterpret_cast<const char *>(entry.blob.id), GIT_OID_RAWSZ);
    }
    output.close();
    if (stream.status() != QDataStream::Ok || output.error() != QFileDevice::NoError ||
        std::rename(QFile::encodeName(temporary).constData(),
                    QFile::encodeName(file).constData()) != 0)
        return makeError(QStringLiteral("history.index"),
                         QStringLiteral("cannot write the snapshot index %1: %2")
                             .arg(file, output.errorString()));
    return {};
}

const IndexEntry *SnapshotIndex::find(const QByteArray &path) const
{
    const auto it = m_entries.constFind(path);
    return it == m_entries.cend() ? nullptr : &it.value();
}

QList<git_oid> SnapshotIndex::blobs() const
{
    QList<git_oid> all;
    all.reserve(m_entries.size());
    for (const IndexEntry &entry : m_entries)
        all.append(entry.blob);
    return all;
}

} // namespace arizuko::history
