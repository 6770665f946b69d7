package dev.canal.parse.convert;

import dev.canal.parse.SourceFlavour;
import com.google.protobuf.ByteString;
import dev.canal.binlog.column.PartialJson;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.binlog.column.TemporalValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.protocol.CanalEntry;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.ZoneId;
import java.util.Arrays;

/**
 * Turns one decoded column value into the {@code value} text and {@code sqlType} a Canal client sees,
 * where Canal's conventions are kept
 * (ENUM index, SET bitmask, BIT as unsigned decimal, binary as ISO-8859-1, unsigned widening by value) and
 * its data-losing cases are fixed (column charsets honoured, BINARY(n) padded back, DECIMAL scale kept).
 *
 * <p>Decoded values arrive as the column package documents: Long for integers (signed as stored) and BIT,
 * Float, Double, BigDecimal, Integer for YEAR and ENUM, Long for SET, a {@link TemporalValue} for
 * DATE/TIME/DATETIME (its text made here, at the one place it is needed), String for MySQL JSON,
 * {@link TimestampValue} for TIMESTAMP, byte[] for text, binary and geometry; String for text and JSON read
 * over JDBC, and for MariaDB's INET4, INET6 and UUID as the server prints them.
 */
public final class ColumnRenderer {

    private static final BigDecimal TWO_POW_64 = new BigDecimal("18446744073709551616");

    private final TimestampText timestamps;
    private final int jsonSqlType;
    private final int jsonNullSqlType;

    /** A renderer for a MySQL source. */
    public ColumnRenderer(ZoneId zone) {
        this(zone, SourceFlavour.MYSQL);
    }

    /** @param flavour the source's, which decides the sqlType of JSON columns */
    public ColumnRenderer(ZoneId zone, SourceFlavour flavour) {
        this.timestamps = new TimestampText(zone);
        this.jsonSqlType = flavour.jsonSqlType();
        this.jsonNullSqlType = flavour.jsonNullSqlType();
    }

    /** Where {@link #render} puts one value: its sqlType and text, or its sqlType alone for SQL NULL. */
    public interface ValueSink {

        void text(int sqlType, String text);

        /** The text already UTF-8 encoded: an array the sink may keep and must not change. */
        void utf8(int sqlType, byte[] text);

        void nullValue(int sqlType);
    }

    /** Sets sqlType, isNull and value on the column builder. */
    public void render(ColumnMeta meta, Object value, CanalEntry.Column.Builder column) {
        render(meta, value, new ValueSink() {
            @Override
            public void text(int sqlType, String text) {
                column.setIsNull(false).setSqlType(sqlType).setValue(text);
            }

            @Override
            public void utf8(int sqlType, byte[] text) {
                column.setIsNull(false).setSqlType(sqlType).setValueBytes(ByteString.copyFrom(text));
            }

            @Override
            public void nullValue(int sqlType) {
                column.setIsNull(true).setSqlType(sqlType);
            }
        });
    }

    /** Renders one decoded value (null for SQL NULL) of the column into {@code out}. */
    public void render(ColumnMeta meta, Object value, ValueSink out) {
        render(RenderKind.of(meta.dataType()), meta, value, out);
    }

