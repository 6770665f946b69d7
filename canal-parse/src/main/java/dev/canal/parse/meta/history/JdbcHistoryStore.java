package dev.canal.parse.meta.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.parse.meta.history.TsdbConfig.HistoryDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One destination's schema history in Canal's {@code meta_history} and {@code meta_snapshot} tables of a
 * MySQL-compatible database (docs/compatibility.md, "Schema history"), so that every server of a cluster reads and
 * continues the same history, and an existing Canal history database is read and continued as it is. The tables are
 * created with Canal's layout when absent. Rows are told apart by {@code destination}; the unique key
 * (destination, binlog_master_id, binlog_file, binlog_offest) makes a DDL recorded twice (by two servers, or after
 * a restart) one row.
 *
 * <p>Each call opens its own connection: DDL and snapshots are rare, and a connection held for days would be closed
 * by the server's idle timeout. Every read goes to the database, so a server that takes over sees what the previous
 * one wrote.
 */
public final class JdbcHistoryStore implements SchemaHistoryStore {

    /** MySQL's error for a duplicate key. */
    private static final int ER_DUP_ENTRY = 1062;

    static final String CREATE_HISTORY = """
            CREATE TABLE IF NOT EXISTS `meta_history` (
              `id` bigint unsigned NOT NULL AUTO_INCREMENT,
              `gmt_create` datetime NOT NULL,
              `gmt_modified` datetime NOT NULL,
              `destination` varchar(128) DEFAULT NULL,
              `binlog_file` varchar(64) DEFAULT NULL,
              `binlog_offest` bigint DEFAULT NULL,
              `binlog_master_id` varchar(64) DEFAULT NULL,
              `binlog_timestamp` bigint DEFAULT NULL,
              `use_schema` varchar(1024) DEFAULT NULL,
              `sql_schema` varchar(1024) DEFAULT NULL,
              `sql_table` varchar(1024) DEFAULT NULL,
              `sql_text` longtext DEFAULT NULL,
              `sql_type` varchar(256) DEFAULT NULL,
              `extra` text DEFAULT NULL,
              PRIMARY KEY (`id`),
              UNIQUE KEY `binlog_file_offest` (`destination`, `binlog_master_id`, `binlog_file`, `binlog_offest`),
              KEY `destination` (`destination`),
              KEY `destination_timestamp` (`destination`, `binlog_timestamp`),
              KEY `gmt_modified` (`gmt_modified`)
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""";

    static final String CREATE_SNAPSHOT = """
            CREATE TABLE IF NOT EXISTS `meta_snapshot` (
              `id` bigint unsigned NOT NULL AUTO_INCREMENT,
              `gmt_create` datetime NOT NULL,
              `gmt_modified` datetime NOT NULL,
              `destination` varchar(128) DEFAULT NULL,
              `binlog_file` varchar(64) DEFAULT NULL,
              `binlog_offest` bigint DEFAULT NULL,
              `binlog_master_id` varchar(64) DEFAULT NULL,
              `binlog_timestamp` bigint DEFAULT NULL,
              `data` longtext DEFAULT NULL,
              `extra` text DEFAULT NULL,
              PRIMARY KEY (`id`),
              UNIQUE KEY `binlog_file_offest` (`destination`, `binlog_master_id`, `binlog_file`, `binlog_offest`),
              KEY `destination` (`destination`),
              KEY `destination_timestamp` (`destination`, `binlog_timestamp`),
              KEY `gmt_modified` (`gmt_modified`)
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""";

    private static final String POSITION_COLUMNS = "binlog_file, binlog_offest, binlog_master_id, binlog_timestamp";
    private static final String AT_POSITION =
            "destination = ? AND binlog_master_id = ? AND binlog_file = ? AND binlog_offest = ?";

    private static final TypeReference<Map<String, String>> SNAPSHOT_DATA = new TypeReference<>() {
    };

    private final ObjectMapper json = new ObjectMapper();
    private final String destination;
    private final HistoryDatabase database;

    /** Connects once to create the tables if absent, so a wrong URL or account fails at start-up. */
    public JdbcHistoryStore(String destination, HistoryDatabase database) {
        this.destination = Objects.requireNonNull(destination, "destination");
        this.database = Objects.requireNonNull(database, "database");
        run("create the schema history tables", c -> {
            try (Statement st = c.createStatement()) {
                st.execute(CREATE_HISTORY);
                st.execute(CREATE_SNAPSHOT);
            }
            return null;
        });
    }

