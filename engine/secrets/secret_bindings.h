#pragma once

// Secrets bound to hosts (issue 37; docs/security-model.md, "Credentials as
// placeholders"): a bound secret reaches a turn's guest only as a placeholder
// made fresh for the turn, and the turn's proxy puts the value in, only in
// requests to the bound hosts and only where the binding says: one header
// (`Authorization: Bearer {}`) or HTTP Basic's password. A binding belongs to
// its secret (same folder and name): it goes when the secret is removed and
// moves with its folder. Bindings hold no value and are listed freely.

#include "core/result.h"
#include "secrets/secret_store.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::secrets {

// Where a bound value goes in a request: `header` whose value is `value`
// with the secret at its one '{}', or (basic) the password of an
// `Authorization: Basic` header.
struct SecretPlacement
{
    bool basic = false;
    QString header; // e.g. Authorization
    QString value;  // e.g. Bearer {}

    bool operator==(const SecretPlacement &) const = default;
};

struct SecretBinding
{
    QString folder; // the secret's folder: '' is every folder
    QString key;
    // Allowlist targets as stored (policy/host_name.h): a name with a dot
    // covers its subdomains, as an allow entry does.
    QStringList hosts;
    SecretPlacement placement;
    QString createdAt;

    bool operator==(const SecretBinding &) const = default;
};

// `Header-Name: text with {} once`, as `arizukoctl secret bind --header`
// and the secrets editor take it. Framing and hop-by-hop headers (Host,
// Content-Length, Transfer-Encoding, Connection, Proxy-*) are refused.
Result<SecretPlacement> parseHeaderTemplate(const QString &text);
// The same text back: `Authorization: Bearer {}`, or `basic`.
QString placementText(const SecretPlacement &placement);

class SecretBindings
{
public:
    SecretBindings(store::Store &store, QString actor);

    // Binds (or binds anew) the secret `key` of `scope`, which must exist.
    // Hosts are normalised as allow entries are; at least one.
    Result<SecretBinding> bind(const SecretScope &scope, const QString &key,
                               const QStringList &hosts, const SecretPlacement &placement);
    Result<void> unbind(const SecretScope &scope, const QString &key);
    Result<QList<SecretBinding>> list() const;
    // The bindings of the secrets a turn in `folder` sees: for each name the
    // one of the nearest folder up the tree that holds the secret (as
    // shell:env and connectors resolve it), when that one is bound.
    Result<QList<SecretBinding>> visibleFrom(const QString &folder) const;

private:
    store::Store &m_store;
    QString m_actor;
};

} // namespace arizuko::secrets
