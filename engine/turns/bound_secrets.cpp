#include "turns/bound_secrets.h"

#include "secrets/secret_store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <array>

namespace arizuko::turns {

QString makeSecretPlaceholder()
{
    std::array<quint32, 4> bits{};
    // QRandomGenerator::system(): the kernel's cryptographic source.
    QRandomGenerator::system()->fillRange(bits.data(), bits.size());
    const QByteArray raw(reinterpret_cast<const char *>(bits.data()), sizeof(bits));
    return QStringLiteral("arizuko-placeholder-") + QString::fromLatin1(raw.toHex());
}

Result<QList<BoundSecret>> resolveBoundSecrets(const QList<secrets::SecretBinding> &visible,
                                               secrets::SecretStore &secrets)
{
    QList<BoundSecret> bound;
    for (const secrets::SecretBinding &binding : visible) {
        Result<QByteArray> value = secrets.get({binding.folder}, binding.key);
        if (!value)
            return makeError(value.error().code,
                             QStringLiteral("no turn: the bound secret %1 could not be read: %2")
                                 .arg(binding.key, value.error().message));
        bound << BoundSecret{binding, std::move(*value), makeSecretPlaceholder()};
    }
    return bound;
}

QStringList boundSecretHosts(const QList<BoundSecret> &bound)
{
    QStringList hosts;
    for (const BoundSecret &secret : bound) {
        for (const QString &host : secret.binding.hosts) {
            if (!hosts.contains(host))
                hosts << host;
        }
    }
    return hosts;
}

QJsonObject withPlaceholders(QJsonObject environment, const QList<BoundSecret> &bound)
{
    for (const BoundSecret &secret : bound)
        environment.insert(secret.binding.key, secret.placeholder);
    return environment;
}

QByteArray egressSecretLines(const QList<BoundSecret> &bound)
{
    QByteArray lines;
    for (const BoundSecret &secret : bound) {
        QJsonObject line{
            {QStringLiteral("name"), secret.binding.key},
            {QStringLiteral("placeholder"), secret.placeholder},
            {QStringLiteral("value_b64"), QString::fromLatin1(secret.value.toBase64())},
            {QStringLiteral("hosts"), QJsonArray::fromStringList(secret.binding.hosts)}};
        if (secret.binding.placement.basic) {
            line.insert(QStringLiteral("basic"), true);
        } else {
            line.insert(QStringLiteral("header"), secret.binding.placement.header);
            line.insert(QStringLiteral("template"), secret.binding.placement.value);
        }
        lines += QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    }
    return lines;
}

} // namespace arizuko::turns
