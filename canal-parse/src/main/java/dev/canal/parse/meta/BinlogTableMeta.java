package dev.canal.parse.meta;

import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TableMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A table's definition read straight from its TABLE_MAP when the source writes full optional metadata
 * ({@code binlog_row_metadata=FULL}, MySQL 8.0.1+ / MariaDB 10.5+): names, keys, signedness and charsets come
 * from the binlog, so they always match the row image they describe, with no lookup and no stale cache. The
 * {@code mysqlType} text is rebuilt from the type and its metadata the way MySQL 8 prints it, and replaced by the
 * source's own text where a matching definition is known ({@link #withSourceTypes}): the TABLE_MAP has no display
 * width, no zerofill and no MariaDB type names, so it cannot tell {@code tinyint(1)} from {@code tinyint}.
 */
public final class BinlogTableMeta {

    private static final String[] GEOMETRY_NAMES = {"geometry", "point", "linestring", "polygon", "multipoint",
            "multilinestring", "multipolygon", "geometrycollection"};
    /** Types whose display width, precision or zerofill the TABLE_MAP does not carry. */
    private static final Set<String> WIDTH_TYPES = Set.of("tinyint", "smallint", "mediumint", "int", "bigint",
            "float", "double");
    /** MariaDB types whose values travel as BINARY(n) in the row image. */
    private static final Set<String> BINARY_CARRIED = Set.of("inet4", "inet6", "uuid");

    private BinlogTableMeta() {
    }

    /** Whether the TABLE_MAP carries enough to describe its table (column names at least). */
    public static boolean available(TableMapEvent map) {
        return map.metadata().columnNames() != null;
    }

    /**
     * The TABLE_MAP's columns; named {@code @1}, {@code @2}, ... when it carries no names, text whose charset it does
     * not carry read as binary.
     */
    public static TableMeta from(TableMapEvent map, CollationCatalog collations) {
        TableMetadata md = map.metadata();
        List<ColumnMeta> columns = new ArrayList<>(map.columnCount());
        for (int i = 0; i < map.columnCount(); i++) {
            columns.add(column(map, md, i, collations));
        }
        return new TableMeta(map.schema(), map.table(), columns);
    }

    private static ColumnMeta column(TableMapEvent map, TableMetadata md, int i, CollationCatalog collations) {
        int type = map.realType(i);
        int meta = map.columnMeta()[i];
        boolean unsigned = md.isUnsigned(i);
        boolean key = isKey(md, i);
        // without full metadata the TABLE_MAP names no column: mysqlbinlog's @1, @2, ... stand for them
        String name = md.columnName(i) != null ? md.columnName(i) : "@" + (i + 1);
        CollationCatalog.Collation collation = md.charset(i) < 0 ? null : collations.collation(md.charset(i));
        boolean binary = collation == null || collation.isBinary();
        int perChar = collation == null ? 1 : Math.max(1, collation.maxBytesPerChar());
        String sign = unsigned ? " unsigned" : "";
        return switch (type) {
            case ColumnType.TINY -> plain(name, "tinyint", sign, key, unsigned);
            case ColumnType.SHORT -> plain(name, "smallint", sign, key, unsigned);
            case ColumnType.INT24 -> plain(name, "mediumint", sign, key, unsigned);
            case ColumnType.LONG -> plain(name, "int", sign, key, unsigned);
            case ColumnType.LONGLONG -> plain(name, "bigint", sign, key, unsigned);
            case ColumnType.FLOAT -> plain(name, "float", sign, key, unsigned);
            case ColumnType.DOUBLE -> plain(name, "double", sign, key, unsigned);
            case ColumnType.NEWDECIMAL, ColumnType.DECIMAL -> new ColumnMeta(name,
                    "decimal(" + (meta >> 8) + "," + (meta & 0xFF) + ")" + sign, "decimal", key, unsigned, null, 0);
            case ColumnType.BIT -> new ColumnMeta(name, "bit(" + ((meta >> 8) * 8 + (meta & 0xFF)) + ")", "bit", key,
                    false, null, 0);
            case ColumnType.YEAR -> plain(name, "year", "", key, false);
            case ColumnType.DATE, ColumnType.NEWDATE -> plain(name, "date", "", key, false);
            case ColumnType.TIME, ColumnType.TIME2 -> temporal(name, "time", type == ColumnType.TIME2 ? meta : 0, key);
            case ColumnType.DATETIME, ColumnType.DATETIME2 -> temporal(name, "datetime",
                    type == ColumnType.DATETIME2 ? meta : 0, key);
            case ColumnType.TIMESTAMP, ColumnType.TIMESTAMP2 -> temporal(name, "timestamp",
                    type == ColumnType.TIMESTAMP2 ? meta : 0, key);
            case ColumnType.VARCHAR, ColumnType.VAR_STRING -> binary
                    ? new ColumnMeta(name, "varbinary(" + meta + ")", "varbinary", key, false, null, 0)
                    : new ColumnMeta(name, "varchar(" + meta / perChar + ")", "varchar", key, false,
                            collation.javaCharset(), 0);
            case ColumnType.STRING -> fixedString(name, meta, binary, perChar, collation, key);
            case ColumnType.ENUM -> new ColumnMeta(name, "enum(" + quoted(md.enumValues(), i) + ")", "enum", key,
                    false, null, 0);
            case ColumnType.SET -> new ColumnMeta(name, "set(" + quoted(md.setValues(), i) + ")", "set", key, false,
                    null, 0);
            case ColumnType.BLOB, ColumnType.TINY_BLOB, ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB -> {
                String size = switch (meta) {
                    case 1 -> "tiny";
                    case 3 -> "medium";
                    case 4 -> "long";
                    default -> "";
                };
                String kind = size + (binary ? "blob" : "text");
                yield new ColumnMeta(name, kind, kind, key, false, binary ? null : collation.javaCharset(), 0);
            }
            case ColumnType.JSON -> plain(name, "json", "", key, false);
            case ColumnType.GEOMETRY -> {
                int subtype = md.geometryTypes() == null ? 0 : md.geometryTypes()[i];
                String kind = subtype >= 0 && subtype < GEOMETRY_NAMES.length ? GEOMETRY_NAMES[subtype] : "geometry";
                yield plain(name, kind, "", key, false);
            }
            default -> plain(name, ColumnType.name(type).toLowerCase(java.util.Locale.ROOT), "", key, false);
        };
    }

