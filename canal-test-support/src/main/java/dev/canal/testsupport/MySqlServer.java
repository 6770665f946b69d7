package dev.canal.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A real MySQL-compatible server with binlog on (ROW, FULL), as handed to a test. The admin account can
 * create schemas; the replication account ({@code canal}/{@code canal}) has SELECT, REPLICATION SLAVE and
 * REPLICATION CLIENT, like a Canal user's account.
 */
public record MySqlServer(String host, int port, String adminUser, String adminPassword, String replicationUser,
        String replicationPassword, Flavor flavor, String version, String origin) {

    public enum Flavor { MARIADB, MYSQL }

    /** JDBC URL without a schema; add {@code ?...} options as needed. */
    public String jdbcUrl() {
        return "jdbc:mysql://" + host + ":" + port + "/";
    }

    public Connection adminConnection() throws SQLException {
        return connect(adminUser, adminPassword);
    }

    public Connection replicationConnection() throws SQLException {
        return connect(replicationUser, replicationPassword);
    }

    private Connection connect(String user, String password) throws SQLException {
        // TLS where the server offers it, so a server that requires secure transport serves the tests too;
        // allowPublicKeyRetrieval lets caching_sha2_password complete over plain TCP on MySQL 8+.
        return DriverManager.getConnection(jdbcUrl() + "?sslMode=PREFERRED&allowPublicKeyRetrieval=true"
                + "&characterEncoding=UTF-8&connectionTimeZone=SERVER", user, password == null ? "" : password);
    }

    public boolean isMariaDb() {
        return flavor == Flavor.MARIADB;
    }

    /** Runs statements as the admin user, in order, on one connection. */
    public void execute(String... sql) {
        try (Connection c = adminConnection(); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed on " + this + ": " + e.getMessage(), e);
        }
    }

    /** Drops and creates a schema, so each test starts from a clean one of its own. */
    public void recreateDatabase(String schema) {
        execute("DROP DATABASE IF EXISTS `" + schema + "`",
                "CREATE DATABASE `" + schema + "` CHARACTER SET utf8mb4");
    }

    /** The server's current binlog file and the offset after its last event. */
    public BinlogCoordinates currentBinlogPosition() {
        // MySQL 8.4 removed SHOW MASTER STATUS; MariaDB never had SHOW BINARY LOG STATUS before 10.5.2.
        String sql = usesBinaryLogStatus() ? "SHOW BINARY LOG STATUS" : "SHOW MASTER STATUS";
        try (Connection c = adminConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new IllegalStateException(sql + " returned no row: binary logging is off on " + this);
            }
            return new BinlogCoordinates(rs.getString(1), rs.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + this + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every row of a query, as the text of each column by name (null for NULL), keyed by the first column: what a
     * consumer that applies rows by key should hold.
     */
    public Map<String, Map<String, String>> rowsByKey(String sql) {
        Map<String, Map<String, String>> rows = new HashMap<>();
        try (Connection c = adminConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData columns = rs.getMetaData();
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    row.put(columns.getColumnLabel(i), rs.getString(i));
                }
                rows.put(rs.getString(1), row);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + this + ": " + e.getMessage(), e);
        }
        return rows;
    }

    public String variable(String name) {
        try (Connection c = adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@" + name)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read @@" + name + " on " + this + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sets a global variable until the returned handle is closed, which restores the value it had. For a setting a
     * test's writes need, such as {@code binlog_row_metadata=MINIMAL} (MySQL's default; MariaDB's is NO_LOG) on a
     * server whose fixture writes FULL: the tests of one JVM run one after the other, so none sees another's.
     */
    public GlobalSetting setGlobal(String name, String value) {
        String previous = variable(name);
        execute("SET GLOBAL " + name + " = '" + value + "'");
        return () -> execute("SET GLOBAL " + name + " = '" + previous + "'");
    }

    /** A global setting in force until closed. */
    public interface GlobalSetting extends AutoCloseable {
        @Override
        void close();
    }

    private boolean usesBinaryLogStatus() {
        if (isMariaDb()) {
            return false;
        }
        String[] parts = version.split("[.-]");
        int major = Integer.parseInt(parts[0]);
        int minor = Integer.parseInt(parts[1]);
        return major > 8 || (major == 8 && minor >= 4);
    }

    static Flavor flavorOf(String versionString) {
        return versionString.toLowerCase(Locale.ROOT).contains("mariadb") ? Flavor.MARIADB : Flavor.MYSQL;
    }

    @Override
    public String toString() {
        return flavor + " " + version + " at " + host + ":" + port + " (" + origin + ")";
    }

    public record BinlogCoordinates(String file, long position) {
    }
}
