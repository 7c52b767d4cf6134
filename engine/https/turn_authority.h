#pragma once

// A turn's own certificate authority (issue 37, docs/security-model.md,
// "Inspected hosts"): made by the engine when a turn whose folder inspects
// hosts starts, its certificate installed in the guest's trust store, its
// private key handed to the turn's proxy alone (on a pipe, never on disk or
// a command line), and gone with the turn. Name constraints limit it to the
// hosts the turn inspects, so even a key that got out could not vouch for
// any other name; the validity ends with the turn's deadline.

#include "core/result.h"
#include "posix/unique_fd.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <string>

namespace arizuko::https {

class TurnAuthority
{
public:
    TurnAuthority(QByteArray certificatePem, std::string privateKeyPem);
    TurnAuthority(TurnAuthority &&) noexcept = default;
    TurnAuthority &operator=(TurnAuthority &&) noexcept = default;
    TurnAuthority(const TurnAuthority &) = delete;
    TurnAuthority &operator=(const TurnAuthority &) = delete;
    // Overwrites the key's bytes: the engine holds it only until handed over.
    ~TurnAuthority();

    // What the guest trusts.
    const QByteArray &certificatePem() const { return m_certificatePem; }
    // The read end of a pipe holding the certificate, then the PKCS#8
    // private key, both PEM, and nothing more (the write end is closed):
    // what the proxy reads from its --inspect-ca-fd descriptor. The bundle
    // is far below a pipe's capacity, so this never waits for a reader.
    Result<posix::UniqueFd> proxyBundlePipe() const;

private:
    QByteArray m_certificatePem;
    std::string m_privateKeyPem;
};

struct TurnAuthorityRequest
{
    QString turn;
    // The inspected hosts, as the allowlist stores them: a name covers its
    // subdomains, an address only itself.
    QStringList hosts;
    QDateTime notAfter;
};

// An ECDSA P-256 authority for the request's hosts, valid from a few
// minutes ago (guest clocks drift) to `notAfter`. https.authority when a
// host cannot be a name constraint or OpenSSL fails.
Result<TurnAuthority> makeTurnAuthority(const TurnAuthorityRequest &request);

} // namespace arizuko::https
