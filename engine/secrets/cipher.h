#pragma once

// AES-256-GCM through OpenSSL's EVP API. A sealed value is
// "v2:" + base64(nonce(12) || ciphertext || tag(16)) with a fresh random
// nonce each time. Opening checks the tag: a tampered, truncated or
// wrongly-bound value is an error, never garbage.

#include "core/result.h"

#include <QByteArray>

namespace arizuko::secrets {

constexpr qsizetype masterKeyBytes = 32;

// `associatedData` binds the value to where it is stored (its row), so a
// sealed value copied to another row does not open there.
Result<QByteArray> seal(const QByteArray &key, const QByteArray &plaintext,
                        const QByteArray &associatedData);
Result<QByteArray> unseal(const QByteArray &key, const QByteArray &sealed,
                          const QByteArray &associatedData);

// Cryptographically random bytes (OpenSSL's RAND_bytes).
Result<QByteArray> randomBytes(qsizetype count);

} // namespace arizuko::secrets
