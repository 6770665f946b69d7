package dev.canal.deployer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Rows of a table as the text Canal delivers for them (with the deliberate
 * differences of docs/compatibility.md: BINARY(n) keeps its trailing 0x00, DECIMAL keeps its scale, MariaDB JSON is
 * UTF-8), read back from the database with SQL. Nothing here looks at what the server under test produced: the
 * column types come from information_schema and every value from a SELECT.
 */
final class EveryTypeRows {

    /** One column of a row image: its name, its text ({@code null} for SQL NULL), java.sql.Types code, key flag. */
    record Cell(String name, String value, int sqlType, boolean isKey) {
    }

    /** Turns what the SELECT expression returned into Canal's text; fsp is the column's fractional-second precision. */
    @FunctionalInterface
    private interface Renderer {
        String text(String selected, int fsp);
    }

    /** How one column type is selected and turned into Canal's text. */
    private enum Kind {
        /** Integers, DECIMAL, DATE, TIME, DATETIME, YEAR: MySQL's own text is Canal's. */
        AS_TEXT("CAST(%s AS CHAR)", (text, fsp) -> text),
        /** CHAR/VARCHAR/TEXT/JSON: the string itself (the connection is UTF-8). */
        STRING("%s", (text, fsp) -> text),
        /**
         * MySQL's JSON: the text as MySQL prints it, but doubles as Canal prints them (Java's Double.toString;
         * docs/compatibility.md, "JSON values on MySQL"). MySQL writes a double with an exponent, or plainly with a
         * point; a plain one Java would write with an exponent (below 1e-3, from 1e7) is a double too, as the
         * tables here hold no DECIMAL inside JSON.
         */
        JSON("%s", (text, fsp) -> JSON_NUMBER.matcher(text).replaceAll(m -> javaDouble(m.group()))),
        /** FLOAT: widened to DOUBLE on the server (exact), printed as Java's Float.toString. */
        FLOAT("(%s + 0e0)", (text, fsp) -> Float.toString((float) Double.parseDouble(text))),
        /** DOUBLE: MySQL prints the shortest round-trip digits; Canal prints Java's Double.toString. */
        DOUBLE("%s", (text, fsp) -> Double.toString(Double.parseDouble(text))),
        /** BIT: the bits as an unsigned decimal. */
        BIT("CAST(%s AS UNSIGNED)", (text, fsp) -> text),
        /** ENUM: 1-based index; SET: bitmask. */
        ORDINAL("CAST(%s + 0 AS CHAR)", (text, fsp) -> text),
        /** BINARY/VARBINARY/BLOB: each byte as one ISO-8859-1 character. */
        BYTES("HEX(%s)", (hex, fsp) -> new String(HexFormat.of().parseHex(hex), StandardCharsets.ISO_8859_1)),
        /** TIMESTAMP: the epoch, rendered in this JVM's zone, which is the in-process server's zone too. */
        TIMESTAMP("UNIX_TIMESTAMP(%s)", (epoch, fsp) -> timestampText(new BigDecimal(epoch), fsp));

        private final String select;
        private final Renderer render;

        Kind(String select, Renderer render) {
            this.select = select;
            this.render = render;
        }

        static Kind of(String dataType, String columnType) {
            return switch (dataType) {
                case "tinyint", "smallint", "mediumint", "int", "bigint", "decimal", "date", "time", "datetime",
                        "year" -> AS_TEXT;
                case "char", "varchar", "tinytext", "text", "mediumtext", "longtext" -> STRING;
                case "json" -> JSON;
                case "float" -> FLOAT;
                case "double" -> DOUBLE;
                case "bit" -> BIT;
                case "enum", "set" -> ORDINAL;
                case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> BYTES;
                case "timestamp" -> TIMESTAMP;
                default -> throw new IllegalArgumentException("no Canal text form known for " + columnType);
            };
        }
    }

