package dev.canal.binlog.event;

import dev.canal.binlog.column.ColumnType;
import java.util.BitSet;

/**
 * TABLE_MAP: binds a table id to a table and describes its columns for the rows events that follow.
 *
 * @param columnTypes binlog column type per column ({@link ColumnType}); for {@code STRING} columns that are
 *                    really ENUM or SET the real type is in {@link #realType(int)}
 * @param columnMeta  type metadata per column as {@link dev.canal.binlog.column.ColumnDecoder} reads it
 * @param nullable    columns that may be NULL
 * @param metadata    optional metadata ({@code binlog_row_metadata}), never null (empty when absent)
 */
public record TableMapEvent(EventHeader header, long tableId, int flags, String schema, String table,
        int columnCount, int[] columnTypes, int[] columnMeta, BitSet nullable, TableMetadata metadata)
        implements BinlogEvent {

    /** The column type with ENUM and SET resolved out of STRING. */
    public int realType(int column) {
        return ColumnType.realType(columnTypes[column], columnMeta[column]);
    }

    /** {@code schema.table}. */
    public String qualifiedName() {
        return schema + "." + table;
    }
}
