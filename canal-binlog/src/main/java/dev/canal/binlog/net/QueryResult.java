package dev.canal.binlog.net;

import java.util.List;

/**
 * A text-protocol result: column names and rows of strings (null for SQL NULL); statements without a result set
 * give no columns and carry the affected-row count instead.
 */
public record QueryResult(List<String> columns, List<List<String>> rows, long affectedRows) {

    public QueryResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** The value in the first row under {@code column}, or null when there is no row. */
    public String firstValue(String column) {
        int index = columns.indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException("no column " + column + " in " + columns);
        }
        return rows.isEmpty() ? null : rows.get(0).get(index);
    }

    /** The first column of the first row, or null when there is no row. */
    public String scalar() {
        return rows.isEmpty() || rows.get(0).isEmpty() ? null : rows.get(0).get(0);
    }
}
