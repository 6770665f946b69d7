package dev.canal.testsupport;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Chooses the one database server a test JVM shares, in this order:
 * <ol>
 *   <li>an existing server named by {@value #URL_ENV} (e.g. {@code jdbc:mysql://127.0.0.1:3306/}), with
 *       {@value #USER_ENV} / {@value #PASSWORD_ENV} for an account that may create schemas and users
 *       (default {@code root} with an empty password);</li>
 *   <li>Testcontainers MySQL 8 when a Docker engine answers;</li>
 *   <li>a private {@code mariadbd} (or {@code mysqld}) found on PATH, started in a temporary directory.</li>
 * </ol>
 * If none can be had the tests fail, saying how to get one; they never skip silently.
 */
public final class TestDatabases {

    public static final String URL_ENV = "CANAL_TEST_MYSQL_URL";
    public static final String USER_ENV = "CANAL_TEST_MYSQL_USER";
    public static final String PASSWORD_ENV = "CANAL_TEST_MYSQL_PASSWORD";

    static final String REPLICATION_USER = "canal";
    static final String REPLICATION_PASSWORD = "canal";

    private static MySqlServer shared;

    private TestDatabases() {
    }

    public static synchronized MySqlServer shared() {
        if (shared == null) {
            shared = provision();
        }
        return shared;
    }

    /**
     * A second server of its own for tests that need two sources (a changed source, failover): a private
     * {@code mariadbd} (or {@code mysqld}) from PATH, started afresh on each call and stopped when the JVM exits.
     */
    public static MySqlServer startPrivate() {
        try {
            return LocalDatabaseProcess.startFromPath();
        } catch (LocalDatabaseProcess.NotFoundException e) {
            throw new IllegalStateException("a test needs a second server of its own, which needs mariadbd or "
                    + "mysqld on PATH (apt-get install -y mariadb-server): " + e.getMessage(), e);
        }
    }

    /**
     * A private server replicating from {@code primary} (a server from {@link #startPrivate()}), of the same
     * binary, with its own server_id and {@code log_slave_updates} on: the standby of a primary-to-replica pair.
     * Replication starts at the primary's current binlog position (MariaDB) or by GTID auto-positioning (MySQL);
     * returns once it runs.
     */
    public static MySqlServer startPrivateReplicaOf(MySqlServer primary) {
        try {
            return LocalDatabaseProcess.startReplicaOf(primary);
        } catch (LocalDatabaseProcess.NotFoundException e) {
            throw new IllegalStateException("a test needs a replica of its own, which needs mariadbd or mysqld on PATH"
                    + " (or " + LocalDatabaseProcess.SERVER_COMMAND_ENV + "): " + e.getMessage(), e);
        }
    }

    private static MySqlServer provision() {
        String url = System.getenv(URL_ENV);
        if (url != null && !url.isBlank()) {
            return existing(url.trim(), envOr(USER_ENV, "root"), envOr(PASSWORD_ENV, ""));
        }
        if (ContainerDatabase.dockerAvailable()) {
            return ContainerDatabase.start();
        }
        try {
            return LocalDatabaseProcess.startFromPath();
        } catch (LocalDatabaseProcess.NotFoundException e) {
            throw new IllegalStateException("""
                    No MySQL-compatible server for integration tests. Provide one of:
                      - an existing server: export %s=jdbc:mysql://HOST:PORT/ (and %s / %s for an admin account),
                        e.g. eval "$(../shared/tools/real-mysql.sh start)" && export %s=$REAL_MYSQL_URL
                      - a Docker engine (Testcontainers starts MySQL 8),
                      - mariadbd on PATH: apt-get install -y mariadb-server
                    (%s)""".formatted(URL_ENV, USER_ENV, PASSWORD_ENV, URL_ENV, e.getMessage()), e);
        }
    }

    private static MySqlServer existing(String url, String user, String password) {
        URI uri = URI.create(url.startsWith("jdbc:") ? url.substring("jdbc:".length()) : url);
        String host = uri.getHost();
        int port = uri.getPort() > 0 ? uri.getPort() : 3306;
        return prepare(host, port, user, password, "existing server from " + URL_ENV);
    }

    /** Checks the binlog settings and creates the replication account. */
    static MySqlServer prepare(String host, int port, String adminUser, String adminPassword, String origin) {
        String url = "jdbc:mysql://" + host + ":" + port + "/?sslMode=PREFERRED&allowPublicKeyRetrieval=true";
        try (Connection c = DriverManager.getConnection(url, adminUser, adminPassword);
                Statement st = c.createStatement()) {
            String version = scalar(st, "SELECT VERSION()");
            String logBin = scalar(st, "SELECT @@log_bin");
            if (!"1".equals(logBin) && !"ON".equalsIgnoreCase(logBin)) {
                throw new IllegalStateException("binary logging is off on " + host + ":" + port + " (" + origin + ")");
            }
            st.execute("SET GLOBAL binlog_format = 'ROW'");
            st.execute("SET GLOBAL binlog_row_image = 'FULL'");
            st.execute("CREATE USER IF NOT EXISTS '" + REPLICATION_USER + "'@'%' IDENTIFIED BY '" + REPLICATION_PASSWORD + "'");
            st.execute("GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + REPLICATION_USER + "'@'%'");
            cacheReplicationPassword(url);
            return new MySqlServer(host, port, adminUser, adminPassword, REPLICATION_USER, REPLICATION_PASSWORD,
                    MySqlServer.flavorOf(version), version, origin);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the test database at " + host + ":" + port + " (" + origin
                    + "): " + e.getMessage(), e);
        }
    }

    /**
     * Logs the replication account in once over TLS where the server offers it. On MySQL 8 and later the account
     * has caching_sha2_password, whose first login after a server start needs TLS or the server's RSA key; the
     * servers under test reach the database without TLS and, by default, without fetching that key
     * (docs/security.md), so they find the password cached, as on a source whose account has logged in before.
     */
    private static void cacheReplicationPassword(String url) throws SQLException {
        DriverManager.getConnection(url, REPLICATION_USER, REPLICATION_PASSWORD).close();
    }

    private static String scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    static void deleteRecursively(java.nio.file.Path dir) {
        try (var paths = java.nio.file.Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort clean-up of a temporary directory at JVM exit
        }
    }
}
