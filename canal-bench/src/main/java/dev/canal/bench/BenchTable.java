package dev.canal.bench;

import dev.canal.binlog.column.TimestampValue;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's one table: 12 columns of mixed types, the values each row id gets, and the one text form of
 * a value that every receiver (our decoder, the reference decoder, Canal entries, the database) is brought to
 * before it goes into a {@link RowDigest}. All times are UTC (bench/run.sh runs every JVM with it).
 */
public final class BenchTable {

    public static final String SCHEMA = "bench";
    public static final String TABLE = "t";
    public static final String QUALIFIED = SCHEMA + "." + TABLE;

    /** How a column's value is brought to text; the temporal kinds also say how the reference decoder gives them. */
    enum Kind { INTEGER, TEXT, DECIMAL, DATETIME_MILLIS, TIMESTAMP_SECONDS, DATE, DOUBLE, JSON }

    record Column(String name, String sqlType, Kind kind) {
    }

    /**
     * The table's two shapes, both of the same 12 columns: {@code standard} (short texts, a JSON column; default
     * mix 60:30:10 in statements of 1000 rows) and {@code wide-text} (longer texts and a LONGTEXT holding JSON
     * text, as application tables with a document column have; default mix 50:30:20 in statements of 200 rows).
     * On MariaDB 10.11 their binlogs take about 390 and 740 bytes per row change (the report prints it).
     */
    enum Shape {
        STANDARD("standard", "JSON", "60:30:10", 1000),
        WIDE_TEXT("wide-text", "LONGTEXT", "50:30:20", 200);

        final String label;
        final String docType;
        final String defaultMix;
        final int defaultBatchRows;

        Shape(String label, String docType, String defaultMix, int defaultBatchRows) {
            this.label = label;
            this.docType = docType;
            this.defaultMix = defaultMix;
            this.defaultBatchRows = defaultBatchRows;
        }

        static Shape of(String label) {
            for (Shape shape : values()) {
                if (shape.label.equals(label)) {
                    return shape;
                }
            }
            throw new IllegalArgumentException("--shape is standard or wide-text, got " + label);
        }

        /** Whether the document column is MySQL's binary JSON on a MySQL source (LONGTEXT never is). */
        boolean hasJsonColumn() {
            return docType.equals("JSON");
        }

        List<Column> columns() {
            return List.of(
                    new Column("id", "BIGINT NOT NULL PRIMARY KEY", Kind.INTEGER),
                    new Column("c_int", "INT", Kind.INTEGER),
                    new Column("c_name", "VARCHAR(64)", Kind.TEXT),
                    new Column("c_note", "VARCHAR(255)", Kind.TEXT),
                    new Column("c_amount", "DECIMAL(12,2)", Kind.DECIMAL),
                    new Column("c_at", "DATETIME(3)", Kind.DATETIME_MILLIS),
                    new Column("c_ts", "TIMESTAMP NULL DEFAULT NULL", Kind.TIMESTAMP_SECONDS),
                    new Column("c_day", "DATE", Kind.DATE),
                    new Column("c_ratio", "DOUBLE", Kind.DOUBLE),
                    new Column("c_flag", "TINYINT", Kind.INTEGER),
                    new Column("c_body", "TEXT", Kind.TEXT),
                    new Column("c_doc", docType, hasJsonColumn() ? Kind.JSON : Kind.TEXT));
        }
    }

    /** The columns every shape has, in table order (the document column's type differs, see {@link Shape}). */
    static final List<Column> COLUMNS = Shape.STANDARD.columns();

    /** The wide-text shape's longer texts, fixed so that every run writes the same binlog. */
    private static final String WIDE_NOTE = "; shipped to the second address after a failed delivery";
    private static final String WIDE_BODY = " The parcel arrived dented; fee refunded.";

    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final LocalDateTime AT_BASE = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final LocalDateTime TS_BASE = LocalDateTime.of(2024, 6, 1, 0, 0);
    private static final LocalDate DAY_BASE = LocalDate.of(2000, 1, 1);
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private BenchTable() {
    }

    static String createTable(Shape shape) {
        List<Column> columns = shape.columns();
        StringBuilder sql = new StringBuilder("CREATE TABLE " + QUALIFIED + " (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(columns.get(i).name()).append(' ').append(columns.get(i).sqlType());
        }
        return sql.append(") DEFAULT CHARSET=utf8mb4").toString();
    }

