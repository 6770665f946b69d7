package dev.canal.parse.snapshot;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one table in primary-key order, a chunk at a time: {@code SELECT ... WHERE (key) > (last key) ORDER BY
 * key LIMIT n}, each chunk a statement of its own (no long transaction, no lock beyond the statement's).
 */
final class TableChunks {

    /** One chunk: its rows (values in column order, null for SQL NULL) and the key of its last row. */
    record Chunk(List<String[]> rows, PrimaryKey lastKey) {
    }

    private final TableMeta meta;
    private final List<Integer> keyIndexes;
    private final String firstSql;
    private final String nextSql;

    TableChunks(SnapshotTable table, TableMeta meta, List<String> keyColumns, int chunkSize) {
        this.meta = meta;
        this.keyIndexes = new ArrayList<>();
        for (String key : keyColumns) {
            keyIndexes.add(indexOf(meta, key));
        }
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < meta.columnCount(); i++) {
            columns.append(i == 0 ? "" : ", ").append(SnapshotTable.quote(meta.column(i).name()));
        }
        StringBuilder key = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < keyColumns.size(); i++) {
            key.append(i == 0 ? "" : ", ").append(SnapshotTable.quote(keyColumns.get(i)));
            marks.append(i == 0 ? "?" : ", ?");
        }
        String select = "SELECT " + columns + " FROM " + table.quoted();
        String order = " ORDER BY " + key + " LIMIT " + chunkSize;
        this.firstSql = select + order;
        this.nextSql = select + " WHERE (" + key + ") > (" + marks + ")" + order;
    }

    private static int indexOf(TableMeta meta, String column) {
        for (int i = 0; i < meta.columnCount(); i++) {
            if (meta.column(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new IllegalStateException("key column " + column + " is not a column of " + meta.fullName());
    }

    TableMeta meta() {
        return meta;
    }

    List<Integer> keyIndexes() {
        return keyIndexes;
    }

    /** The rows after {@code after} (null: from the first), at most one chunk. */
    Chunk read(Connection connection, PrimaryKey after) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(after == null ? firstSql : nextSql)) {
            if (after != null) {
                for (int i = 0; i < after.values().size(); i++) {
                    st.setString(i + 1, after.values().get(i));
                }
            }
            List<String[]> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
            return new Chunk(rows, rows.isEmpty() ? after : keyOf(rows.get(rows.size() - 1)));
        }
    }

    PrimaryKey keyOf(String[] row) {
        List<String> values = new ArrayList<>(keyIndexes.size());
        for (int index : keyIndexes) {
            values.add(row[index]);
        }
        return new PrimaryKey(values);
    }

    /**
     * The row's values as text: the server's text form of each value, binary values as ISO-8859-1 text as the
     * binlog rows carry them (docs/snapshots.md, "Values").
     */
    private String[] row(ResultSet rs) throws SQLException {
        String[] values = new String[meta.columnCount()];
        for (int i = 0; i < values.length; i++) {
            ColumnMeta column = meta.column(i);
            if (column.charset() == null && isBinary(column.dataType())) {
                byte[] bytes = rs.getBytes(i + 1);
                values[i] = bytes == null ? null : new String(bytes, StandardCharsets.ISO_8859_1);
            } else {
                values[i] = rs.getString(i + 1);
            }
        }
        return values;
    }

    private static boolean isBinary(String dataType) {
        return switch (dataType) {
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> true;
            default -> false;
        };
    }
}
