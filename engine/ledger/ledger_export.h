#pragma once

// The egress ledger written out, the one way arizukoctl network log and the
// window's Export… both do it: every row a filter matches, oldest first, a
// page at a time (a million rows never sit in memory at once), one line per
// row in JSON Lines or OCSF. A file is written beside its place and renamed
// into it only when whole, so a failed or cancelled export leaves nothing.

#include "core/result.h"
#include "ledger/ledger.h"
#include "ledger/ledger_format.h"

#include <QByteArray>
#include <QString>
#include <atomic>
#include <functional>

namespace arizuko::ledger {

// Rows read per query while following or exporting.
constexpr int exportPageRows = 1000;

// One row as a line of `format` (JsonLines or Ocsf), its newline included.
QByteArray ledgerLine(const LedgerEntry &entry, LedgerFormat format);

// Hands `page` every row matching filter with an id above filter.afterId,
// oldest first, a page at a time, until the rows run out or `page` returns
// false; the last id handed (filter.afterId when none).
Result<qint64> followLedger(Ledger &ledger, LedgerFilter filter,
                            const std::function<bool(const QList<LedgerEntry> &)> &page);

// What an export running on a worker shares with whoever watches it.
struct ExportProgress
{
    std::atomic<qint64> total{-1}; // the rows the filter matches, once counted
    std::atomic<qint64> written{0};
    std::atomic<bool> cancel{false};
};

// Every row matching filter (its paging fields ignored) into `path` as
// `format` (JsonLines or Ocsf); the rows written. ledger.export-cancelled
// when progress.cancel was set, ledger.export-failed (naming the file and
// the cause) when it cannot be written; either way no file is left at path.
Result<qint64> exportLedger(Ledger &ledger, const LedgerFilter &filter, LedgerFormat format,
                            const QString &path, ExportProgress &progress);

} // namespace arizuko::ledger
