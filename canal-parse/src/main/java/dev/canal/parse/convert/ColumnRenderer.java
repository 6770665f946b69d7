package dev.canal.parse.convert;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.mysql.column.TemporalValue;
import dev.canal.parse.mysql.column.TimestampValue;
import dev.canal.protocol.CanalEntry;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.ZoneId;
import java.util.Arrays;

/**
 * Turns one decoded column value into the {@code value} text and {@code sqlType} a Canal client sees
 * (canal-compat.md Appendix A, canal-output.md "Column values"), where Canal's conventions are kept
 * (ENUM index, SET bitmask, BIT as unsigned decimal, binary as ISO-8859-1, unsigned widening by value) and
 * its data-losing cases are fixed (column charsets honoured, BINARY(n) padded back, DECIMAL scale kept).
 *
 * <p>Decoded values arrive as the column package documents: Long for integers (signed as stored) and BIT,
 * Float, Double, BigDecimal, Integer for YEAR and ENUM, Long for SET, a {@link TemporalValue} for
 * DATE/TIME/DATETIME (its text made here, at the one place it is needed), String for MySQL JSON,
 * {@link TimestampValue} for TIMESTAMP, byte[] for text, binary and geometry.
 */
public final class ColumnRenderer {

    private static final BigDecimal TWO_POW_64 = new BigDecimal("18446744073709551616");

    private final TemporalText timestamps;
    private final int jsonSqlType;

    /** A renderer for a MySQL source. */
    public ColumnRenderer(ZoneId zone) {
        this(zone, false);
    }

    /**
     * @param mariadb the source is MariaDB, whose JSON type is a LONGTEXT alias: Canal reports such columns as
     *                BLOB (canal-output.md, JSON on MariaDB), MySQL's native JSON as VARCHAR
     */
    public ColumnRenderer(ZoneId zone, boolean mariadb) {
        this.timestamps = new TemporalText(zone);
        this.jsonSqlType = mariadb ? Types.BLOB : Types.VARCHAR;
    }

    /** Sets sqlType, isNull and value on the column builder. */
    public void render(ColumnMeta meta, Object value, CanalEntry.Column.Builder column) {
        String type = meta.dataType();
        if (value == null) {
            column.setIsNull(true).setSqlType(type.equals("json") ? jsonSqlType : nullSqlType(type));
            return;
        }
        column.setIsNull(false);
        switch (type) {
            case "tinyint" -> integer(meta, (Long) value, 8, Types.TINYINT, Types.SMALLINT, column);
            case "smallint" -> integer(meta, (Long) value, 16, Types.SMALLINT, Types.INTEGER, column);
            // Canal keeps MEDIUMINT UNSIGNED at INTEGER whatever the value (canal-output.md)
            case "mediumint" -> integer(meta, (Long) value, 24, Types.INTEGER, Types.INTEGER, column);
            case "int", "integer" -> integer(meta, (Long) value, 32, Types.INTEGER, Types.BIGINT, column);
            case "bigint" -> integer(meta, (Long) value, 64, Types.BIGINT, Types.DECIMAL, column);
            case "float" -> column.setSqlType(Types.REAL).setValue(Float.toString(((Number) value).floatValue()));
            case "double", "real" -> column.setSqlType(Types.DOUBLE).setValue(Double.toString(((Number) value).doubleValue()));
            case "decimal", "numeric" -> column.setSqlType(Types.DECIMAL).setValue(((BigDecimal) value).toPlainString());
            case "bit" -> column.setSqlType(Types.BIT).setValue(Long.toUnsignedString((Long) value));
            case "year" -> column.setSqlType(Types.VARCHAR).setValue(year((Integer) value));
            case "date" -> column.setSqlType(Types.DATE).setValue(temporal(value));
            case "time" -> column.setSqlType(Types.TIME).setValue(temporal(value));
            case "datetime" -> column.setSqlType(Types.TIMESTAMP).setValue(temporal(value));
            case "timestamp" -> column.setSqlType(Types.TIMESTAMP).setValue(timestamp(value));
            case "enum" -> column.setSqlType(Types.INTEGER).setValue(value.toString());
            case "set" -> column.setSqlType(Types.BIT).setValue(Long.toUnsignedString(((Number) value).longValue()));
            case "char" -> column.setSqlType(Types.CHAR).setValue(text(meta, value));
            case "varchar" -> column.setSqlType(Types.VARCHAR).setValue(text(meta, value));
            case "tinytext", "text", "mediumtext", "longtext" -> column.setSqlType(Types.CLOB).setValue(text(meta, value));
            case "json" -> column.setSqlType(jsonSqlType).setValue(text(meta, value));
            case "binary" -> column.setSqlType(Types.BLOB).setValue(latin1(padded((byte[]) value, meta.binaryLength())));
            case "inet6" -> column.setSqlType(Types.CHAR).setValue(InetText.inet6((byte[]) value));
            case "inet4" -> column.setSqlType(Types.CHAR).setValue(InetText.inet4((byte[]) value));
            default -> column.setSqlType(isBinaryLike(type) ? Types.BLOB : Types.VARCHAR).setValue(bytesOrText(value));
        }
    }

