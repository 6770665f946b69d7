package dev.canal.parse.meta.history;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;

/**
 * One table of the schema model, kept as the columns the entry builder reads and nothing else: no syntax tree and
 * no DDL text. What a later DDL statement needs besides is the table's own default charset and each text column's
 * MySQL charset name; {@link #createTable} writes the table back as the {@code CREATE TABLE} the DDL parser reads
 * when a statement changes it, and as snapshot data.
 *
 * @param charset        the table's default charset (MySQL name), null when it names none
 * @param columnCharsets per column, the MySQL charset name of a text column's values (null for other columns, and
 *                       for text whose charset nothing names)
 */
record TableDefinition(TableMeta meta, String charset, String[] columnCharsets) {

    /** {@code CREATE TABLE `schema`.`table` (...)}: columns, their charsets, the primary key, the default charset. */
    String createTable() {
        StringBuilder sql = new StringBuilder(32 + 24 * meta.columnCount()).append("CREATE TABLE ")
                .append(quoted(meta.schema())).append('.').append(quoted(meta.table())).append(" (");
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < meta.columnCount(); i++) {
            ColumnMeta column = meta.column(i);
            sql.append(i == 0 ? "\n  " : ",\n  ").append(quoted(column.name())).append(' ').append(column.mysqlType());
            if (columnCharsets[i] != null) {
                sql.append(" CHARACTER SET ").append(columnCharsets[i]);
            }
            if (column.key()) {
                key.append(key.isEmpty() ? "" : ",").append(quoted(column.name()));
            }
        }
        if (!key.isEmpty()) {
            sql.append(",\n  PRIMARY KEY (").append(key).append(')');
        }
        sql.append("\n)");
        if (charset != null) {
            sql.append(" DEFAULT CHARSET=").append(charset);
        }
        return sql.toString();
    }

    /** Names are kept as the DDL parser gives them, a backtick inside a name still doubled. */
    private static String quoted(String name) {
        return "`" + name + "`";
    }
}
