#include "https/turn_authority.h"

#include "posix/filled_pipe.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string_view>
#include <unistd.h>

namespace arizuko::https {
namespace {

template<auto Free>
struct Freer
{
    template<typename T>
    void operator()(T *pointer) const
    {
        Free(pointer);
    }
};
using Key = std::unique_ptr<EVP_PKEY, Freer<EVP_PKEY_free>>;
using Certificate = std::unique_ptr<X509, Freer<X509_free>>;
using Bio = std::unique_ptr<BIO, Freer<BIO_free>>;
using BigNumber = std::unique_ptr<BIGNUM, Freer<BN_free>>;
using Extension = std::unique_ptr<X509_EXTENSION, Freer<X509_EXTENSION_free>>;

// Guest clocks drift; a certificate from the future would be refused.
constexpr qint64 backdateSeconds = 300;

Error failure(const QString &what)
{
    return makeError(QStringLiteral("https.authority"),
                     QStringLiteral("Cannot make the turn's certificate authority: %1").arg(what));
}

Error openSslFailure(const char *step)
{
    return failure(QStringLiteral("OpenSSL failed at %1").arg(QLatin1String(step)));
}

// One permitted subtree: a name (which covers its subdomains, as an allow
// entry does) or one address. Anything else cannot be written into the
// extension's text safely and is refused.
Result<QString> permittedSubtree(const QString &host)
{
    QString name = host;
    if (name.startsWith(QLatin1String("*.")))
        name = name.mid(2);
    const QHostAddress address(name);
    if (!address.isNull()) {
        const bool v4 = address.protocol() == QAbstractSocket::IPv4Protocol;
        return QStringLiteral("permitted;IP:%1/%2")
            .arg(address.toString(),
                 v4 ? QStringLiteral("255.255.255.255")
                    : QStringLiteral("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
    }
    static const QRegularExpression label(
        QStringLiteral("^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
                       "(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"));
    if (!label.match(name).hasMatch())
        return failure(QStringLiteral("'%1' is not a host name in the allowlist's form").arg(host));
    return QStringLiteral("permitted;DNS:%1").arg(name);
}

Result<void> addExtension(X509 *certificate, int nid, const QString &value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    const Extension extension(
        X509V3_EXT_conf_nid(nullptr, &context, nid, value.toLatin1().constData()));
    if (!extension || X509_add_ext(certificate, extension.get(), -1) != 1)
        return openSslFailure(OBJ_nid2sn(nid));
    return {};
}

Result<void> setSerial(X509 *certificate)
{
    unsigned char random[16];
    if (RAND_bytes(random, sizeof random) != 1)
        return openSslFailure("RAND_bytes");
    random[0] &= 0x7f; // positive, as RFC 5280 wants
    const BigNumber serial(BN_bin2bn(random, sizeof random, nullptr));
    if (!serial || !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate)))
        return openSslFailure("serial");
    return {};
}

Result<void> setNames(X509 *certificate, const QString &turn)
{
    X509_NAME *name = X509_get_subject_name(certificate);
    const QByteArray common = QStringLiteral("Arizuko turn %1").arg(turn).left(64).toUtf8();
    if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>("Arizuko Desktop"), -1,
                                   -1, 0) != 1 ||
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>(common.constData()),
                                   int(common.size()), -1, 0) != 1 ||
        X509_set_issuer_name(certificate, name) != 1)
        return openSslFailure("names");
    return {};
}

Result<void> setValidity(X509 *certificate, const QDateTime &notAfter)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (!notAfter.isValid() || notAfter.toSecsSinceEpoch() <= now)
        return failure(QStringLiteral("its end of validity is not in the future"));
    if (!ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(now - backdateSeconds)) ||
        !ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter.toSecsSinceEpoch())))
        return openSslFailure("validity");
    return {};
}

// PEM text of `write`'s output, through a BIO in OpenSSL's secure heap
// (cleansed when freed): the key's text passes through no other buffer.
template<typename Write>
Result<std::string> pem(Write write)
{
    const Bio bio(BIO_new(BIO_s_secmem()));
    if (!bio || write(bio.get()) != 1)
        return openSslFailure("PEM");
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, size_t(size));
}

} // namespace

TurnAuthority::TurnAuthority(QByteArray certificatePem, std::string privateKeyPem)
    : m_certificatePem(std::move(certificatePem))
    , m_privateKeyPem(std::move(privateKeyPem))
{}

TurnAuthority::~TurnAuthority()
{
    OPENSSL_cleanse(m_privateKeyPem.data(), m_privateKeyPem.size());
}

Result<posix::UniqueFd> TurnAuthority::proxyBundlePipe() const
{
    std::string bundle(m_certificatePem.constData(), size_t(m_certificatePem.size()));
    bundle += m_privateKeyPem;
    std::string error;
    posix::UniqueFd read = posix::filledPipe(bundle, error);
    OPENSSL_cleanse(bundle.data(), bundle.size());
    if (!read)
        return failure(QStringLiteral("the proxy's pipe: %1").arg(QString::fromStdString(error)));
    return read;
}

Result<TurnAuthority> makeTurnAuthority(const TurnAuthorityRequest &request)
{
    if (request.hosts.isEmpty())
        return failure(QStringLiteral("it would vouch for no host"));
    QStringList subtrees;
    for (const QString &host : request.hosts) {
        auto subtree = permittedSubtree(host);
        if (!subtree)
            return subtree.error();
        subtrees.append(*subtree);
    }
    subtrees.removeDuplicates();

    const Key key(EVP_EC_gen("P-256"));
    const Certificate certificate(X509_new());
    if (!key || !certificate || X509_set_version(certificate.get(), X509_VERSION_3) != 1 ||
        X509_set_pubkey(certificate.get(), key.get()) != 1)
        return openSslFailure("the key");
    const QList<std::pair<int, QString>> extensions{
        {NID_basic_constraints, QStringLiteral("critical,CA:TRUE,pathlen:0")},
        {NID_key_usage, QStringLiteral("critical,keyCertSign,cRLSign")},
        {NID_subject_key_identifier, QStringLiteral("hash")},
        {NID_name_constraints, QStringLiteral("critical,") + subtrees.join(QLatin1Char(','))},
    };
    if (auto serial = setSerial(certificate.get()); !serial)
        return serial.error();
    if (auto names = setNames(certificate.get(), request.turn); !names)
        return names.error();
    if (auto validity = setValidity(certificate.get(), request.notAfter); !validity)
        return validity.error();
    for (const auto &[nid, value] : extensions) {
        if (auto added = addExtension(certificate.get(), nid, value); !added)
            return added.error();
    }
    if (X509_sign(certificate.get(), key.get(), EVP_sha256()) <= 0)
        return openSslFailure("X509_sign");

    auto certificatePem = pem([&](BIO *bio) { return PEM_write_bio_X509(bio, certificate.get()); });
    auto keyPem = pem([&](BIO *bio) {
        return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
    if (!certificatePem)
        return certificatePem.error();
    if (!keyPem)
        return keyPem.error();
    return TurnAuthority(QByteArray::fromStdString(*certificatePem), std::move(*keyPem));
}

} // namespace arizuko::https