    @Override
    public List<DdlRecord> history() {
        return run("read the DDL history", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + POSITION_COLUMNS
                    + ", use_schema, sql_schema, sql_table, sql_text, gmt_create FROM meta_history"
                    + " WHERE destination = ? ORDER BY id")) {
                ps.setString(1, destination);
                List<DdlRecord> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new DdlRecord(destination, position(rs), rs.getString("use_schema"),
                                rs.getString("sql_schema"), rs.getString("sql_table"), rs.getString("sql_text"),
                                millis(rs.getTimestamp("gmt_create"))));
                    }
                }
                return rows;
            }
        });
    }

    @Override
    public boolean contains(HistoryPosition position) {
        return run("look up the DDL at " + position, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM meta_history WHERE " + AT_POSITION)) {
                bindPosition(ps, 1, position);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    @Override
    public boolean append(DdlRecord ddl) {
        return run("record the DDL at " + ddl.position(), c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO meta_history (gmt_create, gmt_modified, "
                    + "destination, binlog_master_id, binlog_file, binlog_offest, binlog_timestamp, use_schema, "
                    + "sql_schema, sql_table, sql_text, sql_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                Timestamp created = new Timestamp(ddl.createdMillis());
                ps.setTimestamp(1, created);
                ps.setTimestamp(2, created);
                bindPosition(ps, 3, ddl.position());
                ps.setLong(7, ddl.position().timestamp());
                ps.setString(8, ddl.useSchema());
                ps.setString(9, ddl.sqlSchema());
                ps.setString(10, ddl.sqlTable());
                ps.setString(11, ddl.sql());
                ps.setString(12, statementType(ddl.sql()));
                ps.executeUpdate();
                return true;
            } catch (SQLIntegrityConstraintViolationException e) {
                if (e.getErrorCode() == ER_DUP_ENTRY) {
                    return false;
                }
                throw e;
            }
        });
    }

    @Override
    public List<SchemaSnapshot> snapshots() {
        return run("read the schema snapshots", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + POSITION_COLUMNS
                    + ", data, gmt_create FROM meta_snapshot WHERE destination = ? ORDER BY id")) {
                ps.setString(1, destination);
                List<SchemaSnapshot> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        HistoryPosition at = position(rs);
                        rows.add(new SchemaSnapshot(destination, at, data(at, rs.getString("data")),
                                millis(rs.getTimestamp("gmt_create"))));
                    }
                }
                return rows;
            }
        });
    }

    @Override
    public void addSnapshot(SchemaSnapshot snapshot) {
        String data;
        try {
            data = json.writeValueAsString(snapshot.data());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the schema snapshot at " + snapshot.position() + " as JSON", e);
        }
        run("store the schema snapshot at " + snapshot.position(), c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO meta_snapshot (gmt_create, gmt_modified, "
                    + "destination, binlog_master_id, binlog_file, binlog_offest, binlog_timestamp, data) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE gmt_modified = VALUES(gmt_modified), data = VALUES(data), "
                    + "binlog_timestamp = VALUES(binlog_timestamp)")) {
                Timestamp created = new Timestamp(snapshot.createdMillis());
                ps.setTimestamp(1, created);
                ps.setTimestamp(2, created);
                bindPosition(ps, 3, snapshot.position());
                ps.setLong(7, snapshot.position().timestamp());
                ps.setString(8, data);
                ps.executeUpdate();
                return null;
            }
        });
    }

    @Override
    public int removeSnapshots(Predicate<SchemaSnapshot> expired) {
        List<HistoryPosition> doomed = snapshots().stream().filter(expired).map(SchemaSnapshot::position).toList();
        if (doomed.isEmpty()) {
            return 0;
        }
        return run("delete expired schema snapshots", c -> {
            int removed = 0;
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM meta_snapshot WHERE " + AT_POSITION)) {
                for (HistoryPosition at : doomed) {
                    bindPosition(ps, 1, at);
                    removed += ps.executeUpdate();
                }
            }
            return removed;
        });
    }

    @Override
    public String describe() {
        return "the database " + database.describe();
    }

    @Override
    public void close() {
        // no connection is held between calls
    }

    /** Binds destination, binlog_master_id, binlog_file, binlog_offest from {@code first} on. */
    private void bindPosition(PreparedStatement ps, int first, HistoryPosition at) throws SQLException {
        ps.setString(first, destination);
        ps.setString(first + 1, Long.toString(at.serverId()));
        ps.setString(first + 2, at.file());
        ps.setLong(first + 3, at.offset());
    }

    /** Canal keeps the server id as text; an empty or missing one reads as 0. */
    private static HistoryPosition position(ResultSet rs) throws SQLException {
        String masterId = rs.getString("binlog_master_id");
        long serverId = masterId == null || masterId.isBlank() ? 0 : Long.parseLong(masterId.trim());
        return new HistoryPosition(rs.getString("binlog_file"), rs.getLong("binlog_offest"), serverId,
                rs.getLong("binlog_timestamp"));
    }

    private Map<String, String> data(HistoryPosition at, String text) {
        if (text == null || text.isBlank()) {
            return Map.of();
        }
        try {
            return json.readValue(text, SNAPSHOT_DATA);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("destination " + destination + ": the schema snapshot at " + at + " in "
                    + database.describe() + " is not a JSON map of schema to CREATE statements", e);
        }
    }

    private static long millis(Timestamp t) {
        return t == null ? 0 : t.getTime();
    }

    /** The statement's first keyword (ALTER, CREATE, DROP, ...), kept in sql_type for people reading the table. */
    static String statementType(String sql) {
        String text = sql.stripLeading();
        int end = 0;
        while (end < text.length() && Character.isLetter(text.charAt(end))) {
            end++;
        }
        return end == 0 ? "QUERY" : text.substring(0, end).toUpperCase(Locale.ROOT);
    }

    private <T> T run(String what, SqlWork<T> work) {
        try (Connection c = DriverManager.getConnection(database.driverUrl(), database.user(), database.password())) {
            return work.apply(c);
        } catch (SQLException e) {
            throw new IllegalStateException("destination " + destination + ": cannot " + what + " in "
                    + describe() + " (user " + database.user() + "): " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T apply(Connection c) throws SQLException;
    }
}