    /** sqlType of a NULL value: as the type, except SET, which Canal reports as BLOB when NULL (JSON: see above). */
    static int nullSqlType(String type) {
        return switch (type) {
            case "tinyint" -> Types.TINYINT;
            case "smallint" -> Types.SMALLINT;
            case "mediumint", "int", "integer", "enum" -> Types.INTEGER;
            case "bigint" -> Types.BIGINT;
            case "float" -> Types.REAL;
            case "double", "real" -> Types.DOUBLE;
            case "decimal", "numeric" -> Types.DECIMAL;
            case "bit" -> Types.BIT;
            case "date" -> Types.DATE;
            case "time" -> Types.TIME;
            case "datetime", "timestamp" -> Types.TIMESTAMP;
            case "char", "inet6", "inet4" -> Types.CHAR;
            case "tinytext", "text", "mediumtext", "longtext" -> Types.CLOB;
            case "set" -> Types.BLOB;
            default -> isBinaryLike(type) ? Types.BLOB : Types.VARCHAR;
        };
    }

    private static void integer(ColumnMeta meta, long raw, int bits, int sqlType, int widenedSqlType,
            CanalEntry.Column.Builder column) {
        if (meta.unsigned() && raw < 0) {
            // a negative stored value of an unsigned column is >= 2^(bits-1): Canal re-bases it and widens sqlType
            String text = bits == 64 ? new BigDecimal(raw).add(TWO_POW_64).toPlainString()
                    : Long.toString(raw + (1L << bits));
            column.setSqlType(widenedSqlType).setValue(text);
        } else {
            column.setSqlType(sqlType).setValue(Long.toString(raw));
        }
    }

    /** The text of a DATE/TIME/DATETIME value, made here rather than at decode time. */
    private static String temporal(Object value) {
        return ((TemporalValue) value).toString();
    }

    private String timestamp(Object value) {
        TimestampValue t = (TimestampValue) value;
        return timestamps.timestamp(t.epochSeconds(), t.micros(), t.fsp());
    }

    private static String year(int year) {
        return year == 0 ? "0000" : Integer.toString(year);
    }

    private static String text(ColumnMeta meta, Object value) {
        if (value instanceof String s) {
            return s;
        }
        Charset charset = meta.charset() == null ? StandardCharsets.UTF_8 : meta.charset();
        return new String((byte[]) value, charset);
    }

    private static String bytesOrText(Object value) {
        return value instanceof byte[] bytes ? latin1(bytes) : value.toString();
    }

    /** MySQL strips BINARY(n)'s trailing zero bytes in the row image; the column value is n bytes. */
    private static byte[] padded(byte[] value, int length) {
        return value.length >= length ? value : Arrays.copyOf(value, length);
    }

    private static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static boolean isBinaryLike(String type) {
        return switch (type) {
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "geometry", "point",
                    "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection",
                    "geomcollection" -> true;
            default -> false;
        };
    }
}
