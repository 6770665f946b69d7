package dev.canal.binlog.net;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * TLS settings of the connection to the source (canal-compat.md 7.3: {@code canal.instance.master.sslMode},
 * {@code tlsVersions}, {@code trustCertificateKeyStore*}, {@code clientCertificateKeyStore*}, and the same under
 * {@code canal.instance.standby.}).
 *
 * @param trustStore certificates that VERIFY_CA / VERIFY_IDENTITY accept; null means the JVM's default trust store
 * @param clientKeyStore the client certificate and key for servers that require one; null for none
 */
public record SslOptions(SslMode mode, List<String> tlsVersions, KeyStoreSource trustStore,
        KeyStoreSource clientKeyStore) {

    public static final List<String> DEFAULT_TLS_VERSIONS = List.of("TLSv1.2", "TLSv1.3");
    private static final Set<String> KNOWN_TLS_VERSIONS = Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");
    private static final String DEFAULT_STORE_TYPE = "JKS";

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
        return new SslOptions(SslMode.DISABLED, DEFAULT_TLS_VERSIONS, null, null);
    }

    public static SslOptions of(SslMode mode) {
        return new SslOptions(mode, DEFAULT_TLS_VERSIONS, null, null);
    }

    public SslOptions withTrustStore(KeyStoreSource store) {
        return new SslOptions(mode, tlsVersions, store, clientKeyStore);
    }

    public SslOptions withClientKeyStore(KeyStoreSource store) {
        return new SslOptions(mode, tlsVersions, trustStore, store);
    }

    /**
     * Reads the TLS keys under {@code prefix} ({@code canal.instance.master.} or {@code canal.instance.standby.});
     * blank keys count as absent. A password or type without its URL is rejected, naming the key.
     */
    public static SslOptions fromProperties(Properties properties, String prefix) {
        String mode = value(properties, prefix + "sslMode");
        String versions = value(properties, prefix + "tlsVersions");
        return new SslOptions(mode == null ? SslMode.DISABLED : SslMode.parse(mode),
                versions == null ? DEFAULT_TLS_VERSIONS
                        : Arrays.stream(versions.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(),
                store(properties, prefix + "trustCertificateKeyStore"),
                store(properties, prefix + "clientCertificateKeyStore"));
    }

    private static KeyStoreSource store(Properties properties, String keyPrefix) {
        String url = value(properties, keyPrefix + "Url");
        String type = value(properties, keyPrefix + "Type");
        String password = value(properties, keyPrefix + "Password");
        if (url == null) {
            if (password != null || type != null) {
                throw new IllegalArgumentException(keyPrefix + "Url must be set when " + keyPrefix
                        + (password != null ? "Password" : "Type") + " is");
            }
            return null;
        }
        return new KeyStoreSource(type == null ? DEFAULT_STORE_TYPE : type, url, password);
    }

    private static String value(Properties properties, String key) {
        String v = properties.getProperty(key);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