    /** One multi-row INSERT of ids {@code from..to} inclusive; every 10th row has a NULL text body. */
    static String insert(Shape shape, long from, long to) {
        boolean wide = shape == Shape.WIDE_TEXT;
        StringBuilder sql = new StringBuilder(256 * (int) (to - from + 1)).append("INSERT INTO ").append(QUALIFIED)
                .append(" VALUES ");
        for (long id = from; id <= to; id++) {
            sql.append(id == from ? "(" : ",(").append(id).append(',')
                    .append(id * 7 % 1_000_003 - 500_000).append(",'name-").append(id).append("','note ")
                    .append(id).append(" of the benchmark workload, mixed types").append(wide ? WIDE_NOTE : "")
                    .append("',")
                    .append(id % 100_000).append('.').append(String.format("%02d", id % 100)).append(",'")
                    .append(AT_BASE.plusSeconds(id).plusNanos(id % 1000 * 1_000_000).format(MILLIS)).append("','")
                    .append(TS_BASE.plusSeconds(id).format(SECONDS)).append("','")
                    .append(DAY_BASE.plusDays(id % 10_000)).append("',")
                    .append(id % 100_000).append(".25,")
                    .append(id % 256 - 128).append(',')
                    .append(id % 10 == 0 ? "NULL" : "'body " + id + ": a short text column as an application keeps"
                            + (wide ? WIDE_BODY : "") + "'")
                    .append(",'").append(wide ? wideDocument(id) : "{\"id\": " + id + ", \"tag\": \"t-" + id + "\"}")
                    .append("')");
        }
        return sql.toString();
    }

    /** The wide-text shape's JSON document (as text): an order with a customer and two items. */
    private static String wideDocument(long id) {
        return "{\"id\": " + id + ", \"tag\": \"t-" + id + "\", \"customer\": {\"name\": \"customer " + id % 9973
                + "\", \"tier\": \"gold\"}, \"items\": [{\"sku\": \"A-" + id % 1000 + "\", \"qty\": " + id % 7
                + ", \"price\": 12.5}], \"channel\": \"web\"}";
    }

    static String update(long from, long to) {
        return "UPDATE " + QUALIFIED + " SET c_int = c_int + 1, c_name = CONCAT(c_name, '-u'), c_amount = c_amount + 1,"
                + " c_ts = c_ts + INTERVAL 1 HOUR, c_ratio = c_ratio + 1, c_body = 'updated body'"
                + " WHERE id BETWEEN " + from + " AND " + to;
    }

    static String delete(long from, long to) {
        return "DELETE FROM " + QUALIFIED + " WHERE id BETWEEN " + from + " AND " + to;
    }

    /** Every column as the server's own text (CAST AS CHAR), ids {@code from..to}. */
    static String selectText(long from, long to) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < COLUMNS.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("CAST(").append(COLUMNS.get(i).name()).append(" AS CHAR)");
        }
        return sql.append(" FROM ").append(QUALIFIED).append(" WHERE id BETWEEN ").append(from).append(" AND ")
                .append(to).append(" ORDER BY id").toString();
    }

    /** Our decoder's row image (RowsDecoder value types, see dev.canal.binlog.column) as text. */
    static List<String> ourImage(Object[] image) {
        if (image == null) {
            return null;
        }
        List<String> text = new ArrayList<>(image.length);
        for (Object v : image) {
            text.add(ourValue(v));
        }
        return text;
    }

    private static String ourValue(Object v) {
        if (v == null) {
            return RowDigest.NULL;
        }
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof TimestampValue t) {
            // the workload's TIMESTAMP has no fraction
            return LocalDateTime.ofEpochSecond(t.epochSeconds(), 0, ZoneOffset.UTC).format(SECONDS);
        }
        return v.toString(); // Long, Double, String (DATE, DATETIME, MySQL JSON)
    }

    /**
     * The reference decoder's row image as text, read with DATE_AND_TIME_AS_LONG_MICRO and
     * CHAR_AND_BINARY_AS_BYTE_ARRAY (its cheapest modes). {@code binaryJson}: the document column holds MySQL's
     * binary JSON (a JSON column on MySQL); otherwise it is text, as a LONGTEXT or MariaDB's JSON is.
     */
    static List<String> referenceImage(Serializable[] image, boolean binaryJson) {
        if (image == null) {
            return null;
        }
        List<String> text = new ArrayList<>(image.length);
        for (int i = 0; i < image.length; i++) {
            text.add(referenceValue(COLUMNS.get(i).kind(), image[i], binaryJson));
        }
        return text;
    }

    private static String referenceValue(Kind kind, Object v, boolean binaryJson) {
        if (v == null) {
            return RowDigest.NULL;
        }
        return switch (kind) {
            case DATETIME_MILLIS -> micros((Long) v).format(MILLIS);
            case TIMESTAMP_SECONDS -> micros((Long) v).format(SECONDS);
            case DATE -> LocalDate.ofEpochDay(Math.floorDiv((Long) v, MICROS_PER_DAY)).toString();
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case JSON -> binaryJson ? mysqlJson((byte[]) v) : new String((byte[]) v, StandardCharsets.UTF_8);
            case TEXT -> v instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : v.toString();
            case INTEGER, DOUBLE -> v.toString();
        };
    }

    private static String mysqlJson(byte[] value) {
        try {
            return com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary.parseAsString(value);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("reference decoder could not read a MySQL JSON value", e);
        }
    }

    private static LocalDateTime micros(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000),
                Math.floorMod(micros, 1_000_000) * 1000, ZoneOffset.UTC);
    }
}
