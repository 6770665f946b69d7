package dev.canal.parse.meta.history;

import dev.canal.parse.meta.JdbcTableMetaSource;
import dev.canal.parse.meta.MetadataConnection;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.TableMetaException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/** Reads definitions from the source with SHOW CREATE TABLE over a JDBC connection it reopens when it fails. */
public final class JdbcDefinitionSource implements DefinitionSource {

    /** MySQL's own schemas: never part of the history (Canal's filters exclude them too). */
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema", "performance_schema", "sys");
    private static final String TABLES_SQL = """
            SELECT t.TABLE_SCHEMA, t.TABLE_NAME, s.DEFAULT_CHARACTER_SET_NAME
            FROM information_schema.TABLES t JOIN information_schema.SCHEMATA s ON s.SCHEMA_NAME = t.TABLE_SCHEMA
            WHERE t.TABLE_TYPE = 'BASE TABLE'
            ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME""";
    private static final int NO_SUCH_TABLE = 1146;

    private final MetadataConnection connection;
    private final JdbcTableMetaSource informationSchema;

    /** @param connections opens a new JDBC connection to the source when the current one is unusable */
    public JdbcDefinitionSource(Supplier<Connection> connections) {
        this.connection = new MetadataConnection(connections);
        this.informationSchema = new JdbcTableMetaSource(connections);
    }

    @Override
    public synchronized Map<String, String> allDefinitions(BiPredicate<String, String> tableFilter) {
        return withRetry("the accepted tables' definitions", c -> {
            record Table(String schema, String name, String charset) {
            }
            List<Table> tables = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(TABLES_SQL)) {
                while (rs.next()) {
                    Table t = new Table(rs.getString(1), rs.getString(2), rs.getString(3));
                    if (!SYSTEM_SCHEMAS.contains(t.schema().toLowerCase(java.util.Locale.ROOT))
                            && tableFilter.test(t.schema(), t.name())) {
                        tables.add(t);
                    }
                }
            }
            Map<String, StringBuilder> text = new TreeMap<>();
            for (Table t : tables) {
                StringBuilder schemaText = text.computeIfAbsent(t.schema(), s -> new StringBuilder(
                        "CREATE DATABASE IF NOT EXISTS " + quote(s) + " DEFAULT CHARACTER SET " + t.charset() + ";\n"));
                query(c, t.schema(), t.name()).ifPresent(ddl -> schemaText.append(ddl).append(";\n"));
            }
            Map<String, String> data = new TreeMap<>();
            text.forEach((schema, sql) -> data.put(schema, sql.toString()));
            return data;
        });
    }

    @Override
    public synchronized Optional<String> showCreateTable(String schema, String table) {
        return withRetry(schema + "." + table + "'s definition", c -> query(c, schema, table));
    }

    @Override
    public TableMeta columns(String schema, String table) {
        informationSchema.invalidate(schema, table);
        return informationSchema.find(schema, table);
    }

    private static Optional<String> query(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SHOW CREATE TABLE " + quote(schema) + "." + quote(table));
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(rs.getString(2)) : Optional.empty();
        } catch (SQLException e) {
            if (e.getErrorCode() == NO_SUCH_TABLE) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private <T> T withRetry(String what, MetadataConnection.Read<T> read) {
        return connection.read(read, e -> new TableMetaException("cannot read " + what + " from the source: "
                + e.getMessage(), e));
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
