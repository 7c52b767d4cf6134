#include "ledger/ledger_export.h"

#include <QDir>
#include <QJsonDocument>
#include <QSaveFile>

namespace arizuko::ledger {
namespace {

Error exportFailed(const QString &path, const QString &cause)
{
    return makeError(
        QStringLiteral("ledger.export-failed"),
        QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), cause));
}

} // namespace

QByteArray ledgerLine(const LedgerEntry &entry, LedgerFormat format)
{
    const QJsonObject object = format == LedgerFormat::Ocsf ? ocsfEvent(entry) : ledgerJson(entry);
    // Compact JSON escapes every control character: one row, one line.
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

Result<qint64> followLedger(Ledger &ledger, LedgerFilter filter,
                            const std::function<bool(const QList<LedgerEntry> &)> &page)
{
    filter.oldestFirst = true;
    filter.limit = exportPageRows;
    for (;;) {
        const Result<QList<LedgerEntry>> rows = ledger.page(filter);
        if (!rows)
            return rows.error();
        if (!rows->isEmpty())
            filter.afterId = rows->last().id;
        if (!page(*rows) || rows->size() < exportPageRows)
            return filter.afterId;
    }
}

Result<qint64> exportLedger(Ledger &ledger, const LedgerFilter &filter, LedgerFormat format,
                            const QString &path, ExportProgress &progress)
{
    LedgerFilter every = filter;
    every.afterId = 0;
    every.beforeId = 0;
    if (const Result<qint64> total = ledger.count(every); total)
        progress.total = *total;
    // Written beside path and renamed into it by commit(); dropped unless
    // committed.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return exportFailed(path, file.errorString());
    QString writeError;
    const Result<qint64> followed =
        followLedger(ledger, every, [&](const QList<LedgerEntry> &rows) {
            QByteArray lines;
            for (const LedgerEntry &entry : rows)
                lines += ledgerLine(entry, format);
            if (file.write(lines) != lines.size()) {
                writeError = file.errorString();
                return false;
            }
            progress.written += rows.size();
            return !progress.cancel;
        });
    if (!followed) {
        file.cancelWriting();
        return followed.error();
    }
    if (!writeError.isEmpty()) {
        file.cancelWriting();
        return exportFailed(path, writeError);
    }
    if (progress.cancel) {
        file.cancelWriting();
        return makeError(
            QStringLiteral("ledger.export-cancelled"),
            QStringLiteral("the export to %1 was cancelled").arg(QDir::toNativeSeparators(path)));
    }
    if (!file.commit())
        return exportFailed(path, file.errorString());
    return progress.written.load();
}

} // namespace arizuko::ledger
