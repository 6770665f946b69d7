package dev.canal.binlog.net;

import static dev.canal.binlog.net.ReplicaTestSupport.options;
import static dev.canal.binlog.net.ReplicaTestSupport.replicationOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MySqlServerExtension.class)
class MysqlConnectionIT {

    /** A fresh account: dropping it first empties caching_sha2_password's cache for it. */
    private static ConnectionOptions freshUser(MySqlServer db, String name, String plugin) {
        String password = "pw-" + name;
        db.execute("DROP USER IF EXISTS '" + name + "'@'%'",
                "CREATE USER '" + name + "'@'%' IDENTIFIED " + (db.isMariaDb() ? "" : "WITH " + plugin + " ")
                        + "BY '" + password + "'"); // MariaDB's default plugin is mysql_native_password
        return options(db, name, password);
    }

    private static boolean pluginActive(MySqlServer db, String plugin) throws Exception {
        try (MysqlConnection c = MysqlConnection.open(options(db, db.adminUser(), db.adminPassword()))) {
            return "ACTIVE".equals(c.query("SELECT plugin_status FROM information_schema.plugins WHERE plugin_name = '"
                    + plugin + "'").scalar());
        }
    }

    @Test
    void replicationAccountLogsInAndRunsTextQueries(MySqlServer db) throws Exception {
        try (MysqlConnection c = MysqlConnection.open(replicationOptions(db))) {
            QueryResult r = c.query("SELECT 1 AS one, NULL AS nothing, 'x\u00e9' AS s UNION ALL SELECT 2, NULL, ''");
            assertThat(r.columns()).containsExactly("one", "nothing", "s");
            assertThat(r.rows()).containsExactly(Arrays.asList("1", null, "x\u00e9"), Arrays.asList("2", null, ""));
            assertThat(c.query("SET @a = 1").columns()).isEmpty();
            c.ping();
            assertThat(c.serverVersion().isMariaDb()).isEqualTo(db.isMariaDb());
            assertThat(c.query("SELECT CONNECTION_ID()").scalar()).isEqualTo(Long.toString(c.connectionId()));
        }
    }