    /**
     * As {@link #render(ColumnMeta, Object, ValueSink)}, with the column's kind already resolved. The switch is an
     * expression, so a new kind does not compile without its rendering.
     *
     * @return the sqlType written
     */
    int render(RenderKind kind, ColumnMeta meta, Object value, ValueSink out) {
        if (value == null) {
            int sqlType = kind == RenderKind.JSON ? jsonNullSqlType : kind.nullSqlType();
            out.nullValue(sqlType);
            return sqlType;
        }
        return switch (kind) {
            case TINYINT -> integer(meta, (Long) value, 8, Types.TINYINT, Types.SMALLINT, out);
            case SMALLINT -> integer(meta, (Long) value, 16, Types.SMALLINT, Types.INTEGER, out);
            // Canal keeps MEDIUMINT UNSIGNED at INTEGER whatever the value
            case MEDIUMINT -> integer(meta, (Long) value, 24, Types.INTEGER, Types.INTEGER, out);
            case INT -> integer(meta, (Long) value, 32, Types.INTEGER, Types.BIGINT, out);
            case BIGINT -> integer(meta, (Long) value, 64, Types.BIGINT, Types.DECIMAL, out);
            case FLOAT -> sendText(out, Types.REAL, Float.toString(((Number) value).floatValue()));
            case DOUBLE -> sendUtf8(out, Types.DOUBLE, NumberText.doubleValue(((Number) value).doubleValue()));
            case DECIMAL -> sendUtf8(out, Types.DECIMAL, NumberText.decimal((BigDecimal) value));
            case BIT -> sendUtf8(out, Types.BIT, AsciiDigits.unsigned((Long) value));
            case YEAR -> sendUtf8(out, Types.VARCHAR, year((Integer) value));
            case DATE -> sendUtf8(out, Types.DATE, temporal(value));
            case TIME -> sendUtf8(out, Types.TIME, temporal(value));
            case DATETIME -> sendUtf8(out, Types.TIMESTAMP, temporal(value));
            case TIMESTAMP -> sendUtf8(out, Types.TIMESTAMP, timestamp(value));
            case ENUM -> sendUtf8(out, Types.INTEGER, AsciiDigits.of((Integer) value));
            case SET -> sendUtf8(out, Types.BIT, AsciiDigits.unsigned(((Number) value).longValue()));
            case CHAR -> text(meta, value, Types.CHAR, out);
            case VARCHAR -> text(meta, value, Types.VARCHAR, out);
            case TEXT -> text(meta, value, Types.CLOB, out);
            case JSON -> value instanceof PartialJson partial
                    ? sendText(out, jsonSqlType, PartialJsonText.of(partial, meta.name()))
                    : text(meta, value, jsonSqlType, out);
            case BINARY -> sendUtf8(out, Types.BLOB, Latin1Text.utf8(padded((byte[]) value, meta.binaryLength())));
            // a String is the server's own text of the value, which these renderings reproduce
            case INET6 -> sendText(out, Types.CHAR, value instanceof String s ? s : InetText.inet6((byte[]) value));
            case INET4 -> sendText(out, Types.CHAR, value instanceof String s ? s : InetText.inet4((byte[]) value));
            case UUID -> sendText(out, Types.CHAR, value instanceof String s ? s : UuidText.of((byte[]) value));
            case BINARY_LIKE -> bytesOrText(value, Types.BLOB, out);
            case OTHER -> bytesOrText(value, Types.VARCHAR, out);
        };
    }

    private static int sendText(ValueSink out, int sqlType, String text) {
        out.text(sqlType, text);
        return sqlType;
    }

    private static int sendUtf8(ValueSink out, int sqlType, byte[] text) {
        out.utf8(sqlType, text);
        return sqlType;
    }

    private static int integer(ColumnMeta meta, long raw, int bits, int sqlType, int widenedSqlType,
            ValueSink out) {
        if (!meta.unsigned() || raw >= 0) {
            return sendUtf8(out, sqlType, AsciiDigits.of(raw));
        }
        // a negative stored value of an unsigned column is >= 2^(bits-1): Canal re-bases it and widens sqlType
        return bits == 64 ? sendText(out, widenedSqlType, new BigDecimal(raw).add(TWO_POW_64).toPlainString())
                : sendUtf8(out, widenedSqlType, AsciiDigits.of(raw + (1L << bits)));
    }

    /** The text of a DATE/TIME/DATETIME value, made here rather than at decode time. */
    private static byte[] temporal(Object value) {
        return ((TemporalValue) value).textBytes();
    }

    private byte[] timestamp(Object value) {
        TimestampValue t = (TimestampValue) value;
        return timestamps.timestamp(t.epochSeconds(), t.micros(), t.fsp());
    }

    private static byte[] year(int year) {
        return year == 0 ? new byte[] {'0', '0', '0', '0'} : AsciiDigits.of(year);
    }

    /**
     * Text in the column's charset, as UTF-8. Bytes that already are valid UTF-8 in a UTF-8 column go out as they
     * are: decoding them to a String and encoding that again would give the same bytes.
     */
    private static int text(ColumnMeta meta, Object value, int sqlType, ValueSink out) {
        if (value instanceof String s) {
            return sendText(out, sqlType, s);
        }
        byte[] bytes = (byte[]) value;
        Charset charset = meta.charset() == null ? StandardCharsets.UTF_8 : meta.charset();
        if (charset.equals(StandardCharsets.UTF_8) && Utf8Check.isValid(bytes)) {
            return sendUtf8(out, sqlType, bytes);
        }
        return sendText(out, sqlType, new String(bytes, charset));
    }

    /** Bytes as ISO-8859-1 text (Canal's form of binary values), anything else as its text. */
    private static int bytesOrText(Object value, int sqlType, ValueSink out) {
        return value instanceof byte[] bytes ? sendUtf8(out, sqlType, Latin1Text.utf8(bytes))
                : sendText(out, sqlType, value.toString());
    }

    /** MySQL strips BINARY(n)'s trailing zero bytes in the row image; the column value is n bytes. */
    private static byte[] padded(byte[] value, int length) {
        return value.length >= length ? value : Arrays.copyOf(value, length);
    }
}
