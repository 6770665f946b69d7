package dev.canal.parse.meta;

import dev.canal.protocol.position.EntryPosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads table definitions from the source's information_schema on first use and caches them (Canal's
 * "TSDB off" mode): entries are dropped when a DDL touches the table, or when a row
 * image does not fit what is cached.
 *
 * <p>{@code COLUMN_TYPE} is what {@code SHOW CREATE TABLE} prints for the column (lower case, charset clause
 * dropped), which is the {@code mysqlType} Canal shows for tables that existed before it started.
 */
public final class JdbcTableMetaSource implements TableMetaSource {

    private static final String COLUMNS_SQL = """
            SELECT COLUMN_NAME, COLUMN_TYPE, DATA_TYPE, COLUMN_KEY, CHARACTER_SET_NAME, CHARACTER_OCTET_LENGTH
            FROM information_schema.COLUMNS
            WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
            ORDER BY ORDINAL_POSITION""";

    private final MetadataConnection connection;
    private final Map<String, TableMeta> cache = new ConcurrentHashMap<>();

    /** @param connections opens a new JDBC connection to the source when the current one is unusable */
    public JdbcTableMetaSource(Supplier<Connection> connections) {
        this.connection = new MetadataConnection(connections);
    }

    @Override
    public TableMeta find(String schema, String table) {
        return cache.computeIfAbsent(key(schema, table), k -> load(schema, table));
    }

    @Override
    public void invalidate(String schema, String table) {
        cache.remove(key(schema, table));
    }

    /**
     * Any DDL may change what tables look like (a rename moves a definition between names): drop everything
     * cached. DDL is rare; the cost is one information_schema read per table afterwards.
     */
    @Override
    public void applyDdl(String sessionSchema, String schema, String table, String sql, EntryPosition position) {
        cache.clear();
    }

    @Override
    public void rewindTo(EntryPosition position) {
        cache.clear();
    }

    private TableMeta load(String schema, String table) {
        return connection.read(c -> query(c, schema, table), e -> new TableMetaException(
                "cannot read the columns of " + schema + "." + table + ": " + e.getMessage(), e));
    }

    private static TableMeta query(Connection connection, String schema, String table) throws SQLException {
        List<ColumnMeta> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(column(rs));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new TableMetaException("table " + schema + "." + table + " does not exist on the source "
                    + "(or the replication account cannot see it)");
        }
        return new TableMeta(schema, table, columns);
    }

    private static ColumnMeta column(ResultSet rs) throws SQLException {
        String columnType = rs.getString("COLUMN_TYPE");
        String dataType = rs.getString("DATA_TYPE");
        String charsetName = rs.getString("CHARACTER_SET_NAME");
        long octets = rs.getLong("CHARACTER_OCTET_LENGTH");
        boolean binary = "binary".equalsIgnoreCase(dataType);
        return new ColumnMeta(rs.getString("COLUMN_NAME"), columnType, dataType,
                "PRI".equalsIgnoreCase(rs.getString("COLUMN_KEY")),
                columnType.toLowerCase(java.util.Locale.ROOT).contains("unsigned"),
                charsetName == null ? null : MysqlCharsets.javaCharset(charsetName),
                binary ? (int) octets : 0);
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(java.util.Locale.ROOT) + "." + table.toLowerCase(java.util.Locale.ROOT);
    }
}
