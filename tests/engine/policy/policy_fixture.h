#pragma once

// A real store in a temporary data directory, with helpers to create folders the
// way any writer does (a plain INSERT: the schema's triggers do the rest).

#include "policy/policy.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

inline arizuko::policy::Grant row(const QString &principal, const QString &action,
                                  const QString &scope,
                                  arizuko::policy::Effect effect = arizuko::policy::Effect::Allow,
                                  arizuko::policy::GrantParams params = {},
                                  bool grantOption = false)
{
    arizuko::policy::Grant grant;
    grant.principal = principal;
    grant.action = action;
    grant.scope = scope;
    grant.effect = effect;
    grant.params = std::move(params);
    grant.grantOption = grantOption;
    return grant;
}

class PolicyFixture
{
public:
    PolicyFixture()
    {
        auto opened = arizuko::store::Store::open(m_dir.path());
        if (!opened)
            qFatal("cannot open the store: %s", qPrintable(opened.error().message));
        m_store = std::move(*opened);
        m_policy = std::make_unique<arizuko::policy::Policy>(*m_store);
    }

    arizuko::store::Store &store() { return *m_store; }
    arizuko::policy::Policy &policy() { return *m_policy; }
    arizuko::policy::Grants &grants() { return m_policy->grants(); }
    QString dataDir() const { return m_dir.path(); }

    void addFolder(const QString &folder)
    {
        QSqlQuery query(m_store->database());
        query.prepare(QStringLiteral("INSERT INTO groups (folder, created_at) VALUES (?, ?)"));
        query.addBindValue(folder);
        query.addBindValue(arizuko::store::nowTimestamp());
        if (!query.exec())
            qFatal("cannot add folder %s: %s", qPrintable(folder),
                   qPrintable(query.lastError().text()));
    }

    static void exec(QSqlDatabase db, const QString &sql)
    {
        QSqlQuery query(db);
        if (!query.exec(sql))
            qFatal("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<arizuko::store::Store> m_store;
    std::unique_ptr<arizuko::policy::Policy> m_policy;
};
