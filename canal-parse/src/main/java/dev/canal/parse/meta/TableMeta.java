package dev.canal.parse.meta;

import java.util.List;

/** A table's columns in table order, as they were at some binlog position. */
public record TableMeta(String schema, String table, List<ColumnMeta> columns) {

    public TableMeta {
        columns = List.copyOf(columns);
    }

    public String fullName() {
        return schema + "." + table;
    }

    public int columnCount() {
        return columns.size();
    }

    public ColumnMeta column(int index) {
        return columns.get(index);
    }
}