    /** A JSON number outside a string: an optional sign, digits, then a point or an exponent. */
    private static final java.util.regex.Pattern JSON_NUMBER = java.util.regex.Pattern.compile(
            "(?<=[\\[:,\\s]|^)-?\\d+(\\.\\d+([eE][-+]?\\d+)?|[eE][-+]?\\d+)(?=[\\],}\\s]|$)");

    /** A double MySQL printed, as Java prints it; a plain number Java prints the same way stays as it is. */
    private static String javaDouble(String mysqlText) {
        boolean plain = mysqlText.indexOf('e') < 0 && mysqlText.indexOf('E') < 0;
        double d = Double.parseDouble(mysqlText);
        double magnitude = Math.abs(d);
        if (plain && (magnitude == 0 || magnitude >= 1e-3 && magnitude < 1e7)) {
            return mysqlText;
        }
        return Double.toString(d);
    }

    private record Column(String name, String dataType, boolean unsigned, boolean mariaDbJson, Kind kind, int fsp) {

        String selectExpression() {
            return kind.select.formatted("`" + name + "`") + " AS `" + name + "`";
        }

        String render(String raw) {
            if (raw == null) {
                return null;
            }
            return kind.render.text(raw, fsp);
        }

        /**
         * Canal's sqlType: by type, except that unsigned integers widen when
         * the value does not fit the signed type (MEDIUMINT UNSIGNED never does), a NULL SET is BLOB, MariaDB's
         * JSON (a LONGTEXT whose DDL type is JSON) is BLOB and MySQL's JSON is VARCHAR (OTHER when NULL).
         */
        int sqlType(String value) {
            if (mariaDbJson) {
                return Types.BLOB;
            }
            return switch (dataType) {
                case "tinyint" -> unsignedAbove(value, 127) ? Types.SMALLINT : Types.TINYINT;
                case "smallint" -> unsignedAbove(value, Short.MAX_VALUE) ? Types.INTEGER : Types.SMALLINT;
                case "mediumint" -> Types.INTEGER;
                case "int" -> unsignedAbove(value, Integer.MAX_VALUE) ? Types.BIGINT : Types.INTEGER;
                case "bigint" -> unsignedAbove(value, Long.MAX_VALUE) ? Types.DECIMAL : Types.BIGINT;
                case "float" -> Types.REAL;
                case "double" -> Types.DOUBLE;
                case "decimal" -> Types.DECIMAL;
                case "bit" -> Types.BIT;
                case "year", "varchar" -> Types.VARCHAR;
                // Canal's sqlType of the JSON type is OTHER, which only a decoded value replaces with VARCHAR
                case "json" -> value == null ? Types.OTHER : Types.VARCHAR;
                case "date" -> Types.DATE;
                case "time" -> Types.TIME;
                case "datetime", "timestamp" -> Types.TIMESTAMP;
                case "char" -> Types.CHAR;
                case "enum" -> Types.INTEGER;
                case "set" -> value == null ? Types.BLOB : Types.BIT;
                case "tinytext", "text", "mediumtext", "longtext" -> Types.CLOB;
                case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> Types.BLOB;
                default -> throw new IllegalArgumentException("no Canal sqlType known for " + dataType);
            };
        }

        private boolean unsignedAbove(String value, long signedMax) {
            return unsigned && value != null && new BigInteger(value).compareTo(BigInteger.valueOf(signedMax)) > 0;
        }
    }

    private final String schema;
    private final String table;
    private final String key;
    private final List<Column> columns;

    private EveryTypeRows(String schema, String table, String key, List<Column> columns) {
        this.schema = schema;
        this.table = table;
        this.key = key;
        this.columns = columns;
    }

