package dev.canal.parse.meta;

import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.event.TableMapEvent;
import java.util.Set;

/**
 * Whether a table definition describes the columns a TABLE_MAP lists: as many, each of a type the TABLE_MAP's
 * column type carries. What every TABLE_MAP tells for sure, whatever {@code binlog_row_metadata} says; names it
 * tells only with full metadata.
 */
public final class TableMapShape {

    private static final Set<String> TEXT_AND_BLOB = Set.of("tinytext", "text", "mediumtext", "longtext", "tinyblob",
            "blob", "mediumblob", "longblob", "json");
    private static final Set<String> GEOMETRY = Set.of("geometry", "point", "linestring", "polygon", "multipoint",
            "multilinestring", "multipolygon", "geometrycollection", "geomcollection");
    /** CHAR and BINARY, and what travels as them: MariaDB's INET4, INET6 and UUID. */
    private static final Set<String> FIXED_STRING = Set.of("char", "binary", "inet4", "inet6", "uuid");

    private TableMapShape() {
    }

    public static boolean fits(TableMeta meta, TableMapEvent map) {
        if (meta.columnCount() != map.columnCount()) {
            return false;
        }
        for (int i = 0; i < map.columnCount(); i++) {
            if (!carries(map.realType(i), meta.column(i).dataType())) {
                return false;
            }
        }
        return true;
    }

    /** Whether a binlog column type carries values of the named type (types not listed here are not checked). */
    static boolean carries(int type, String dataType) {
        return switch (type) {
            case ColumnType.TINY -> dataType.equals("tinyint");
            case ColumnType.SHORT -> dataType.equals("smallint");
            case ColumnType.INT24 -> dataType.equals("mediumint");
            case ColumnType.LONG -> dataType.equals("int");
            case ColumnType.LONGLONG -> dataType.equals("bigint");
            case ColumnType.FLOAT -> dataType.equals("float");
            case ColumnType.DOUBLE -> dataType.equals("double");
            case ColumnType.DECIMAL, ColumnType.NEWDECIMAL -> dataType.equals("decimal");
            case ColumnType.BIT -> dataType.equals("bit");
            case ColumnType.YEAR -> dataType.equals("year");
            case ColumnType.DATE, ColumnType.NEWDATE -> dataType.equals("date");
            case ColumnType.TIME, ColumnType.TIME2 -> dataType.equals("time");
            case ColumnType.DATETIME, ColumnType.DATETIME2 -> dataType.equals("datetime");
            case ColumnType.TIMESTAMP, ColumnType.TIMESTAMP2 -> dataType.equals("timestamp");
            case ColumnType.VARCHAR, ColumnType.VAR_STRING, ColumnType.VARCHAR_COMPRESSED ->
                    dataType.equals("varchar") || dataType.equals("varbinary");
            case ColumnType.STRING -> FIXED_STRING.contains(dataType);
            case ColumnType.ENUM -> dataType.equals("enum");
            case ColumnType.SET -> dataType.equals("set");
            case ColumnType.TINY_BLOB, ColumnType.BLOB, ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB,
                    ColumnType.BLOB_COMPRESSED -> TEXT_AND_BLOB.contains(dataType);
            case ColumnType.JSON -> dataType.equals("json");
            case ColumnType.GEOMETRY -> GEOMETRY.contains(dataType);
            default -> true;
        };
    }
}
