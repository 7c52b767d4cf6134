// A turn's certificate authority, checked with OpenSSL's own verifier as a
// guest's client would: a leaf its key signs verifies for the hosts the turn
// inspects and for no other name (its name constraints), nor under another
// turn's authority; the bundle the proxy reads holds the certificate and the
// matching key, and the engine refuses a host it cannot constrain to.

#include "https/turn_authority.h"

#include <QTest>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <unistd.h>

using namespace arizuko;

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
using Store = std::unique_ptr<X509_STORE, Freer<X509_STORE_free>>;
using StoreContext = std::unique_ptr<X509_STORE_CTX, Freer<X509_STORE_CTX_free>>;

https::TurnAuthority authorityFor(const QStringList &hosts)
{
    auto made = https::makeTurnAuthority(
        {QStringLiteral("t-0001"), hosts, QDateTime::currentDateTimeUtc().addSecs(3600)});
    if (!made)
        qFatal("%s", qPrintable(made.error().message));
    return std::move(*made);
}

// What the proxy reads: the whole pipe, to its end.
QByteArray readBundle(const https::TurnAuthority &authority)
{
    auto pipe = authority.proxyBundlePipe();
    if (!pipe)
        qFatal("%s", qPrintable(pipe.error().message));
    QByteArray bundle;
    char buffer[4096];
    for (ssize_t got; (got = ::read(pipe->get(), buffer, sizeof buffer)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            qFatal("read: %d", errno);
        bundle.append(buffer, got);
    }
    return bundle;
}

Certificate certificateFrom(const QByteArray &pem)
{
    const Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return Certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

Key keyFrom(const QByteArray &pem)
{
    const Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return Key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

// A server certificate for `subjectAltName` (e.g. "DNS:api.github.com"),
// signed by the authority's key, as the proxy mints one.
Certificate leaf(X509 *issuer, EVP_PKEY *issuerKey, const char *subjectAltName)
{
    const Key key(EVP_EC_gen("P-256"));
    Certificate certificate(X509_new());
    X509_set_version(certificate.get(), X509_VERSION_3);
    ASN1_INTEGER_set(X509_get_serialNumber(certificate.get()), 2);
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -60);
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 600);
    X509_set_issuer_name(certificate.get(), X509_get_subject_name(issuer));
    X509_set_pubkey(certificate.get(), key.get());
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate.get(), nullptr, nullptr, 0);
    X509_EXTENSION *extension =
        X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, subjectAltName);
    X509_add_ext(certificate.get(), extension, -1);
    X509_EXTENSION_free(extension);
    X509_sign(certificate.get(), issuerKey, EVP_sha256());
    return certificate;
}

// OpenSSL's verdict on `certificate` with `trusted` the only root: X509_V_OK
// or the error a client would report.
int verify(X509 *trusted, X509 *certificate)
{
    const Store store(X509_STORE_new());
    X509_STORE_add_cert(store.get(), trusted);
    const StoreContext context(X509_STORE_CTX_new());
    X509_STORE_CTX_init(context.get(), store.get(), certificate, nullptr);
    X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_SERVER);
    X509_verify_cert(context.get());
    return X509_STORE_CTX_get_error(context.get());
}

} // namespace

class TurnAuthorityTest final : public QObject
{
    Q_OBJECT

private slots:
    void theBundleHoldsTheCertificateAndItsKey()
    {
        const https::TurnAuthority authority = authorityFor({QStringLiteral("github.com")});
        const QByteArray bundle = readBundle(authority);
        QVERIFY(bundle.startsWith(authority.certificatePem()));
        QVERIFY(bundle.contains("-----BEGIN PRIVATE KEY-----")); // PKCS#8, unencrypted
        const Certificate certificate = certificateFrom(bundle);
        const Key key = keyFrom(bundle.mid(authority.certificatePem().size()));
        QVERIFY(certificate && key);
        QCOMPARE(X509_check_private_key(certificate.get(), key.get()), 1);
        // Nothing inherits the pipe by accident: the proxy gets it by dup2.
        auto pipe = authority.proxyBundlePipe();
        QVERIFY(pipe);
        QVERIFY(::fcntl(pipe->get(), F_GETFD) & FD_CLOEXEC);
    }

