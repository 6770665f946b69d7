package dev.canal.parse.mysql;

import dev.canal.binlog.net.KeyStoreSource;
import dev.canal.binlog.net.NetworkOptions;
import dev.canal.binlog.net.SslMode;
import dev.canal.binlog.net.SslOptions;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The keys of every connection to the source: socket settings, the largest packet taken, TLS and what protects the
 * password without it (docs/configuration.md, docs/security.md).
 */
public final class SourceConnectionKeys {

    public static final ConfigKey RECEIVE_BUFFER_SIZE = ConfigKey.canal("canal.instance.network.receiveBufferSize",
            "16384", "SO_RCVBUF of the replication connection, in bytes.").atLeast(1);
    public static final ConfigKey SEND_BUFFER_SIZE = ConfigKey.canal("canal.instance.network.sendBufferSize",
            "16384", "SO_SNDBUF of the replication connection, in bytes.").atLeast(1);
    public static final ConfigKey SO_TIMEOUT = ConfigKey.canal("canal.instance.network.soTimeout", "30",
            "Seconds a read from the source may wait before the connection counts as lost; longer than the "
                    + "source's heartbeat period.").atLeast(1);
    public static final ConfigKey HEARTBEAT_PERIOD = ConfigKey.ours("canal.instance.network.heartbeatPeriod", "15",
            "Seconds between the heartbeats an idle source sends on the binlog stream (Canal's fixed 15); below "
                    + "soTimeout (not set: 15, or half of soTimeout when that is shorter). Each heartbeat lets clients ack where the stream rests, past rotations and "
                    + "transactions they do not select (docs/operations.md).").atLeast(1);
    public static final ConfigKey MAX_PACKET_SIZE = ConfigKey.ours("canal.instance.network.maxPacketSize",
            "1073741824", "Largest packet or binlog event accepted from the source, in bytes (at least 1024); a source "
                    + "claiming more is disconnected. The default is the largest max_allowed_packet MySQL allows.")
            .atLeast(1024);
    public static final ConfigKey ALLOW_PUBLIC_KEY_RETRIEVAL = ConfigKey.ours(
            "canal.instance.master.allowPublicKeyRetrieval", "false",
            "Without TLS, let the source's RSA public key, sent over that same connection, protect the password "
                    + "(caching_sha2_password's first login, sha256_password), as Connector/J's option of that name; "
                    + "with TLS it is not needed (docs/security.md).");
    public static final ConfigKey SSL_MODE = ConfigKey.canal("canal.instance.master.sslMode", "DISABLED",
            "TLS to the source; VERIFY_CA and VERIFY_IDENTITY check its certificate.")
            .oneOf(Arrays.stream(SslMode.values()).map(Enum::name).toArray(String[]::new));
    public static final ConfigKey TLS_VERSIONS = ConfigKey.canal("canal.instance.master.tlsVersions",
            "TLSv1.2,TLSv1.3", "TLS protocol versions offered to the source, comma-separated.");
    public static final ConfigKey TRUST_STORE_URL = ConfigKey.canal("canal.instance.master.trustCertificateKeyStoreUrl",
            null, "Key store of the certificates VERIFY_CA and VERIFY_IDENTITY accept (file: URL); default the JVM's.");
    public static final ConfigKey TRUST_STORE_TYPE = ConfigKey.canal(
            "canal.instance.master.trustCertificateKeyStoreType", "JKS", "Type of the trust store: JKS or PKCS12.");
    public static final ConfigKey TRUST_STORE_PASSWORD = ConfigKey.canal(
            "canal.instance.master.trustCertificateKeyStorePassword", null, "Password of the trust store.");
    public static final ConfigKey CLIENT_STORE_URL = ConfigKey.canal(
            "canal.instance.master.clientCertificateKeyStoreUrl", null,
            "Key store holding the client certificate and key, for sources that require one (file: URL).");
    public static final ConfigKey CLIENT_STORE_TYPE = ConfigKey.canal(
            "canal.instance.master.clientCertificateKeyStoreType", "JKS", "Type of the client key store.");
    public static final ConfigKey CLIENT_STORE_PASSWORD = ConfigKey.canal(
            "canal.instance.master.clientCertificateKeyStorePassword", null, "Password of the client key store.");

    public static final List<ConfigKey> KEYS = List.of(RECEIVE_BUFFER_SIZE, SEND_BUFFER_SIZE, SO_TIMEOUT,
            HEARTBEAT_PERIOD, MAX_PACKET_SIZE, SSL_MODE, TLS_VERSIONS, TRUST_STORE_URL, TRUST_STORE_TYPE, TRUST_STORE_PASSWORD,
            CLIENT_STORE_URL, CLIENT_STORE_TYPE, CLIENT_STORE_PASSWORD, ALLOW_PUBLIC_KEY_RETRIEVAL);

    private SourceConnectionKeys() {
    }

    static NetworkOptions network(TypedProperties p) {
        return new NetworkOptions(p.integer(RECEIVE_BUFFER_SIZE), p.integer(SEND_BUFFER_SIZE),
                Duration.ofSeconds(p.integer(SO_TIMEOUT)), NetworkOptions.defaults().connectTimeout(),
                p.integer(MAX_PACKET_SIZE));
    }

    /**
     * The heartbeat period, which must be below the socket timeout or an idle stream times out. Not set, it is
     * Canal's 15 s, or half the socket timeout when that is shorter, so that a short timeout set for Canal keeps
     * working; set, it must be below the timeout.
     */
    static Duration heartbeatPeriod(TypedProperties p) {
        int timeout = p.integer(SO_TIMEOUT);
        if (p.string(HEARTBEAT_PERIOD.name(), null) == null) {
            Duration canals = Duration.ofSeconds(p.integer(HEARTBEAT_PERIOD));
            Duration half = Duration.ofSeconds(timeout).dividedBy(2);
            return half.compareTo(canals) < 0 ? half : canals;
        }
        int period = p.integer(HEARTBEAT_PERIOD);
        if (period >= timeout) {
            throw ConfigValueException.invalid(HEARTBEAT_PERIOD.name(), Integer.toString(period),
                    "must be below " + SO_TIMEOUT.name() + " (" + timeout + "), or an idle binlog stream times out");
        }
        return Duration.ofSeconds(period);
    }

    /** A password or type without its store's URL is rejected, naming the key. */
    static SslOptions ssl(TypedProperties p) {
        String mode = p.string(SSL_MODE);
        List<String> versions = Arrays.stream(p.string(TLS_VERSIONS).split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
        return new SslOptions(SslMode.parse(mode), versions,
                store(p, TRUST_STORE_URL, TRUST_STORE_TYPE, TRUST_STORE_PASSWORD),
                store(p, CLIENT_STORE_URL, CLIENT_STORE_TYPE, CLIENT_STORE_PASSWORD),
                p.bool(ALLOW_PUBLIC_KEY_RETRIEVAL));
    }

    private static KeyStoreSource store(TypedProperties p, ConfigKey urlKey, ConfigKey typeKey, ConfigKey passwordKey) {
        String url = p.string(urlKey);
        String password = p.string(passwordKey);
        if (url == null) {
            String stray = password != null ? passwordKey.name() : p.string(typeKey.name(), null) != null
                    ? typeKey.name() : null;
            if (stray != null) {
                throw ConfigValueException.missing(urlKey.name(), "must be set when " + stray + " is");
            }
            return null;
        }
        return new KeyStoreSource(p.string(typeKey), url, password);
    }
}
