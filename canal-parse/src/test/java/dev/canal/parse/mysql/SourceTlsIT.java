package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.parse.meta.TableMetaException;
import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A source that accepts only TLS connections ({@code require_secure_transport=ON}) serves the whole parser: the
 * replication stream and the JDBC connections that read table definitions both use
 * {@code canal.instance.master.sslMode}.
 */
class SourceTlsIT extends ParserITSupport {

    @ParameterizedTest(name = "schema history {0}")
    @ValueSource(booleans = {false, true})
    void aSourceRequiringSecureTransportDeliversRowsWithTheirColumnNames(boolean history, MySqlServer db)
            throws Exception {
        assumeTrue(offersTls(db), "the test server offers no TLS (" + db + ")");
        String schema = history ? "tls_history" : "tls_on_demand";
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, name VARCHAR(20))");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        db.execute("INSERT INTO " + schema + ".t VALUES (1, 'over tls')");
        try (SecureTransportRequired ignored = SecureTransportRequired.on(db)) {
            assertThatThrownBy(() -> plainConnection(db).close()).as("the premise: plain connections are refused")
                    .isInstanceOf(SQLException.class);
            Properties p = properties(db, schema, from);
            p.setProperty("canal.instance.tsdb.enable", Boolean.toString(history));
            p.setProperty("canal.instance.master.sslMode", "REQUIRED");
            startParser(p);

            List<dev.canal.protocol.CanalEntry.Entry> entries = drainUntil(1);

            assertThat(values(rowChange(rowEntriesOf(entries).get(0)).getRowDatas(0).getAfterColumnsList()))
                    .containsEntry("id", "1").containsEntry("name", "over tls");
            assertThat(parser.failure()).isNull();
        }
    }

    @Test
    void theMetadataConnectionUsesTheConfiguredTlsMode(MySqlServer db) throws Exception {
        assumeTrue(offersTls(db), "the test server offers no TLS (" + db + ")");
        Properties p = properties(db, "tls_meta", null);
        p.setProperty("canal.instance.master.sslMode", "REQUIRED");
        SourceConnector tls = SourceConnector.of(MysqlParserConfig.fromProperties(p));
        p.setProperty("canal.instance.master.sslMode", "DISABLED");
        SourceConnector plain = SourceConnector.of(MysqlParserConfig.fromProperties(p));

        try (SecureTransportRequired ignored = SecureTransportRequired.on(db)) {
            assertThat(sessionCipher(tls)).isNotEmpty();
            assertThatThrownBy(plain::openMetadata).isInstanceOf(TableMetaException.class)
                    .hasMessageContaining(db.host() + ":" + db.port()).hasMessageContaining("sslMode=DISABLED");
        }
    }

    private static String sessionCipher(SourceConnector connector) throws SQLException {
        try (Connection c = connector.openMetadata(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            rs.next();
            return rs.getString(2);
        }
    }

    /** Whether the fixture's own connection (TLS when offered) got TLS. */
    private static boolean offersTls(MySqlServer db) throws SQLException {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            return rs.next() && !rs.getString(2).isEmpty();
        }
    }

    private static Connection plainConnection(MySqlServer db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl() + "?sslMode=DISABLED&allowPublicKeyRetrieval=true",
                db.replicationUser(), db.replicationPassword());
    }

    /** {@code require_secure_transport=ON} for the test's duration, then back to what it was. */
    private record SecureTransportRequired(MySqlServer db, String before) implements AutoCloseable {

        static SecureTransportRequired on(MySqlServer db) {
            String before = db.variable("require_secure_transport");
            db.execute("SET GLOBAL require_secure_transport = ON");
            return new SecureTransportRequired(db, before);
        }

        @Override
        public void close() {
            boolean wasOn = "1".equals(before) || "ON".equalsIgnoreCase(before);
            db.execute("SET GLOBAL require_secure_transport = " + (wasOn ? "ON" : "OFF"));
        }
    }
}
