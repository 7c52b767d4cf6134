#include "turn_authority.hpp"

#include "descriptor_read.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <unistd.h>

namespace arizuko::egress {
namespace {

// Leaves live a day at most (and never past the CA): a turn is shorter, and a leaf that leaked
// from one is soon worthless.
constexpr long kLeafLifetime = 24 * 3600;
// A certificate and its key are a few KiB; anything larger is not what the engine sends.
constexpr size_t kMaxCaBytes = 1 << 20;
constexpr unsigned char kHttp11Alpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

std::string openSslError(std::string_view what)
{
    std::string message(what);
    if (const unsigned long code = ERR_get_error(); code != 0) {
        char text[256];
        ERR_error_string_n(code, text, sizeof(text));
        message += ": ";
        message += text;
    }
    ERR_clear_error();
    return message;
}

struct BioDeleter
{
    void operator()(BIO *bio) const { BIO_free(bio); }
};

// The guest is offered HTTP/1.1 and nothing else: the proxy judges HTTP/1.1 requests only.
int selectHttp11(SSL *, const unsigned char **out, unsigned char *outLength,
                 const unsigned char *offered, unsigned int offeredLength, void *)
{
    unsigned char *selected = nullptr;
    if (SSL_select_next_proto(&selected, outLength, kHttp11Alpn, sizeof(kHttp11Alpn), offered,
                              offeredLength) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

bool addExtension(X509 *certificate, X509V3_CTX &context, int nid, const std::string &value)
{
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
    if (extension == nullptr)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

} // namespace

Expected<std::unique_ptr<TurnAuthority>> TurnAuthority::readFrom(int fd, const char *testUpstreamCa)
{
    const std::string flag = "--inspect-ca-fd " + std::to_string(fd);
    auto read = readDescriptor(fd, kMaxCaBytes, flag);
    if (!read)
        return Failure{read.error()};
    std::string &pem = read.value();
    std::unique_ptr<TurnAuthority> authority(new TurnAuthority);
    {
        std::unique_ptr<BIO, BioDeleter> certificateBio(
            BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
        std::unique_ptr<BIO, BioDeleter> keyBio(
            BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
        authority->ca_ = PEM_read_bio_X509(certificateBio.get(), nullptr, nullptr, nullptr);
        authority->caKey_ = PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr);
    }
    OPENSSL_cleanse(pem.data(), pem.size());
    ERR_clear_error();
    if (authority->ca_ == nullptr || authority->caKey_ == nullptr)
        return Failure{flag + ": expected a PEM certificate and its PEM private key"};
    if (X509_check_private_key(authority->ca_, authority->caKey_) != 1)
        return Failure{openSslError(flag + ": the private key is not the certificate's")};
    if (X509_check_ca(authority->ca_) < 1)
        return Failure{flag + ": the certificate is not a certificate authority"};

    authority->leafKey_ = EVP_EC_gen("P-256");
    authority->server_ = SSL_CTX_new(TLS_server_method());
    authority->upstream_ = SSL_CTX_new(TLS_client_method());
    if (authority->leafKey_ == nullptr || authority->server_ == nullptr ||
        authority->upstream_ == nullptr)
        return Failure{openSslError("TLS setup failed")};
    for (SSL_CTX *context : {authority->server_, authority->upstream_}) {
        SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
        SSL_CTX_set_mode(context, SSL_MODE_AUTO_RETRY);
    }
    SSL_CTX_set_alpn_select_cb(authority->server_, selectHttp11, nullptr);
    // The upstream is always verified, chain and name (per session); only the store it is
    // verified against can be replaced, and only by a test.
    SSL_CTX_set_verify(authority->upstream_, SSL_VERIFY_PEER, nullptr);
    const bool storeLoaded =
        testUpstreamCa != nullptr
            ? SSL_CTX_load_verify_locations(authority->upstream_, testUpstreamCa, nullptr) == 1
            : SSL_CTX_set_default_verify_paths(authority->upstream_) == 1;
    if (!storeLoaded)
        return Failure{
            openSslError(testUpstreamCa != nullptr
                             ? "EGRESS_TEST_UPSTREAM_CA: cannot load " + std::string(testUpstreamCa)
                             : std::string("the system trust store cannot be loaded"))};
    SSL_CTX_set_alpn_protos(authority->upstream_, kHttp11Alpn, sizeof(kHttp11Alpn));
    return authority;
}

TurnAuthority::~TurnAuthority()
{
    for (auto &entry : leaves_)
        X509_free(entry.second);
    SSL_CTX_free(upstream_);
    SSL_CTX_free(server_);
    EVP_PKEY_free(leafKey_);
    EVP_PKEY_free(caKey_);
    X509_free(ca_);
}

Expected<X509 *> TurnAuthority::leafFor(const HostName &host)
{
    const std::lock_guard lock(leavesMutex_);
    if (const auto found = leaves_.find(host.text); found != leaves_.end())
        return found->second;
    X509 *leaf = X509_new();
    const auto fail = [&](std::string_view what) -> Expected<X509 *> {
        X509_free(leaf);
        return Failure{openSslError(what)};
    };
    BIGNUM *serial = BN_new();
    const bool serialSet = serial != nullptr &&
                           BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1 &&
                           BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(leaf)) != nullptr;
    BN_free(serial);
    if (!serialSet || X509_set_version(leaf, 2) != 1)
        return fail("minting a leaf certificate");
    X509_gmtime_adj(X509_getm_notBefore(leaf), -300);
    X509_gmtime_adj(X509_getm_notAfter(leaf), kLeafLifetime);
    if (X509_cmp_time(X509_get0_notAfter(ca_), nullptr) > 0 &&
        ASN1_TIME_compare(X509_get0_notAfter(leaf), X509_get0_notAfter(ca_)) > 0)
        X509_set1_notAfter(leaf, X509_get0_notAfter(ca_));
    X509_set_issuer_name(leaf, X509_get_subject_name(ca_));
    // A common name is at most 64 bytes; the subject alternative name is what clients check.
    if (host.text.size() <= 64)
        X509_NAME_add_entry_by_txt(X509_get_subject_name(leaf), "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char *>(host.text.c_str()), -1,
                                   -1, 0);
    X509_set_pubkey(leaf, leafKey_);
    X509V3_CTX context;
    X509V3_set_ctx(&context, ca_, leaf, nullptr, nullptr, 0);
    const std::string alternativeName = (host.isIpLiteral ? "IP:" : "DNS:") + host.text;
    if (!addExtension(leaf, context, NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(leaf, context, NID_key_usage, "critical,digitalSignature") ||
        !addExtension(leaf, context, NID_ext_key_usage, "serverAuth") ||
        !addExtension(leaf, context, NID_subject_alt_name, alternativeName) ||
        !addExtension(leaf, context, NID_subject_key_identifier, "hash") ||
        !addExtension(leaf, context, NID_authority_key_identifier, "keyid:always"))
        return fail("minting a leaf certificate for " + host.text);
    if (X509_sign(leaf, caKey_, EVP_sha256()) == 0)
        return fail("signing a leaf certificate for " + host.text);
    leaves_.emplace(host.text, leaf);
    return leaf;
}

Expected<UniqueSsl> TurnAuthority::serverSession(const HostName &host)
{
    auto leaf = leafFor(host);
    if (!leaf)
        return Failure{leaf.error()};
    UniqueSsl ssl(SSL_new(server_));
    if (!ssl || SSL_use_certificate(ssl.get(), leaf.value()) != 1 ||
        SSL_use_PrivateKey(ssl.get(), leafKey_) != 1)
        return Failure{openSslError("a TLS server session for " + host.text)};
    return ssl;
}

Expected<UniqueSsl> TurnAuthority::upstreamSession(const HostName &host) const
{
    UniqueSsl ssl(SSL_new(upstream_));
    if (!ssl)
        return Failure{openSslError("a TLS client session")};
    bool named = false;
    if (host.isIpLiteral) {
        named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), host.text.c_str()) == 1;
    } else {
        SSL_set_hostflags(ssl.get(), X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        named = SSL_set_tlsext_host_name(ssl.get(), host.text.c_str()) == 1 &&
                SSL_set1_host(ssl.get(), host.text.c_str()) == 1;
    }
    if (!named)
        return Failure{openSslError("naming the upstream " + host.text)};
    return ssl;
}

} // namespace arizuko::egress
