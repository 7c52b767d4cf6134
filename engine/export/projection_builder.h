#pragma once

// Internal to the projection: the state one export builds up while each
// resource is projected (projection.cpp: folders, rules, secrets;
// projection_policy.cpp: grants, memberships, routes).

#include "export/projection.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace arizuko::manifest {

class ProjectionBuilder
{
public:
    ProjectionBuilder(QSqlDatabase db, const ExportOptions &options, QStringList folders);

    bool selected(const QString &folder) const;
    bool includes(const QString &resource) const;

    // Adds a row unless a text field is one yaml.v3 cannot write (then it is
    // left out, like any row arizuko cannot hold).
    void keep(const QString &resource, const Row &row);
    void leaveOut(const QString &resource, const QString &row, const QString &reason);
    void warn(const QString &warning) { m_projection.warnings.append(warning); }

    // Marks the resource as chosen (so it is listed even without rows) and
    // reads its store rows.
    Result<QSqlQuery> chosenRows(const QString &resource, const QString &sql);

    Result<void> projectGroups();
    Result<void> projectNetworkRules();
    Result<void> projectSecrets();
    Result<void> projectGrants();
    Result<void> projectMemberships();
    Result<void> projectRoutes();

    Projection take() { return std::move(m_projection); }

private:
    QSqlDatabase m_db;
    QStringList m_roots;   // the selection as given; empty = everything
    QStringList m_folders; // every folder of the store
    Projection m_projection;
};

// project() without the read transaction, for callers already inside one
// (the import plans inside its write transaction).
Result<Projection> projectWithin(const QSqlDatabase &db, const ExportOptions &options);

// The epoch stamp of rows that carry no time of their own (seeds,
// memberships of non-folders), so the checksum stays reproducible.
QString seedTimestamp();

} // namespace arizuko::manifest
