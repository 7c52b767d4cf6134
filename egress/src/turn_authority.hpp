#pragma once

// The TLS side of inspected hosts: the turn's certificate authority (read once from an inherited
// descriptor, never from a file or the command line), the leaf certificate minted for each
// inspected host name on first use, and the two contexts every inspected connection starts from:
// the proxy as the guest's server, and the proxy as the upstream's verifying client.

#include "expected.hpp"
#include "host_name.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <openssl/ssl.h>
#include <string>

namespace arizuko::egress {

struct SslDeleter
{
    void operator()(SSL *ssl) const { SSL_free(ssl); }
};
using UniqueSsl = std::unique_ptr<SSL, SslDeleter>;

class TurnAuthority
{
public:
    // Reads the PEM CA certificate and its PEM private key from `fd` to its end, then closes it.
    // Upstreams are verified against the system store, or only against the PEM file
    // `testUpstreamCa` names (EGRESS_TEST_UPSTREAM_CA, for tests).
    static Expected<std::unique_ptr<TurnAuthority>> readFrom(int fd,
                                                             const char *testUpstreamCa);
    ~TurnAuthority();
    TurnAuthority(const TurnAuthority &) = delete;
    TurnAuthority &operator=(const TurnAuthority &) = delete;

    // A server session presenting a leaf for `host` signed by the turn's CA. Safe from any thread.
    Expected<UniqueSsl> serverSession(const HostName &host);
    // A client session that verifies the upstream's chain and that it is for `host`.
    Expected<UniqueSsl> upstreamSession(const HostName &host) const;

private:
    TurnAuthority() = default;
    Expected<X509 *> leafFor(const HostName &host);

    X509 *ca_ = nullptr;
    EVP_PKEY *caKey_ = nullptr;
    // One key for every leaf: minting then costs one signature, not a key generation.
    EVP_PKEY *leafKey_ = nullptr;
    SSL_CTX *server_ = nullptr;
    SSL_CTX *upstream_ = nullptr;
    std::mutex leavesMutex_;
    std::map<std::string, X509 *> leaves_;
};

} // namespace arizuko::egress