    void itIsAnAuthorityOfOneLevelUntilTheDeadline()
    {
        const QDateTime deadline = QDateTime::currentDateTimeUtc().addSecs(1800);
        auto made = https::makeTurnAuthority(
            {QStringLiteral("t-0002"), {QStringLiteral("github.com")}, deadline});
        QVERIFY(made);
        const Certificate certificate = certificateFrom(made->certificatePem());
        QCOMPARE(X509_check_ca(certificate.get()), 1);
        QCOMPARE(X509_get_pathlen(certificate.get()), 0L);
        QVERIFY(X509_get_key_usage(certificate.get()) & KU_KEY_CERT_SIGN);
        QCOMPARE(ASN1_TIME_cmp_time_t(X509_get0_notAfter(certificate.get()),
                                      time_t(deadline.toSecsSinceEpoch())),
                 0);
        QCOMPARE(X509_cmp_current_time(X509_get0_notBefore(certificate.get())), -1);
        const int constraints = X509_get_ext_by_NID(certificate.get(), NID_name_constraints, -1);
        QVERIFY(constraints >= 0);
        QCOMPARE(X509_EXTENSION_get_critical(X509_get_ext(certificate.get(), constraints)), 1);
    }

    void itVouchesForTheInspectedHostsAndNoOtherName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("trusted");
        QTest::newRow("the host") << "DNS:github.com" << true;
        QTest::newRow("a subdomain") << "DNS:api.github.com" << true;
        QTest::newRow("the other host") << "DNS:registry.npmjs.org" << true;
        QTest::newRow("the address") << "IP:192.0.2.7" << true;
        QTest::newRow("a look-alike") << "DNS:evilgithub.com" << false;
        QTest::newRow("another host") << "DNS:example.org" << false;
        QTest::newRow("another address") << "IP:192.0.2.8" << false;
        QTest::newRow("a parent") << "DNS:npmjs.org" << false;
    }
    void itVouchesForTheInspectedHostsAndNoOtherName()
    {
        QFETCH(QString, name);
        QFETCH(bool, trusted);
        const https::TurnAuthority authority =
            authorityFor({QStringLiteral("github.com"), QStringLiteral("registry.npmjs.org"),
                          QStringLiteral("192.0.2.7")});
        const QByteArray bundle = readBundle(authority);
        const Certificate ca = certificateFrom(bundle);
        const Key key = keyFrom(bundle.mid(authority.certificatePem().size()));
        const Certificate server = leaf(ca.get(), key.get(), qPrintable(name));
        const int verdict = verify(ca.get(), server.get());
        if (trusted)
            QCOMPARE(verdict, X509_V_OK);
        else
            QCOMPARE(verdict, X509_V_ERR_PERMITTED_VIOLATION);
    }

    void anotherTurnsAuthorityVouchesForNothingHere()
    {
        const https::TurnAuthority first = authorityFor({QStringLiteral("github.com")});
        const https::TurnAuthority second = authorityFor({QStringLiteral("github.com")});
        const QByteArray firstBundle = readBundle(first);
        const Certificate server =
            leaf(certificateFrom(firstBundle).get(),
                 keyFrom(firstBundle.mid(first.certificatePem().size())).get(), "DNS:github.com");
        // Both carry the same name (one turn's id): only the key tells them apart.
        QCOMPARE(verify(certificateFrom(second.certificatePem()).get(), server.get()),
                 X509_V_ERR_CERT_SIGNATURE_FAILURE);
    }

    void aHostItCannotConstrainToIsRefused_data()
    {
        QTest::addColumn<QStringList>("hosts");
        QTest::addColumn<QString>("named");
        QTest::newRow("none") << QStringList() << "no host";
        QTest::newRow("a second constraint smuggled in")
            << QStringList{QStringLiteral("a.com,permitted;DNS:evil.com")} << "'a.com,permitted";
        QTest::newRow("an empty label") << QStringList{QStringLiteral("a..com")} << "'a..com'";
        QTest::newRow("upper case, not the stored form")
            << QStringList{QStringLiteral("GitHub.com")} << "'GitHub.com'";
    }
    void aHostItCannotConstrainToIsRefused()
    {
        QFETCH(QStringList, hosts);
        QFETCH(QString, named);
        auto made = https::makeTurnAuthority(
            {QStringLiteral("t-0003"), hosts, QDateTime::currentDateTimeUtc().addSecs(60)});
        QVERIFY(!made);
        QCOMPARE(made.error().code, QStringLiteral("https.authority"));
        QVERIFY2(made.error().message.contains(named), qPrintable(made.error().message));
    }

    void aDeadlineInThePastIsRefused()
    {
        auto made = https::makeTurnAuthority({QStringLiteral("t-0004"),
                                              {QStringLiteral("github.com")},
                                              QDateTime::currentDateTimeUtc().addSecs(-1)});
        QVERIFY(!made);
        QVERIFY2(made.error().message.contains(QStringLiteral("not in the future")),
                 qPrintable(made.error().message));
    }
};

QTEST_GUILESS_MAIN(TurnAuthorityTest)
#include "test_turn_authority.moc"
