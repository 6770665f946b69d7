package dev.canal.binlog.column;

/**
 * One operation of a partial JSON update (PARTIAL_UPDATE_ROWS, {@code binlog_row_value_options=PARTIAL_JSON}):
 * apply {@code operation} at {@code path} (MySQL JSON path text, e.g. {@code $.a[1]}) with {@code value} (JSON
 * text; null for REMOVE).
 */
public record JsonDiff(Operation operation, String path, String value) {

    public enum Operation { REPLACE, INSERT, REMOVE }
}
