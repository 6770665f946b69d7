package dev.canal.binlog.net;

/** How a login was finally accepted, so callers (and tests) can see which path the server chose. */
public enum AuthMethod {
    /** mysql_native_password scramble. */
    NATIVE_PASSWORD,
    /** caching_sha2_password: the server had the password cached and accepted the scramble. */
    CACHING_SHA2_FAST,
    /** caching_sha2_password full authentication: cleartext password over TLS. */
    CACHING_SHA2_FULL_TLS,
    /** caching_sha2_password full authentication: password encrypted with the server's RSA public key. */
    CACHING_SHA2_FULL_RSA,
    /** sha256_password: cleartext password over TLS. */
    SHA256_TLS,
    /** sha256_password: password encrypted with the server's RSA public key. */
    SHA256_RSA,
    /** An account without a password. */
    EMPTY_PASSWORD
}
