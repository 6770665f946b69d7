package dev.canal.binlog.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.PartialJson;
import dev.canal.binlog.column.TemporalValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.MariaGtidEvent;
import dev.canal.binlog.event.QueryEvent;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import dev.canal.binlog.event.XaPrepareEvent;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Values written with SQL into a real server (MariaDB from the fixture, or Oracle MySQL named by
 * CANAL_TEST_MYSQL_URL), read back by decoding the server's binlog FILE from disk with {@link BinlogFileReader}
 * and {@link RowsDecoder}: every type the server has, at its edges, must come back exactly.
 */
@ExtendWith(MySqlServerExtension.class)
class BinlogFileDecodingIT {

    /** One column type, the SQL literals written (one row each) and the value each must decode to. */
    private record Case(String name, String type, List<String> literals, List<Object> expected,
            Predicate<MySqlServer> supported) {

        Case(String name, String type, List<String> literals, List<Object> expected) {
            this(name, type, literals, expected, db -> true);
        }
    }

    private static final int MOVED = 1000;
    private static final Predicate<MySqlServer> MYSQL = db -> !db.isMariaDb();
    private static final Predicate<MySqlServer> MARIADB = MySqlServer::isMariaDb;

    private static List<Case> cases() {
        String enum260 = IntStream.rangeClosed(1, 260).mapToObj(i -> String.format("'v%03d'", i))
                .collect(Collectors.joining(","));
        String set20 = IntStream.rangeClosed(1, 20).mapToObj(i -> "'s" + i + "'").collect(Collectors.joining(","));
        return List.of(
                new Case("tiny", "TINYINT", List.of("-128", "127", "0", "NULL"), List.of(-128L, 127L, 0L, NULL)),
                new Case("tiny_u", "TINYINT UNSIGNED", List.of("255", "128"), List.of(-1L, -128L)),
                new Case("small", "SMALLINT", List.of("-32768", "32767"), List.of(-32768L, 32767L)),
                new Case("small_u", "SMALLINT UNSIGNED", List.of("65535"), List.of(-1L)),
                new Case("medium", "MEDIUMINT", List.of("-8388608", "8388607"), List.of(-8388608L, 8388607L)),
                new Case("medium_u", "MEDIUMINT UNSIGNED", List.of("16777215"), List.of(-1L)),
                new Case("int", "INT", List.of("-2147483648", "2147483647"), List.of(-2147483648L, 2147483647L)),
                new Case("int_u", "INT UNSIGNED", List.of("4294967295", "3230202323"), List.of(-1L, (long) (int) 3230202323L)),
                new Case("big", "BIGINT", List.of("-9223372036854775808", "9223372036854775807"),
                        List.of(Long.MIN_VALUE, Long.MAX_VALUE)),
                new Case("big_u", "BIGINT UNSIGNED", List.of("18446744073709551615", "9223372036854775808"),
                        List.of(-1L, Long.MIN_VALUE)),
                new Case("float", "FLOAT", List.of("1.5", "-2.25", "0", "3.4e38"),
                        List.of(1.5f, -2.25f, 0f, 3.4e38f)),
                new Case("double", "DOUBLE", List.of("1.7976931348623157E308", "-4.9E-324", "0.333333333", "1e22"),
                        List.of(Double.MAX_VALUE, -Double.MIN_VALUE, 0.333333333d, 1e22d)),
                new Case("dec10_2", "DECIMAL(10,2)", List.of("1.10", "-12345678.91", "0", "99999999.99", "1"),
                        List.of(dec("1.10"), dec("-12345678.91"), dec("0.00"), dec("99999999.99"), dec("1.00"))),
                new Case("dec65_30", "DECIMAL(65,30)",
                        List.of("12345678901234567890123456789012345.123456789012345678901234567890",
                                "-12345678901234567890123456789012345.123456789012345678901234567890", "0"),
                        List.of(dec("12345678901234567890123456789012345.123456789012345678901234567890"),
                                dec("-12345678901234567890123456789012345.123456789012345678901234567890"),
                                dec("0.000000000000000000000000000000"))),
                new Case("dec5_0", "DECIMAL(5,0)", List.of("99999", "-99999"), List.of(dec("99999"), dec("-99999"))),
                new Case("dec18_9", "DECIMAL(18,9)", List.of("-123456789.123456789", "0.000000001"),
                        List.of(dec("-123456789.123456789"), dec("0.000000001"))),
                new Case("bit1", "BIT(1)", List.of("b'1'", "b'0'"), List.of(1L, 0L)),
                new Case("bit13", "BIT(13)", List.of("b'1010101010101'"), List.of(5461L)),
                new Case("bit64", "BIT(64)", List.of("0xFFFFFFFFFFFFFFFF", "1"), List.of(-1L, 1L)),
                new Case("year", "YEAR", List.of("1901", "2155", "0"), List.of(1901, 2155, 0)),
                new Case("date", "DATE", List.of("'1000-01-01'", "'9999-12-31'", "'0000-00-00'", "'2024-00-00'",
                        "'1582-10-10'"), List.of("1000-01-01", "9999-12-31", "0000-00-00", "2024-00-00", "1582-10-10")),
                new Case("time0", "TIME", List.of("'-838:59:59'", "'838:59:59'", "'00:00:00'", "'-00:00:01'"),
                        List.of("-838:59:59", "838:59:59", "00:00:00", "-00:00:01")),
                new Case("time1", "TIME(1)", List.of("'-00:00:00.1'", "'12:00:00.5'"),
                        List.of("-00:00:00.1", "12:00:00.5")),
                new Case("time3", "TIME(3)", List.of("'-12:34:56.789'", "'00:00:00.000'"),
                        List.of("-12:34:56.789", "00:00:00.000")),
                new Case("time6", "TIME(6)", List.of("'-00:00:00.000001'", "'838:59:58.999999'", "'-12:34:56.78'"),
                        List.of("-00:00:00.000001", "838:59:58.999999", "-12:34:56.780000")),
                new Case("datetime0", "DATETIME", List.of("'9999-12-31 23:59:59'", "'0000-00-00 00:00:00'",
                        "'2024-02-00 10:00:00'"), List.of("9999-12-31 23:59:59", "0000-00-00 00:00:00",
                        "2024-02-00 10:00:00")),
                new Case("datetime1", "DATETIME(1)", List.of("'2020-01-01 00:00:00.5'"),
                        List.of("2020-01-01 00:00:00.5")),
                new Case("datetime6", "DATETIME(6)", List.of("'2021-06-15 12:30:45.123456'",
                        "'0000-00-00 00:00:00.000000'", "'2024-01-01 00:00:00.1'"), List.of(
                        "2021-06-15 12:30:45.123456", "0000-00-00 00:00:00.000000", "2024-01-01 00:00:00.100000")),
                new Case("ts0", "TIMESTAMP NULL", List.of("'2038-01-19 03:14:07'", "'1970-01-01 00:00:01'",
                        "'0000-00-00 00:00:00'", "NULL"), List.of(new TimestampValue(2147483647L, 0, 0),
                        new TimestampValue(1L, 0, 0), new TimestampValue(0L, 0, 0), NULL)),
                new Case("ts3", "TIMESTAMP(3) NULL", List.of("'2000-01-01 00:00:00.001'"),
                        List.of(new TimestampValue(946684800L, 1000, 3))),
                new Case("ts6", "TIMESTAMP(6) NULL", List.of("'1970-01-01 00:00:01.000001'",
                        "'2038-01-19 03:14:07.999999'"), List.of(new TimestampValue(1L, 1, 6),
                        new TimestampValue(2147483647L, 999999, 6))),
                new Case("char", "CHAR(10) CHARACTER SET utf8mb4", List.of("'abc'", "''", "'😀x'"),
                        List.of(utf8("abc"), utf8(""), utf8("😀x"))),
                new Case("varchar", "VARCHAR(100) CHARACTER SET utf8mb4", List.of("'emoji 😀 日本語'", "''",
                        "'trailing  '"), List.of(utf8("emoji 😀 日本語"), utf8(""), utf8("trailing  "))),
                new Case("varchar_latin1", "VARCHAR(300) CHARACTER SET latin1", List.of("REPEAT('x', 300)",
                        "'café'"), List.of(utf8("x".repeat(300)), new byte[] {'c', 'a', 'f', (byte) 0xE9})),
                new Case("varchar_gbk", "VARCHAR(20) CHARACTER SET gbk", List.of("'中文'"),
                        List.of(hex("D6D0CEC4"))),
                new Case("binary", "BINARY(8)", List.of("X'0001020300000000'", "X'41'"),
                        List.of(hex("00010203"), hex("41"))),
                new Case("varbinary", "VARBINARY(10)", List.of("X'DEADBEEF'", "X''"),
                        List.of(hex("DEADBEEF"), new byte[0])),
                new Case("tinyblob", "TINYBLOB", List.of("X'00FF'"), List.of(hex("00FF"))),
                new Case("blob", "BLOB", List.of("REPEAT('b', 1000)"), List.of(utf8("b".repeat(1000)))),
                new Case("mediumblob", "MEDIUMBLOB", List.of("REPEAT('m', 70000)"), List.of(utf8("m".repeat(70000)))),
                new Case("longblob", "LONGBLOB", List.of("REPEAT('L', 20)"), List.of(utf8("L".repeat(20)))),
                new Case("tinytext", "TINYTEXT", List.of("'tiny'"), List.of(utf8("tiny"))),
                new Case("text", "TEXT CHARACTER SET utf8mb4", List.of("'text ✓'"), List.of(utf8("text ✓"))),
                new Case("longtext", "LONGTEXT", List.of("REPEAT('z', 1048576)"), List.of(utf8("z".repeat(1048576)))),
                new Case("enum", "ENUM('a','b','c d','ü','x,y')", List.of("'a'", "'x,y'", "''"), List.of(1, 5, 0)),
                new Case("enum260", "ENUM(" + enum260 + ")", List.of("'v260'", "'v001'"), List.of(260, 1)),
                new Case("set", "SET('r','g','b')", List.of("'r,g,b'", "''", "'g'"), List.of(7L, 0L, 2L)),
                new Case("set20", "SET(" + set20 + ")", List.of("'s1,s9,s17,s20'"),
                        List.of((1L) | (1L << 8) | (1L << 16) | (1L << 19))),
                new Case("geometry", "GEOMETRY", List.of("ST_GeomFromText('POINT(1 2)')"),
                        List.of(hex("000000000101000000000000000000F03F0000000000000040"))),
                new Case("point_srid", "POINT", List.of("ST_GeomFromText('POINT(1 2)', 4326)"),
                        List.of(hex("E6100000" + "01" + "01000000" + "0000000000000040" + "000000000000F03F")), MYSQL),
                new Case("maria_json", "JSON", List.of("'{\"a\": [1, \"ü\"]}'"), List.of(utf8("{\"a\": [1, \"ü\"]}")),
                        MARIADB),
                new Case("inet6", "INET6", List.of("'::1'"), List.of(hex("00000000000000000000000000000001")),
                        MARIADB),
                new Case("inet4", "INET4", List.of("'10.0.0.1'"), List.of(hex("0A000001")), MARIADB),
                // stored like BINARY(16): the binlog drops trailing 0x00 bytes
                new Case("uuid", "UUID", List.of("'123e4567-e89b-12d3-a456-426655440000'"),
                        List.of(hex("123E4567E89B12D3A45642665544")), MARIADB),
                new Case("varchar_compressed", "VARCHAR(500) COMPRESSED", List.of("REPEAT('compress me ', 30)"),
                        List.of(utf8("compress me ".repeat(30))), MARIADB),
                new Case("blob_compressed", "BLOB COMPRESSED", List.of("REPEAT('abc', 1000)", "'x'"),
                        List.of(utf8("abc".repeat(1000)), utf8("x")), MARIADB),
                new Case("vector", "VECTOR(3)", List.of("STRING_TO_VECTOR('[1.5,-2,0]')"),
                        List.of(hex("0000C03F000000C000000000")), db -> !db.isMariaDb() && major(db) >= 9));
    }

