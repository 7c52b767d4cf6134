// Test helper: an engine-side writer. Adds folders <label>-0, <label>-1, …
// through the real Folders code (one write transaction each: the row, its
// membership, its audit entry, its home) and prints "committed <i>" after
// each commit returns. Stops after <count> folders, or when <stop-file>
// exists; exits 1 on the first failure, printing it to stderr.
//
//   store_writer <data-dir> <label> <count|-1> [<stop-file>]

#include "folders/folders.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QFile>
#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    const QStringList arguments = application.arguments();
    if (arguments.size() < 4) {
        std::fprintf(stderr, "usage: store_writer <data-dir> <label> <count|-1> [<stop-file>]\n");
        return 2;
    }
    const QString label = arguments[2];
    const long long count = arguments[3].toLongLong();
    const QString stopFile = arguments.value(4);

    auto store = arizuko::store::Store::open(arguments[1]);
    if (!store) {
        std::fprintf(stderr, "open: %s\n", qPrintable(store.error().message));
        return 1;
    }
    arizuko::folders::Folders folders(**store, QStringLiteral("test:store_writer"));
    for (long long index = 0; count < 0 || index < count; ++index) {
        if (!stopFile.isEmpty() && QFile::exists(stopFile))
            break;
        const auto added = folders.add(QStringLiteral("%1-%2").arg(label).arg(index));
        if (!added) {
            std::fprintf(stderr, "add %lld: %s\n", index, qPrintable(added.error().message));
            return 1;
        }
        std::printf("committed %lld\n", index);
        std::fflush(stdout);
    }
    return 0;
}