    @Test
    void mysqlNativePasswordLogsIn(MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb() || pluginActive(db, "mysql_native_password"),
                "mysql_native_password is not loaded on " + db);
        ConnectionOptions user = freshUser(db, "canal_it_native", "mysql_native_password");
        try (MysqlConnection c = MysqlConnection.open(user)) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.NATIVE_PASSWORD);
        }
    }

    @Test
    void cachingSha2FullAuthenticationUsesTheServersRsaKeyThenTheFastPath(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "caching_sha2_password is MySQL's");
        ConnectionOptions user = freshUser(db, "canal_it_sha2_rsa", "caching_sha2_password");
        try (MysqlConnection c = MysqlConnection.open(user)) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.CACHING_SHA2_FULL_RSA);
            assertThat(c.isSecure()).isFalse();
        }
        try (MysqlConnection c = MysqlConnection.open(user)) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.CACHING_SHA2_FAST);
        }
    }

    @Test
    void withoutTlsTheRsaKeyExchangeIsRefusedUnlessAllowed(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "caching_sha2_password is MySQL's");
        ConnectionOptions user = freshUser(db, "canal_it_sha2_norsa", "caching_sha2_password");

        assertThatThrownBy(() -> MysqlConnection.open(user.withSsl(SslOptions.disabled())))
                .hasCauseInstanceOf(PublicKeyRetrievalException.class)
                .hasMessageContaining("allowPublicKeyRetrieval").hasMessageContaining("TLS");
        try (MysqlConnection c = MysqlConnection.open(user.withSsl(SslOptions.of(SslMode.REQUIRED)))) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.CACHING_SHA2_FULL_TLS);
        }
    }

    @Test
    void cachingSha2FullAuthenticationOverTlsSendsThePasswordThenTheFastPath(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "caching_sha2_password is MySQL's");
        ConnectionOptions user = freshUser(db, "canal_it_sha2_tls", "caching_sha2_password");
        try (MysqlConnection c = MysqlConnection.open(user.withSsl(SslOptions.of(SslMode.REQUIRED)))) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.CACHING_SHA2_FULL_TLS);
            assertThat(c.isSecure()).isTrue();
            assertThat(c.query("SHOW SESSION STATUS LIKE 'Ssl_version'").rows().get(0).get(1)).startsWith("TLSv1.");
        }
        try (MysqlConnection c = MysqlConnection.open(user)) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.CACHING_SHA2_FAST);
        }
    }

    @Test
    void sha256PasswordLogsInWithRsaAndOverTls(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "sha256_password is MySQL's");
        assumeTrue(pluginActive(db, "sha256_password"), "sha256_password is not available on " + db);
        ConnectionOptions user = freshUser(db, "canal_it_sha256", "sha256_password");
        try (MysqlConnection c = MysqlConnection.open(user)) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.SHA256_RSA);
        }
        try (MysqlConnection c = MysqlConnection.open(user.withSsl(SslOptions.of(SslMode.REQUIRED)))) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.SHA256_TLS);
        }
    }

    @Test
    void accountWithoutPasswordLogsIn(MySqlServer db) throws Exception {
        assumeTrue(db.adminPassword() == null || db.adminPassword().isEmpty(), "the admin account has a password");
        try (MysqlConnection c = MysqlConnection.open(options(db, db.adminUser(), ""))) {
            assertThat(c.authMethod()).isEqualTo(AuthMethod.EMPTY_PASSWORD);
            assertThat(c.query("SELECT CURRENT_USER()").scalar()).startsWith(db.adminUser() + "@");
        }
    }

    @Test
    void wrongPasswordFailsWith1045AndTheServersMessage(MySqlServer db) {
        ConnectionOptions wrong = options(db, db.replicationUser(), "not-the-password");
        assertThatThrownBy(() -> MysqlConnection.open(wrong)).isInstanceOfSatisfying(MysqlServerException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(MysqlServerException.ACCESS_DENIED);
            assertThat(e.sqlState()).isEqualTo("28000");
            assertThat(e.serverMessage()).contains("Access denied for user '" + db.replicationUser() + "'");
            assertThat(e.getMessage()).contains(db.host() + ":" + db.port(), "1045");
        });
    }

    @Test
    void serverErrorOnAQueryKeepsTheConnectionUsable(MySqlServer db) throws Exception {
        try (MysqlConnection c = MysqlConnection.open(replicationOptions(db))) {
            assertThatThrownBy(() -> c.query("SELECT * FROM no_such_schema_x.no_such_table"))
                    .isInstanceOfSatisfying(MysqlServerException.class, e -> {
                        assertThat(e.errorCode()).isIn(1049, 1146, 1142);
                        assertThat(e.getMessage()).contains("no_such_schema_x");
                    });
            assertThat(c.query("SELECT 42").scalar()).isEqualTo("42");
        }
    }

    @Test
    void preferredUsesTlsWhenOfferedAndRequiredFailsWhenNot(MySqlServer db) throws Exception {
        boolean offered;
        try (MysqlConnection c = MysqlConnection.open(replicationOptions(db).withSsl(SslOptions.of(SslMode.PREFERRED)))) {
            offered = c.isSecure();
            c.ping();
        }
        if (offered) {
            try (MysqlConnection c = MysqlConnection.open(replicationOptions(db).withSsl(SslOptions.of(SslMode.REQUIRED)))) {
                assertThat(c.isSecure()).isTrue();
            }
        } else {
            assertThatThrownBy(() -> MysqlConnection.open(replicationOptions(db).withSsl(SslOptions.of(SslMode.REQUIRED))))
                    .hasMessageContaining("does not support TLS").hasMessageContaining("REQUIRED");
        }
        assumeFalse(db.isMariaDb(), "only the MySQL server of the suite is known to offer TLS");
        assertThat(offered).as("MySQL generates its own certificates and offers TLS").isTrue();
    }

    @Test
    void disabledModeStaysPlain(MySqlServer db) throws Exception {
        try (MysqlConnection c = MysqlConnection.open(replicationOptions(db))) {
            assertThat(c.isSecure()).isFalse();
            List<String> cipher = c.query("SHOW SESSION STATUS LIKE 'Ssl_cipher'").rows().get(0);
            assertThat(cipher.get(1)).isEmpty();
        }
    }

    @Test
    void verifyCaTrustsTheServerSignedByTheGivenCaAndRejectsOthers(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "the suite's MariaDB has no TLS certificates");
        Optional<Path> trust = ReplicaTestSupport.trustStoreWithServerCa(db);
        assumeTrue(trust.isPresent(), "the server's CA certificate is not readable from here");
        SslOptions verifyCa = SslOptions.of(SslMode.VERIFY_CA)
                .withTrustStore(new KeyStoreSource("PKCS12", trust.get().toString(), "changeit"));
        try (MysqlConnection c = MysqlConnection.open(replicationOptions(db).withSsl(verifyCa))) {
            assertThat(c.isSecure()).isTrue();
        }
        // the JVM's own trust store does not know the server's self-made CA
        assertThatThrownBy(() -> MysqlConnection.open(replicationOptions(db).withSsl(SslOptions.of(SslMode.VERIFY_CA))))
                .hasMessageContaining("TLS handshake").hasMessageContaining("VERIFY_CA");
        // the generated server certificate names no host, so identity checking refuses it even with the right CA
        SslOptions verifyIdentity = new SslOptions(SslMode.VERIFY_IDENTITY, SslOptions.DEFAULT_TLS_VERSIONS,
                verifyCa.trustStore(), null, false);
        assertThatThrownBy(() -> MysqlConnection.open(replicationOptions(db).withSsl(verifyIdentity)))
                .hasMessageContaining("TLS handshake").hasMessageContaining("VERIFY_IDENTITY");
    }
}
