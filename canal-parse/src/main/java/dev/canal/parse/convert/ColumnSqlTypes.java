package dev.canal.parse.convert;

/** The {@code sqlType} Canal reports for a column, by its lower-case type name, for rows built outside the binlog. */
public final class ColumnSqlTypes {

    private ColumnSqlTypes() {
    }

    public static int of(String dataType) {
        return RenderKind.of(dataType).nullSqlType();
    }
}