    /**
     * {@code fromBinlog} with the {@code mysqlType} that {@code fromSource} (the schema history, or the source's
     * {@code information_schema.COLUMNS.COLUMN_TYPE}) gives the columns whose text the binlog cannot rebuild:
     * numbers with a display width, precision or zerofill the rebuilt text lacks ({@code tinyint(1)},
     * {@code int(5) unsigned zerofill}, {@code float(7,3)}), and MariaDB types stored in a BINARY carrier (INET4,
     * INET6, UUID), whose type name is taken too so their values render as such. Only a definition of the same
     * columns (count and names) is used; one of other columns (the table changed since this row was written)
     * leaves {@code fromBinlog} as it is.
     */
    public static TableMeta withSourceTypes(TableMeta fromBinlog, TableMeta fromSource) {
        if (fromSource == null || fromSource.columnCount() != fromBinlog.columnCount()) {
            return fromBinlog;
        }
        for (int i = 0; i < fromBinlog.columnCount(); i++) {
            if (!fromBinlog.column(i).name().equalsIgnoreCase(fromSource.column(i).name())) {
                return fromBinlog;
            }
        }
        List<ColumnMeta> columns = new ArrayList<>(fromBinlog.columnCount());
        for (int i = 0; i < fromBinlog.columnCount(); i++) {
            ColumnMeta binlog = fromBinlog.column(i);
            ColumnMeta source = fromSource.column(i);
            if (binlog.dataType().equals(source.dataType())) {
                boolean tellsMore = WIDTH_TYPES.contains(binlog.dataType())
                        && !binlog.mysqlType().equalsIgnoreCase(source.mysqlType());
                columns.add(!tellsMore ? binlog : new ColumnMeta(binlog.name(), source.mysqlType(), binlog.dataType(),
                        binlog.key(), binlog.unsigned(), binlog.charset(), binlog.binaryLength()));
            } else if (binlog.dataType().equals("binary") && BINARY_CARRIED.contains(source.dataType())) {
                columns.add(new ColumnMeta(binlog.name(), source.mysqlType(), source.dataType(), binlog.key(), false,
                        null, binlog.binaryLength()));
            } else {
                columns.add(binlog);
            }
        }
        return new TableMeta(fromBinlog.schema(), fromBinlog.table(), columns);
    }

    private static ColumnMeta plain(String name, String dataType, String suffix, boolean key, boolean unsigned) {
        return new ColumnMeta(name, dataType + suffix, dataType, key, unsigned, null, 0);
    }

    private static ColumnMeta temporal(String name, String dataType, int fsp, boolean key) {
        return new ColumnMeta(name, fsp > 0 ? dataType + "(" + fsp + ")" : dataType, dataType, key, false, null, 0);
    }

    /** CHAR/BINARY: the byte length hides two extra bits in the type byte for lengths over 255. */
    private static ColumnMeta fixedString(String name, int meta, boolean binary, int perChar,
            CollationCatalog.Collation collation, boolean key) {
        int byte0 = meta >> 8;
        int length = (meta & 0xFF) | (((byte0 & 0x30) ^ 0x30) << 4);
        return binary
                ? new ColumnMeta(name, "binary(" + length + ")", "binary", key, false, null, length)
                : new ColumnMeta(name, "char(" + length / perChar + ")", "char", key, false, collation.javaCharset(), 0);
    }

    private static boolean isKey(TableMetadata md, int column) {
        for (int k : md.primaryKey()) {
            if (k == column) {
                return true;
            }
        }
        return false;
    }

    private static String quoted(List<List<String>> values, int column) {
        if (values == null || values.get(column) == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String v : values.get(column)) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append('\'').append(v.replace("'", "''")).append('\'');
        }
        return sb.toString();
    }
}
