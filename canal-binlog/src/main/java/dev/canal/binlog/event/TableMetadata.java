package dev.canal.binlog.event;

import java.util.BitSet;
import java.util.List;

/**
 * TABLE_MAP optional metadata (MySQL 8.0.1+ and MariaDB 10.5+; all kinds with {@code binlog_row_metadata=FULL},
 * signedness, charsets and geometry types with MINIMAL), resolved to one entry per column so that readers need
 * not know which column kinds each field counts.
 *
 * @param unsignedColumns    numeric columns declared UNSIGNED; null when the binlog does not say
 * @param columnCharsets     collation id per column for character, ENUM and SET columns, -1 elsewhere;
 *                           null when the binlog does not say
 * @param columnNames        null when absent
 * @param enumValues         ENUM member strings per column (null for other columns); null when absent
 * @param setValues          SET member strings per column (null for other columns); null when absent
 * @param geometryTypes      geometry subtype per column (0 GEOMETRY, 1 POINT, ...; -1 elsewhere); null when absent
 * @param primaryKey         primary key column indexes in key order; empty when absent
 * @param primaryKeyPrefixes prefix length per primary key part (0 = whole column)
 * @param visibleColumns     columns that are not INVISIBLE; null when absent
 * @param vectorDimensions   dimension per VECTOR column (-1 elsewhere); null when absent
 */
public record TableMetadata(BitSet unsignedColumns, int[] columnCharsets, List<String> columnNames,
        List<List<String>> enumValues, List<List<String>> setValues, int[] geometryTypes, int[] primaryKey,
        int[] primaryKeyPrefixes, BitSet visibleColumns, int[] vectorDimensions) {

    public static final TableMetadata NONE = new TableMetadata(null, null, null, null, null, null, new int[0],
            new int[0], null, null);

    public boolean isUnsigned(int column) {
        return unsignedColumns != null && unsignedColumns.get(column);
    }

    /** Collation id of a column, -1 when unknown. */
    public int charset(int column) {
        return columnCharsets == null ? -1 : columnCharsets[column];
    }

    public String columnName(int column) {
        return columnNames == null ? null : columnNames.get(column);
    }
}
