package dev.canal.binlog.event;

/**
 * One row of a rows event: the before image (UPDATE, DELETE) and the after image (WRITE, UPDATE), each indexed
 * by table column. An entry is null for SQL NULL and for columns absent from the image (MINIMAL and NOBLOB row
 * images); {@link RowsEvent#columnsBefore()} / {@link RowsEvent#columnsAfter()} tell the two apart. Value types
 * are listed in {@link dev.canal.binlog.column}.
 */
public record RowChange(Object[] before, Object[] after) {
}
