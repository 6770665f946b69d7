package dev.canal.binlog.net;

import java.util.List;
import java.util.Set;

/**
 * TLS settings of the connection to the source, and what may protect the password without TLS.
 *
 * @param trustStore certificates that VERIFY_CA / VERIFY_IDENTITY accept; null means the JVM's default trust store
 * @param clientKeyStore the client certificate and key for servers that require one; null for none
 * @param allowPublicKeyRetrieval whether, on a connection without TLS, the password may be sent encrypted with an
 *     RSA public key the server sends over that same connection (caching_sha2_password's full authentication,
 *     sha256_password). Off by default, as in MySQL's own connectors: whoever sits between client and server can
 *     send a key of their own and read the password
 */
public record SslOptions(SslMode mode, List<String> tlsVersions, KeyStoreSource trustStore,
        KeyStoreSource clientKeyStore, boolean allowPublicKeyRetrieval) {

    public static final List<String> DEFAULT_TLS_VERSIONS = List.of("TLSv1.2", "TLSv1.3");
    private static final Set<String> KNOWN_TLS_VERSIONS = Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    public SslOptions {
        if (mode == null) {
            throw new IllegalArgumentException("sslMode must not be null");
        }
        tlsVersions = List.copyOf(tlsVersions == null || tlsVersions.isEmpty() ? DEFAULT_TLS_VERSIONS : tlsVersions);
        for (String v : tlsVersions) {
            if (!KNOWN_TLS_VERSIONS.contains(v)) {
                throw new IllegalArgumentException("unknown TLS version '" + v + "' in tlsVersions, expected some of "
                        + KNOWN_TLS_VERSIONS);
            }
        }
    }

    public static SslOptions disabled() {
        return of(SslMode.DISABLED);
    }

    public static SslOptions of(SslMode mode) {
        return new SslOptions(mode, DEFAULT_TLS_VERSIONS, null, null, false);
    }

    public SslOptions withTrustStore(KeyStoreSource store) {
        return new SslOptions(mode, tlsVersions, store, clientKeyStore, allowPublicKeyRetrieval);
    }

    public SslOptions withClientKeyStore(KeyStoreSource store) {
        return new SslOptions(mode, tlsVersions, trustStore, store, allowPublicKeyRetrieval);
    }

    public SslOptions withPublicKeyRetrieval(boolean allowed) {
        return new SslOptions(mode, tlsVersions, trustStore, clientKeyStore, allowed);
    }
}
