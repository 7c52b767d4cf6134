#include "secrets/cipher.h"

#include <memory>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace arizuko::secrets {
namespace {

constexpr qsizetype nonceBytes = 12;
constexpr qsizetype tagBytes = 16;
const QByteArray prefix = QByteArrayLiteral("v2:");

struct ContextFree
{
    void operator()(EVP_CIPHER_CTX *context) const { EVP_CIPHER_CTX_free(context); }
};
using Context = std::unique_ptr<EVP_CIPHER_CTX, ContextFree>;

const unsigned char *bytes(const QByteArray &data)
{
    return reinterpret_cast<const unsigned char *>(data.constData());
}

unsigned char *bytes(QByteArray &data)
{
    return reinterpret_cast<unsigned char *>(data.data());
}

Error cryptoFailure(const char *step)
{
    return makeError(QStringLiteral("secrets.crypto"),
                     QStringLiteral("OpenSSL failed at %1").arg(QLatin1String(step)));
}

Error unopenable()
{
    // Deliberately one message for every way a value can be wrong: which one
    // it was tells an attacker something and a user nothing.
    return makeError(
        QStringLiteral("secrets.tampered"),
        QStringLiteral("a sealed secret failed authentication: it was tampered with, truncated, "
                       "moved to another row or sealed with another key"));
}

Result<void> checkKey(const QByteArray &key)
{
    if (key.size() != masterKeyBytes)
        return makeError(QStringLiteral("secrets.key"),
                         QStringLiteral("a master key must be %1 bytes, not %2")
                             .arg(masterKeyBytes)
                             .arg(key.size()));
    return {};
}

} // namespace

Result<QByteArray> randomBytes(qsizetype count)
{
    QByteArray random(count, Qt::Uninitialized);
    if (RAND_bytes(bytes(random), static_cast<int>(count)) != 1)
        return cryptoFailure("RAND_bytes");
    return random;
}

Result<QByteArray> seal(const QByteArray &key, const QByteArray &plaintext,
                        const QByteArray &associatedData)
{
    if (const Result<void> valid = checkKey(key); !valid)
        return valid.error();
    const Result<QByteArray> nonce = randomBytes(nonceBytes);
    if (!nonce)
        return nonce.error();
    const Context context(EVP_CIPHER_CTX_new());
    if (!context ||
        EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, nonceBytes, nullptr) != 1 ||
        EVP_EncryptInit_ex(context.get(), nullptr, nullptr, bytes(key), bytes(*nonce)) != 1)
        return cryptoFailure("EVP_EncryptInit_ex");
    int length = 0;
    if (!associatedData.isEmpty() &&
        EVP_EncryptUpdate(context.get(), nullptr, &length, bytes(associatedData),
                          static_cast<int>(associatedData.size())) != 1)
        return cryptoFailure("EVP_EncryptUpdate (associated data)");

    QByteArray body = *nonce + QByteArray(plaintext.size() + tagBytes, Qt::Uninitialized);
    unsigned char *ciphertext = bytes(body) + nonceBytes;
    if (EVP_EncryptUpdate(context.get(), ciphertext, &length, bytes(plaintext),
                          static_cast<int>(plaintext.size())) != 1)
        return cryptoFailure("EVP_EncryptUpdate");
    int finalLength = 0;
    if (EVP_EncryptFinal_ex(context.get(), ciphertext + length, &finalLength) != 1)
        return cryptoFailure("EVP_EncryptFinal_ex");
    if (EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, tagBytes,
                            ciphertext + length + finalLength) != 1)
        return cryptoFailure("EVP_CTRL_GCM_GET_TAG");
    return prefix + body.toBase64();
}

Result<QByteArray> unseal(const QByteArray &key, const QByteArray &sealed,
                          const QByteArray &associatedData)
{
    if (const Result<void> valid = checkKey(key); !valid)
        return valid.error();
    if (!sealed.startsWith(prefix))
        return unopenable();
    const QByteArray::FromBase64Result decoded = QByteArray::fromBase64Encoding(
        sealed.mid(prefix.size()), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() < nonceBytes + tagBytes)
        return unopenable();
    const QByteArray &body = decoded.decoded;
    const qsizetype ciphertextBytes = body.size() - nonceBytes - tagBytes;

    const Context context(EVP_CIPHER_CTX_new());
    if (!context ||
        EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, nonceBytes, nullptr) != 1 ||
        EVP_DecryptInit_ex(context.get(), nullptr, nullptr, bytes(key), bytes(body)) != 1)
        return cryptoFailure("EVP_DecryptInit_ex");
    int length = 0;
    if (!associatedData.isEmpty() &&
        EVP_DecryptUpdate(context.get(), nullptr, &length, bytes(associatedData),
                          static_cast<int>(associatedData.size())) != 1)
        return cryptoFailure("EVP_DecryptUpdate (associated data)");
    QByteArray plaintext(ciphertextBytes, Qt::Uninitialized);
    if (EVP_DecryptUpdate(context.get(), bytes(plaintext), &length, bytes(body) + nonceBytes,
                          static_cast<int>(ciphertextBytes)) != 1)
        return cryptoFailure("EVP_DecryptUpdate");
    QByteArray tag = body.right(tagBytes);
    if (EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, tagBytes, bytes(tag)) != 1)
        return cryptoFailure("EVP_CTRL_GCM_SET_TAG");
    int finalLength = 0;
    if (EVP_DecryptFinal_ex(context.get(), bytes(plaintext) + length, &finalLength) != 1) {
        OPENSSL_cleanse(plaintext.data(), static_cast<size_t>(plaintext.size()));
        return unopenable();
    }
    return plaintext;
}

} // namespace arizuko::secrets
