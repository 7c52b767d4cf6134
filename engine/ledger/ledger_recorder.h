#pragma once

// Turns a turn's events into egress ledger writes: the proxy's decision
// lines (kind "network", event "decision") become rows and their close lines
// complete them; the model gateway's exchanges and refusals ("model",
// "gateway") and connector calls ("connector") become rows of their own
// source. The rule that decided is found in the turn's network policy (the
// one its proxy was started with), as `arizukoctl network test` would.
// Pure: the journal stores what take() returns with the events.

#include "ledger/ledger_entry.h"
#include "policy/network_rule.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace arizuko::ledger {

class LedgerRecorder
{
public:
    LedgerRecorder(QString turn, QString folder, QString topic);

    // The policy the turn's proxy was started with.
    void setPolicy(const policy::NetworkPolicy &policy);

    // The write a turn event makes, if any: `seq` and `at` are the event's.
    std::optional<LedgerWrite> take(const QString &kind, const QJsonObject &json, qint64 seq,
                                    const QString &at);

private:
    LedgerEntry base(qint64 seq, const QString &at, const QJsonObject &json) const;
    LedgerEntry proxyEntry(const QJsonObject &json, qint64 seq, const QString &at) const;
    LedgerWrite proxyDecision(const QJsonObject &json, qint64 seq, const QString &at);
    LedgerWrite proxyClose(const QJsonObject &json, qint64 seq, const QString &at);
    std::optional<LedgerWrite> gateway(const QString &kind, const QJsonObject &json, qint64 seq,
                                       const QString &at) const;
    LedgerWrite connector(const QJsonObject &json, qint64 seq, const QString &at) const;
    void findRule(LedgerEntry &entry) const;
    static void name(LedgerEntry &entry, const std::optional<policy::NetworkRule> &rule,
                     const std::optional<policy::Grant> &grant);

    QString m_turn;
    QString m_folder;
    QString m_topic;
    std::optional<policy::NetworkPolicy> m_policy;
    // The decision events whose close line has not come, by what a close
    // line repeats of its decision (client, method, host, port, decision,
    // reason), oldest first.
    QHash<QString, QList<qint64>> m_open;
};

// A request path without its query or fragment.
QString pathWithoutQuery(const QString &path);

} // namespace arizuko::ledger
