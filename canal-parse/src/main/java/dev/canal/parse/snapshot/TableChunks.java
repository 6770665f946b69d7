package dev.canal.parse.snapshot;

import dev.canal.parse.SourceFlavour;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.RenderKind;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.ColumnFilter;
import java.time.ZoneId;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads one table in primary-key order, a chunk at a time: {@code SELECT ... WHERE (key) > (last key) ORDER BY
 * key LIMIT n}, each chunk a statement of its own (no long transaction, no lock beyond the statement's). Each row
 * is rendered as the binlog rows of an INSERT of it are ({@link SnapshotValues}, the parser's
 * {@link ColumnRenderer}).
 */
final class TableChunks {

    /**
     * One chunk: its rows as after images, their keys in the text form the stream's rows carry (to match the two
     * by), and the key of its last row to read on from.
     */
    record Chunk(List<CanalEntry.RowData> rows, List<PrimaryKey> keys, PrimaryKey lastKey) {
    }

    private final TableMeta meta;
    private final ColumnRenderer renderer;
    private final SourceFlavour flavour;
    private final Supplier<ColumnFilter.Selection> selection;
    private final List<Integer> keyIndexes;
    private final String firstSql;
    private final String nextSql;

    /**
     * @param flavour the source's: rows are read and rendered as the parser renders them from its binlog
     * @param timestampZone the zone TIMESTAMP values are rendered in, the parser's
     * @param selection the columns the destination's column filter keeps in rows of the table, asked per chunk
     */
    TableChunks(SnapshotTable table, TableMeta meta, List<String> keyColumns, int chunkSize,
            SourceFlavour flavour, ZoneId timestampZone, Supplier<ColumnFilter.Selection> selection) {
        this.meta = meta;
        this.renderer = new ColumnRenderer(timestampZone, flavour);
        this.flavour = flavour;
        this.selection = selection;
        this.keyIndexes = new ArrayList<>();
        for (String key : keyColumns) {
            keyIndexes.add(indexOf(meta, key));
        }
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < meta.columnCount(); i++) {
            ColumnMeta column = meta.column(i);
            columns.append(i == 0 ? "" : ", ").append(SnapshotValues.select(column, SnapshotTable.quote(column.name())));
        }
        StringBuilder key = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < keyColumns.size(); i++) {
            key.append(i == 0 ? "" : ", ").append(SnapshotTable.quote(keyColumns.get(i)));
            marks.append(i == 0 ? "?" : ", ?");
        }
        // the key columns again, as they are, to read on from
        String select = "SELECT " + columns + ", " + key + " FROM " + table.quoted();
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

    /** The rows after {@code after} (null: from the first), at most one chunk. */
    Chunk read(Connection connection, PrimaryKey after) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(after == null ? firstSql : nextSql)) {
            if (after != null) {
                for (int i = 0; i < after.values().size(); i++) {
                    String value = after.values().get(i);
                    if (isBinary(keyIndexes.get(i))) {
                        st.setBytes(i + 1, value.getBytes(StandardCharsets.ISO_8859_1));
                    } else {
                        st.setString(i + 1, value);
                    }
                }
            }
            ColumnFilter.Selection kept = selection.get();
            List<CanalEntry.RowData> rows = new ArrayList<>();
            List<PrimaryKey> keys = new ArrayList<>();
            PrimaryKey last = after;
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    List<CanalEntry.Column> row = row(rs);
                    keys.add(keyOf(row));
                    rows.add(kept(row, kept));
                    last = seekKey(rs);
                }
            }
            return new Chunk(rows, keys, last);
        }
    }

    private PrimaryKey keyOf(List<CanalEntry.Column> row) {
        List<String> values = new ArrayList<>(keyIndexes.size());
        for (int index : keyIndexes) {
            values.add(row.get(index).getValue());
        }
        return new PrimaryKey(values);
    }

    /** The row as the stream carries it: the columns the column filter keeps, as the binlog rows do. */
    private static CanalEntry.RowData kept(List<CanalEntry.Column> row, ColumnFilter.Selection selection) {
        CanalEntry.RowData.Builder data = CanalEntry.RowData.newBuilder();
        for (CanalEntry.Column column : row) {
            if (selection.keepsAll() || selection.keeps(column.getName())) {
                data.addAfterColumns(column);
            }
        }
        return data.build();
    }

    /** The key as the server compares it: the plain key columns after the rendered ones, binary ones as ISO-8859-1. */
    private PrimaryKey seekKey(ResultSet rs) throws SQLException {
        List<String> values = new ArrayList<>(keyIndexes.size());
        for (int i = 0; i < keyIndexes.size(); i++) {
            int index = meta.columnCount() + 1 + i;
            values.add(isBinary(keyIndexes.get(i)) ? new String(rs.getBytes(index), StandardCharsets.ISO_8859_1)
                    : rs.getString(index));
        }
        return new PrimaryKey(values);
    }

    private boolean isBinary(int column) {
        RenderKind kind = RenderKind.of(meta.column(column).dataType());
        return kind == RenderKind.BINARY || kind == RenderKind.BINARY_LIKE;
    }

    private List<CanalEntry.Column> row(ResultSet rs) throws SQLException {
        List<CanalEntry.Column> row = new ArrayList<>(meta.columnCount());
        for (int i = 0; i < meta.columnCount(); i++) {
            ColumnMeta column = meta.column(i);
            CanalEntry.Column.Builder c = CanalEntry.Column.newBuilder().setIndex(i).setName(column.name())
                    .setIsKey(column.key()).setUpdated(true).setMysqlType(column.mysqlType());
            renderer.render(column, SnapshotValues.read(column, rs, i + 1, flavour), c);
            row.add(c.build());
        }
        return row;
    }
}