    /**
     * The table's columns in table order, from information_schema; {@code key} is its one-column primary key.
     * {@code mariaDbJsonFromDdl}: the server learnt the table from a MariaDB CREATE TABLE declaring JSON columns,
     * which Canal then types by that DDL (JSON: BLOB); learnt from the database, they are what SHOW CREATE TABLE
     * says, LONGTEXT.
     */
    static EveryTypeRows of(Connection c, boolean mariaDbJsonFromDdl, String schema, String table, String key)
            throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, DATETIME_PRECISION"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String dataType = rs.getString(2).toLowerCase(Locale.ROOT);
                    String columnType = rs.getString(3).toLowerCase(Locale.ROOT);
                    columns.add(new Column(name, dataType, columnType.contains("unsigned"),
                            mariaDbJsonFromDdl && dataType.equals("longtext") && isMariaDbJson(c, schema, table, name),
                            Kind.of(dataType, columnType), rs.getInt(4)));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new IllegalStateException("no columns found for " + schema + "." + table);
        }
        return new EveryTypeRows(schema, table, key, columns);
    }

    /** MariaDB's JSON type is LONGTEXT with the check constraint {@code json_valid(`column`)}. */
    private static boolean isMariaDbJson(Connection c, String schema, String table, String column) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM information_schema.CHECK_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ? AND CHECK_CLAUSE = ?")) {
            st.setString(1, schema);
            st.setString(2, table);
            st.setString(3, "json_valid(`" + column + "`)");
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    String table() {
        return table;
    }

    /** The rows with these keys, in the order of the keys, each as its cells in table order; a missing key fails. */
    Map<String, List<Cell>> read(Connection c, List<?> keys) throws SQLException {
        String select = columns.stream().map(Column::selectExpression).collect(Collectors.joining(", "));
        String in = keys.stream().map(k -> "?").collect(Collectors.joining(", "));
        Map<String, List<Cell>> rows = new LinkedHashMap<>();
        try (PreparedStatement st = c.prepareStatement("SELECT " + select + ", CAST(`" + key + "` AS CHAR) AS row_key FROM `"
                + schema + "`.`" + table + "` WHERE `" + key + "` IN (" + in + ")")) {
            for (int i = 0; i < keys.size(); i++) {
                st.setObject(i + 1, keys.get(i));
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    List<Cell> cells = new ArrayList<>(columns.size());
                    for (int i = 0; i < columns.size(); i++) {
                        Column column = columns.get(i);
                        String value = column.render(rs.getString(i + 1));
                        cells.add(new Cell(column.name(), value, column.sqlType(value), column.name().equals(key)));
                    }
                    rows.put(rs.getString("row_key"), cells);
                }
            }
        }
        Map<String, List<Cell>> ordered = new LinkedHashMap<>();
        for (Object k : keys) {
            List<Cell> cells = rows.get(String.valueOf(k));
            if (cells == null) {
                throw new IllegalStateException(table + " has no row " + key + "=" + k + " to read back");
            }
            ordered.put(String.valueOf(k), cells);
        }
        return ordered;
    }

    /**
     * TIMESTAMP(fsp) in the JVM zone as {@code yyyy-MM-dd HH:mm:ss} plus exactly fsp fraction digits; the zero
     * timestamp (epoch 0, which no real TIMESTAMP value can have) as zeros in the same shape.
     */
    private static String timestampText(BigDecimal epochSeconds, int fsp) {
        String fraction = fsp == 0 ? "" : "." + "0".repeat(fsp);
        if (epochSeconds.signum() == 0) {
            return "0000-00-00 00:00:00" + fraction;
        }
        BigDecimal nanos = epochSeconds.movePointRight(9);
        Instant instant = Instant.ofEpochSecond(0, 0).plusNanos(nanos.longValueExact());
        LocalDateTime local = LocalDateTime.ofInstant(instant, ZoneId.systemDefault());
        String pattern = "yyyy-MM-dd HH:mm:ss" + (fsp == 0 ? "" : "." + "S".repeat(fsp));
        return local.format(DateTimeFormatter.ofPattern(pattern));
    }
}
