#pragma once

// A turn's bound secrets (secrets/secret_bindings.h; docs/security-model.md,
// "Credentials as placeholders"): for each secret the turn's folder sees
// that is bound to hosts, its value and a placeholder made for this turn
// alone. The guest gets the placeholder in its environment under the
// secret's name; the proxy gets the value, the placeholder and the binding
// on its kSecretsFd (egressSecretLines), and swaps one for the other only
// in requests to the bound hosts.

#include "core/result.h"
#include "secrets/secret_bindings.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::secrets {
class SecretStore;
}

namespace arizuko::turns {

struct BoundSecret
{
    secrets::SecretBinding binding;
    QByteArray value;
    QString placeholder;
};

// `arizuko-placeholder-` and 32 lower-case hex digits of 128 bits from the
// system's random source: unguessable, and recognisable in a leak.
QString makeSecretPlaceholder();

// On a worker: each of the bindings a turn's folder sees
// (SecretBindings::visibleFrom) with its value and a fresh placeholder. A
// value that cannot be read fails it all: no turn.
Result<QList<BoundSecret>> resolveBoundSecrets(const QList<secrets::SecretBinding> &visible,
                                               secrets::SecretStore &secrets);

// The hosts they go to, each once: inspected by the turn's proxy.
QStringList boundSecretHosts(const QList<BoundSecret> &bound);

// The guest's environment with each bound secret's name set to its
// placeholder, over whatever a shell:env grant gave it (its value).
QJsonObject withPlaceholders(QJsonObject environment, const QList<BoundSecret> &bound);

// What the proxy reads on its kSecretsFd: one JSON line per binding
// (docs/egress.md), values base64-encoded.
QByteArray egressSecretLines(const QList<BoundSecret> &bound);

} // namespace arizuko::turns
