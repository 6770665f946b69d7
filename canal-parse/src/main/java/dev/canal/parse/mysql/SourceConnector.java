package dev.canal.parse.mysql;

import dev.canal.binlog.net.ConnectionOptions;
import dev.canal.binlog.net.KeyStoreSource;
import dev.canal.binlog.net.MysqlConnection;
import dev.canal.binlog.net.SslOptions;
import dev.canal.parse.meta.TableMetaException;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens every connection to the source, the replication session and the JDBC connections that read table
 * definitions, collations and the detecting SQL, from one {@link ConnectionOptions}: the same address, account,
 * TLS mode, TLS versions, trust and client key stores. A source that requires TLS therefore gets it on every
 * connection (docs/compatibility.md, "Connections to the source").
 */
public final class SourceConnector {

    private final ConnectionOptions options;

    public SourceConnector(ConnectionOptions options) {
        this.options = options;
    }

    /** The connections that {@code config} describes ({@code canal.instance.master.*}, network and TLS keys). */
    public static SourceConnector of(MysqlParserConfig config) {
        return of(config, config.master());
    }

    /** The connections to {@code source} with the account, network and TLS keys of {@code config}. */
    public static SourceConnector of(MysqlParserConfig config, SourceEndpoint source) {
        return new SourceConnector(new ConnectionOptions(source.host(), source.port(), config.username(),
                config.password(), config.defaultDatabaseName(), config.network(), config.ssl()));
    }

    public ConnectionOptions options() {
        return options;
    }

    /** A protocol connection of our own replication client, ready for a replica session. */
    public MysqlConnection openReplication() throws IOException {
        return MysqlConnection.open(options);
    }

    /**
     * A JDBC connection for metadata queries.
     *
     * @throws TableMetaException naming the source when it cannot be opened
     */
    public Connection openMetadata() {
        try {
            return DriverManager.getConnection(jdbcUrl(), jdbcProperties());
        } catch (SQLException e) {
            throw new TableMetaException("cannot open the metadata connection to " + options.host() + ":"
                    + options.port() + " (sslMode=" + options.ssl().mode() + "): " + e.getMessage(), e);
        }
    }

    String jdbcUrl() {
        return "jdbc:mysql://" + options.host() + ":" + options.port() + "/";
    }

    /** Connector/J's names for the options our replication client reads from the same keys. */
    Properties jdbcProperties() {
        Properties p = new Properties();
        p.setProperty("user", options.user());
        p.setProperty("password", options.password());
        SslOptions ssl = options.ssl();
        p.setProperty("sslMode", ssl.mode().name());
        p.setProperty("tlsVersions", String.join(",", ssl.tlsVersions()));
        putStore(p, "trustCertificateKeyStore", ssl.trustStore());
        putStore(p, "clientCertificateKeyStore", ssl.clientKeyStore());
        // as the replication client does: caching_sha2_password / sha256_password over plain TCP may ask the server
        // for its RSA key only when allowed; over TLS the password goes inside the encrypted channel
        p.setProperty("allowPublicKeyRetrieval", Boolean.toString(ssl.allowPublicKeyRetrieval()));
        p.setProperty("connectTimeout", Long.toString(options.network().connectTimeout().toMillis()));
        return p;
    }

    private static void putStore(Properties p, String prefix, KeyStoreSource store) {
        if (store == null) {
            return;
        }
        p.setProperty(prefix + "Type", store.type());
        p.setProperty(prefix + "Url", store.asUrl());
        if (store.password() != null) {
            p.setProperty(prefix + "Password", store.password());
        }
    }
}
