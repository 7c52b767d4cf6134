#pragma once

// What the user chose for one export: which folders, which of the resources
// arizuko replaces wholesale, and what to do with rows it cannot represent.

#include <QString>
#include <QStringList>

namespace arizuko::manifest {

enum class Unrepresentable
{
    Omit,   // leave the row out and report it
    Refuse, // fail the export, listing the rows
};

struct ExportOptions
{
    // Selected folders, each with its subtree; empty selects every folder and
    // the base ''. The base is selected on its own by listing "".
    QStringList folders;
    // Beyond the folder-scoped groups and network_rules: any of "acl",
    // "acl_membership", "routes" (each replaces the server's whole table) and
    // "secrets" (names only; apply never writes them).
    QStringList include;
    Unrepresentable unrepresentable = Unrepresentable::Omit;
    // With acl: add the server's seeded `role:operator * **` row, which a
    // wholesale acl would otherwise delete. Off when comparing with a store.
    bool addServerSeeds = true;
};

// The resources `include` may name, and those whose listing replaces the
// server's whole table.
const QStringList &optionalResources();
const QStringList &wholesaleResources();

} // namespace arizuko::manifest