    private static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "SQL NULL";
        }
    };

    @Test
    void everyTypeWrittenWithSqlDecodesExactlyFromTheBinlogFile(MySqlServer db) throws Exception {
        String schema = "it_binlog_types";
        db.recreateDatabase(schema);
        List<Case> cases = cases().stream().filter(c -> c.supported().test(db)).toList();
        List<Path> files = writeThenReadBinlogs(db, c -> {
            for (Case k : cases) {
                exec(c, "CREATE TABLE " + schema + ".t_" + k.name() + " (id INT PRIMARY KEY, v " + k.type() + ")");
                for (int i = 0; i < k.literals().size(); i++) {
                    exec(c, "INSERT INTO " + schema + ".t_" + k.name() + " VALUES (" + i + ", " + k.literals().get(i)
                            + ")");
                }
                // before images too: an UPDATE that keeps v, then a DELETE
                exec(c, "UPDATE " + schema + ".t_" + k.name() + " SET id = id + " + MOVED + " ORDER BY id DESC");
                exec(c, "DELETE FROM " + schema + ".t_" + k.name() + " ORDER BY id");
            }
        });
        Map<String, List<Decoded>> rows = decodeRows(files, schema);
        SoftAssertions soft = new SoftAssertions();
        for (Case k : cases) {
            List<Decoded> decoded = rows.getOrDefault("t_" + k.name(), List.of());
            int n = k.literals().size();
            soft.assertThat(decoded).as("rows of %s (insert, update, delete)", k.type()).hasSize(3 * n);
            if (decoded.size() != 3 * n) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                Object expected = k.expected().get(i) == NULL ? null : k.expected().get(i);
                String what = k.type() + " written as " + abbreviate(k.literals().get(i));
                Object[] inserted = shown(decoded.get(i).row().after());
                soft.assertThat(inserted[0]).isEqualTo((long) i);
                soft.assertThat(inserted[1]).as("after image of %s", what).isEqualTo(expected);
                // the UPDATE runs in descending id order, the DELETE in ascending order
                RowChange updated = decoded.get(n + (n - 1 - i)).row();
                soft.assertThat(shown(updated.before())).as("update of %s", what).containsExactly((long) i, expected);
                soft.assertThat(shown(updated.after())).as("update of %s", what)
                        .containsExactly((long) i + MOVED, expected);
                RowChange deleted = decoded.get(2 * n + i).row();
                soft.assertThat(shown(deleted.before())).as("delete of %s", what)
                        .containsExactly((long) i + MOVED, expected);
                soft.assertThat(deleted.after()).isNull();
            }
            if (!decoded.isEmpty() && !db.isMariaDb()) {
                TableMapEvent map = decoded.get(0).table();
                soft.assertThat(map.metadata().isUnsigned(1)).as("UNSIGNED of %s from FULL metadata", k.type())
                        .isEqualTo(k.type().contains("UNSIGNED"));
                soft.assertThat(map.metadata().columnNames()).containsExactly("id", "v");
            }
        }
        soft.assertAll();
    }

    @Test
    void updateAndDeleteCarryBeforeImagesAndMinimalOrNoblobImagesOnlyTheirColumns(MySqlServer db) throws Exception {
        String schema = "it_binlog_images";
        db.recreateDatabase(schema);
        List<Path> files = writeThenReadBinlogs(db, c -> {
            exec(c, "CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, a INT, b TEXT)");
            exec(c, "INSERT INTO " + schema + ".t VALUES (1, 10, 'blob one'), (2, 20, 'blob two')");
            exec(c, "UPDATE " + schema + ".t SET a = 11 WHERE id = 1");
            exec(c, "SET SESSION binlog_row_image = 'MINIMAL'");
            exec(c, "UPDATE " + schema + ".t SET a = 12 WHERE id = 1");
            exec(c, "DELETE FROM " + schema + ".t WHERE id = 2");
            exec(c, "SET SESSION binlog_row_image = 'NOBLOB'");
            exec(c, "UPDATE " + schema + ".t SET a = 13 WHERE id = 1");
            exec(c, "SET SESSION binlog_row_image = 'FULL'");
        });
        List<Decoded> rows = decodeRows(files, schema).get("t");
        assertThat(rows).hasSize(6);
        byte[] one = utf8("blob one");
        assertThat(rows.get(2).row().before()).containsExactly(1L, 10L, one);
        assertThat(rows.get(2).row().after()).containsExactly(1L, 11L, one);
        // MINIMAL: the key in the before image, the changed column in the after image
        assertThat(bits(rows.get(3).event().columnsBefore())).containsExactly(0);
        assertThat(bits(rows.get(3).event().columnsAfter())).containsExactly(1);
        assertThat(rows.get(3).row().before()).containsExactly(1L, null, null);
        assertThat(rows.get(3).row().after()).containsExactly(null, 12L, null);
        assertThat(bits(rows.get(4).event().columnsBefore())).containsExactly(0);
        assertThat(rows.get(4).row().after()).isNull();
        // NOBLOB: every column but the unchanged TEXT
        assertThat(bits(rows.get(5).event().columnsBefore())).containsExactly(0, 1);
        assertThat(rows.get(5).row().after()).containsExactly(1L, 13L, null);
    }

    @Test
    void jsonDecodesToTheServersDocumentsIncludingPartialUpdates(MySqlServer db) throws Exception {
        assumeTrue(!db.isMariaDb(), "MariaDB stores JSON as LONGTEXT (covered as bytes): binary JSON is MySQL only");
        String schema = "it_binlog_json";
        db.recreateDatabase(schema);
        List<String> docs = List.of("'{\"a\": 1, \"b\": [true, false, null, 2.5, \"s\"], \"c\": {\"d\": {}}}'",
                "'[]'", "'{}'", "'null'", "'-32768'", "'32767'", "'2147483647'", "'-2147483649'",
                "'18446744073709551615'", "'9223372036854775807'", "'3.14159265358979'", "'1e22'", "'1.5e-20'",
                "'-0.0'", "'100.0'", "'\"quote \\\\\" backslash \\\\\\\\ tab \\\\t newline \\\\n ctl \\\\u0001 ü 😀\"'",
                "JSON_ARRAY(CAST(1 AS DOUBLE), 1e15, 123456789012345678e0, 0.0001e0, 1.5e-15)",
                "JSON_OBJECT('dec', CAST(123.456 AS DECIMAL(10,3)), 'dec0', CAST(9.00 AS DECIMAL(5,2)),"
                        + " 'date', CAST('2012-03-18' AS DATE), 'time', CAST('-11:30:45.123' AS TIME(3)),"
                        + " 'datetime', CAST('2012-03-18 11:30:45.654321' AS DATETIME(6)),"
                        + " 'ts', TIMESTAMP'2012-03-18 11:30:45')",
                "JSON_ARRAY(REPEAT('long', 20000), 70000, -1, 65535, 65536, JSON_OBJECT('k', REPEAT('v', 70000)))",
                "JSON_OBJECT('nested', JSON_ARRAY(JSON_ARRAY(JSON_ARRAY(JSON_OBJECT('deep', TRUE)))))");
        List<String> serverText = new ArrayList<>();
        List<Path> files = writeThenReadBinlogs(db, c -> {
            exec(c, "CREATE TABLE " + schema + ".j (id INT PRIMARY KEY, v JSON)");
            for (int i = 0; i < docs.size(); i++) {
                exec(c, "INSERT INTO " + schema + ".j VALUES (" + i + ", " + docs.get(i) + ")");
            }
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT CAST(v AS CHAR) FROM " + schema + ".j ORDER BY id")) {
                while (rs.next()) {
                    serverText.add(rs.getString(1));
                }
            }
            exec(c, "SET SESSION binlog_row_value_options = 'PARTIAL_JSON'");
            exec(c, "UPDATE " + schema + ".j SET v = JSON_SET(v, '$.a', 'two', '$.c.d.e', JSON_ARRAY(1)) WHERE id = 0");
            exec(c, "UPDATE " + schema + ".j SET v = JSON_REMOVE(v, '$.b[1]') WHERE id = 0");
            // the partial-JSON bits count every JSON column of the table, present in the image or not
            exec(c, "CREATE TABLE " + schema + ".two (id INT PRIMARY KEY, j1 JSON, j2 JSON)");
            exec(c, "INSERT INTO " + schema + ".two VALUES (1, JSON_OBJECT('a', REPEAT('x', 500)),"
                    + " JSON_OBJECT('b', 2, 'c', REPEAT('y', 500)))");
            exec(c, "SET SESSION binlog_row_image = 'MINIMAL'");
            exec(c, "UPDATE " + schema + ".two SET j2 = JSON_SET(j2, '$.b', 3) WHERE id = 1");
            exec(c, "SET SESSION binlog_row_image = 'FULL'");
            exec(c, "SET SESSION binlog_row_value_options = ''");
            exec(c, "SET SESSION binlog_transaction_compression = ON");
            exec(c, "INSERT INTO " + schema + ".j VALUES (100, JSON_OBJECT('compressed', REPEAT('c', 5000)))");
            exec(c, "SET SESSION binlog_transaction_compression = OFF");
        });
        List<Decoded> rows = decodeRows(files, schema).get("j");
        // the server's documents, numbers aside: doubles are printed as Canal prints them (Java's notation)
        assertThat(rows.subList(0, docs.size())).extracting(d -> plainNumbers((String) d.row().after()[1]))
                .containsExactlyElementsOf(serverText.stream().map(BinlogFileDecodingIT::plainNumbers).toList());
        assertThat(rows.get(11).row().after()[1]).isEqualTo("1.0E22");
        assertThat(rows.get(12).row().after()[1]).isEqualTo("1.5E-20");
        assertThat(rows.get(16).row().after()[1]).isEqualTo(
                "[1.0, " + 1e15 + ", " + 123456789012345678e0 + ", " + 0.0001e0 + ", " + 1.5e-15 + "]");
        Decoded set = rows.get(docs.size());
        assertThat(set.event().kind()).isEqualTo(RowsEvent.Kind.PARTIAL_UPDATE);
        assertThat(set.row().after()[1]).isEqualTo(new PartialJson(List.of(
                new JsonDiff(JsonDiff.Operation.REPLACE, "$.a", "\"two\""),
                new JsonDiff(JsonDiff.Operation.INSERT, "$.c.d.e", "[1]"))));
        assertThat(rows.get(docs.size() + 1).row().after()[1]).isEqualTo(new PartialJson(List.of(
                new JsonDiff(JsonDiff.Operation.REMOVE, "$.b[1]", null))));
        Decoded minimal = decodeRows(files, schema).get("two").get(1);
        assertThat(minimal.row().after()).containsExactly(null, null, new PartialJson(List.of(
                new JsonDiff(JsonDiff.Operation.REPLACE, "$.b", "3"))));
        Decoded compressed = rows.get(docs.size() + 2);
        assertThat(compressed.row().after()[1]).isEqualTo("{\"compressed\": \"" + "c".repeat(5000) + "\"}");
        assertThat(compressed.inPayload()).isTrue();
    }

    /** Every number of a JSON text in plain notation without trailing zeros, so that spellings compare equal. */
    private static String plainNumbers(String json) {
        return java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?").matcher(json).replaceAll(
                m -> new java.math.BigDecimal(m.group()).stripTrailingZeros().toPlainString());
    }

    @Test
    void tableMapCarriesFullOptionalMetadata(MySqlServer db) throws Exception {
        String schema = "it_binlog_metadata";
        db.recreateDatabase(schema);
        String previous = db.variable("binlog_row_metadata");
        db.execute("SET GLOBAL binlog_row_metadata = 'FULL'");
        List<Path> files;
        try {
            files = writeThenReadBinlogs(db, c -> {
                exec(c, "CREATE TABLE " + schema + ".m (a INT UNSIGNED NOT NULL, b VARCHAR(10) CHARACTER SET latin1,"
                        + " c ENUM('x','y') CHARACTER SET utf8mb4, d SET('p','q'), e TINYINT, g GEOMETRY,"
                        + " PRIMARY KEY (e, a))");
                exec(c, "INSERT INTO " + schema + ".m VALUES (4294967295, 'b', 'y', 'p,q', -1, NULL)");
            });
        } finally {
            db.execute("SET GLOBAL binlog_row_metadata = '" + previous + "'");
        }
        TableMapEvent map = decodeRows(files, schema).get("m").get(0).table();
        assertThat(map.metadata().columnNames()).containsExactly("a", "b", "c", "d", "e", "g");
        assertThat(map.metadata().isUnsigned(0)).isTrue();
        assertThat(map.metadata().isUnsigned(4)).isFalse();
        assertThat(map.metadata().charset(1)).isEqualTo(8);
        assertThat(map.metadata().enumValues().get(2)).containsExactly("x", "y");
        assertThat(map.metadata().setValues().get(3)).containsExactly("p", "q");
        assertThat(map.metadata().primaryKey()).containsExactly(4, 0);
        assertThat(map.metadata().geometryTypes()[5]).isZero();
    }

    @Test
    void xaTransactionsAreDecoded(MySqlServer db) throws Exception {
        String schema = "it_binlog_xa";
        db.recreateDatabase(schema);
        List<Path> files = writeThenReadBinlogs(db, c -> {
            exec(c, "CREATE TABLE " + schema + ".t (id INT PRIMARY KEY)");
            exec(c, "XA START 'xa-it', 'bq', 7");
            exec(c, "INSERT INTO " + schema + ".t VALUES (1)");
            exec(c, "XA END 'xa-it', 'bq', 7");
            exec(c, "XA PREPARE 'xa-it', 'bq', 7");
            exec(c, "XA COMMIT 'xa-it', 'bq', 7");
        });
        List<BinlogEvent> events = new ArrayList<>();
        for (Path f : files) {
            events.addAll(BinlogCorpus.events(f));
        }
        if (db.isMariaDb()) {
            assertThat(events).filteredOn(e -> e instanceof MariaGtidEvent g && g.xid() != null)
                    .extracting(e -> ((MariaGtidEvent) e).xid().toSql()).contains("X'78612d6974',X'6271',7");
        } else {
            assertThat(events).filteredOn(e -> e instanceof XaPrepareEvent)
                    .extracting(e -> ((XaPrepareEvent) e).xid().toSql()).contains("X'78612d6974',X'6271',7");
        }
    }

    @Test
    void mariaDbCompressedEventsInflate(MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb(), "log_bin_compress is MariaDB's");
        String schema = "it_binlog_compress";
        db.recreateDatabase(schema);
        String big = "compressed row ".repeat(100);
        List<Path> files = writeThenReadBinlogs(db, c -> {
            exec(c, "CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v TEXT)");
            exec(c, "SET GLOBAL log_bin_compress = ON");
            try {
                exec(c, "CREATE TABLE " + schema + ".long_ddl (id INT) COMMENT '" + "c".repeat(300) + "'");
                exec(c, "INSERT INTO " + schema + ".t VALUES (1, '" + big + "')");
                exec(c, "UPDATE " + schema + ".t SET v = CONCAT(v, '!') WHERE id = 1 /* " + "pad ".repeat(80) + "*/");
            } finally {
                exec(c, "SET GLOBAL log_bin_compress = OFF");
            }
        });
        List<Decoded> rows = decodeRows(files, schema).get("t");
        assertThat(rows).extracting(d -> d.event().header().type()).containsExactly(
                EventType.MARIA_WRITE_ROWS_COMPRESSED_V1, EventType.MARIA_UPDATE_ROWS_COMPRESSED_V1);
        assertThat(rows.get(0).row().after()).containsExactly(1L, utf8(big));
        assertThat(rows.get(1).row().after()).containsExactly(1L, utf8(big + "!"));
        List<BinlogEvent> events = new ArrayList<>();
        for (Path f : files) {
            events.addAll(BinlogCorpus.events(f));
        }
        assertThat(events).filteredOn(e -> e.header().type() == EventType.MARIA_QUERY_COMPRESSED)
                .extracting(e -> ((QueryEvent) e).sql()).containsExactly("CREATE TABLE " + schema
                        + ".long_ddl (id INT) COMMENT '" + "c".repeat(300) + "'");
    }

    // ---- plumbing ----

    private record Decoded(TableMapEvent table, RowsEvent event, RowChange row, boolean inPayload) {
    }

    @FunctionalInterface
    private interface Writes {
        void run(Connection c) throws SQLException;
    }

    /**
     * Runs the writes on one session (UTC, no strict mode so zero dates are allowed), rotates the binlog so the
     * files are complete, and returns the binlog files that hold the writes, in order.
     */
    private static List<Path> writeThenReadBinlogs(MySqlServer db, Writes writes) throws SQLException {
        Path dir = Path.of(db.variable("log_bin_basename")).getParent();
        String first = db.currentBinlogPosition().file();
        try (Connection c = db.adminConnection()) {
            exec(c, "SET NAMES utf8mb4");
            exec(c, "SET SESSION time_zone = '+00:00'");
            exec(c, "SET SESSION sql_mode = ''");
            writes.run(c);
        }
        db.execute("FLUSH BINARY LOGS");
        String last = db.currentBinlogPosition().file();
        List<Path> files = new ArrayList<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                String name = rs.getString(1);
                if (name.compareTo(first) >= 0 && name.compareTo(last) < 0) {
                    files.add(dir.resolve(name));
                }
            }
        }
        return files;
    }

    /** Rows events of one schema decoded against their table maps, by table name, in binlog order. */
    /** A row image with DATE/TIME/DATETIME values as their text (what a client sees of them). */
    private static Object[] shown(Object[] image) {
        return Stream.of(image).map(v -> v instanceof TemporalValue t ? t.toString() : v).toArray();
    }

    private static Map<String, List<Decoded>> decodeRows(List<Path> files, String schema) throws IOException {
        Map<String, List<Decoded>> byTable = new HashMap<>();
        for (Path file : files) {
            Map<Long, TableMapEvent> maps = new HashMap<>();
            try (BinlogFileReader reader = BinlogFileReader.open(file)) {
                BinlogEvent e;
                while ((e = reader.next()) != null) {
                    List<BinlogEvent> group = e instanceof TransactionPayloadEvent p ? p.events() : List.of(e);
                    for (BinlogEvent inner : group) {
                        if (inner instanceof TableMapEvent t) {
                            maps.put(t.tableId(), t);
                        } else if (inner instanceof RowsEvent r && maps.containsKey(r.tableId())
                                && maps.get(r.tableId()).schema().equals(schema)) {
                            TableMapEvent t = maps.get(r.tableId());
                            for (RowChange row : RowsDecoder.decode(r, t)) {
                                byTable.computeIfAbsent(t.table(), k -> new ArrayList<>())
                                        .add(new Decoded(t, r, row, group.size() > 1 || e != inner));
                            }
                        }
                    }
                }
            }
        }
        return byTable;
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static int major(MySqlServer db) {
        return Integer.parseInt(db.version().split("\\.")[0]);
    }

    private static List<Integer> bits(BitSet b) {
        return b.stream().boxed().toList();
    }

    private static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
