package dev.canal.binlog.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.file.BinlogCorpus.DecodedRows;
import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.PartialJson;
import dev.canal.binlog.column.TemporalValue;
import dev.canal.binlog.column.TimeValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.GtidEvent;
import dev.canal.binlog.event.PreviousGtidsEvent;
import dev.canal.binlog.event.QueryEvent;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import dev.canal.binlog.event.UnknownEvent;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decoded values against the expectations the corpus states (MANIFEST.md, EXPECTED.md and *.expected.md: values
 * read back from the server that wrote the file, or asserted by the origin project's tests).
 */
class BinlogCorpusExpectedValuesTest {

    @FunctionalInterface
    interface Check {
        void verify(Path file) throws IOException;
    }

    static Stream<Arguments> expectations() {
        return Stream.of(
                expect("go-mysql/tcb-eval002c-bin.003320", "17 rows x 11 DECIMAL precisions as in the origin's table",
                        BinlogCorpusExpectedValuesTest::goMysqlDecimals),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_num: every integer width, FLOAT, DOUBLE,"
                        + " DECIMAL(65,30), BIT", file -> {
                    Object[] row = after(rowsOf(file, "cdc.t_num").get(0), 0);
                    assertThat(row).containsExactly(1L, -128L, -1L, -32768L, -1L, -8388608L, -1L, -2147483648L, -1L,
                            Long.MIN_VALUE, -1L, 1.5f, -2.25d, new BigDecimal("-12345678.91"),
                            new BigDecimal("12345678901234567890123456789012345.123456789012345678901234567890"),
                            new BigDecimal("99999"), new BigDecimal("-123456789.123456789"), 1L, 0x1555L, -1L, 1L);
                    TableMapEvent map = rowsOf(file, "cdc.t_num").get(0).tableMap();
                    assertThat(map.metadata().isUnsigned(2)).isTrue();
                    assertThat(map.metadata().isUnsigned(1)).isFalse();
                    assertThat(map.metadata().columnNames()).startsWith("id", "ti", "tiu");
                    assertThat(map.metadata().primaryKey()).containsExactly(0);
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_num UPDATE: before and after image",
                        file -> {
                    DecodedRows update = rowsOf(file, "cdc.t_num").get(1);
                    assertThat(update.rows().get(0).before()[13]).isEqualTo(new BigDecimal("0.00"));
                    assertThat(update.rows().get(0).after()[1]).isEqualTo(127L);
                    assertThat(update.rows().get(0).after()[13]).isEqualTo(new BigDecimal("0.01"));
                    assertThat(update.rows().get(0).after()[16]).isEqualTo(new BigDecimal("0.000000001"));
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_time: TIME/DATETIME/TIMESTAMP fsp 0-6,"
                        + " negative TIME, YEAR", file -> {
                    List<DecodedRows> t = rowsOf(file, "cdc.t_time");
                    assertThat(after(t.get(0), 0)).containsExactly(1L, "2024-02-29", "-838:59:59", "-12:34:56.789",
                            "838:59:58.999999", "9999-12-31 23:59:59", "2020-01-01 00:00:00.5",
                            "2021-06-15 12:30:45.123456", new TimestampValue(2147483647L, 0, 0),
                            new TimestampValue(946684800L, 1000, 3), new TimestampValue(1L, 1, 6), 2155);
                    assertThat(after(t.get(0), 1)).containsExactly(2L, "1000-01-01", "00:00:00", "00:00:00.000",
                            "-00:00:00.000001", "1000-01-01 00:00:00", "1000-01-01 00:00:00.0",
                            "1000-01-01 00:00:00.000000", new TimestampValue(1L, 0, 0),
                            new TimestampValue(1L, 0, 3), new TimestampValue(2147483647L, 999999, 6), 1901);
                    assertThat(t.get(1).rows().get(0).after()[3]).isInstanceOf(TimeValue.class).hasToString("01:02:03.004");
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_str: charsets, BINARY, BLOBs, ENUM, SET,"
                        + " column charsets", file -> {
                    DecodedRows str = rowsOf(file, "cdc.t_str").get(0);
                    Object[] r = after(str, 0);
                    assertThat(text(r[5])).isEqualTo("emoji 😀 日本語");
                    assertThat(hex(r[7])).isEqualTo("D6D0CEC4");
                    assertThat(hex(r[8])).isEqualTo("00610062");
                    assertThat(hex(r[9])).isEqualTo("00FC20AC");
                    assertThat(hex(r[10])).isEqualTo("00010203");
                    assertThat(((byte[]) r[13])).hasSize(1000);
                    assertThat(str.tableMap().metadata().charset(1)).isEqualTo(8);
                    assertThat(str.tableMap().metadata().enumValues().get(19)).containsExactly("a", "b", "c");
                    int e = str.tableMap().metadata().columnNames().indexOf("e");
                    int s2 = str.tableMap().metadata().columnNames().indexOf("s2");
                    assertThat(r[e]).isEqualTo(2);
                    assertThat(r[s2]).isEqualTo((1L << 0) | (1L << 8) | (1L << 16) | (1L << 19));
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_json: every JSON node type as MySQL"
                        + " prints it", file -> {
                    DecodedRows json = rowsOf(file, "cdc.t_json").get(0);
                    assertThat(json.rows()).extracting(row -> row.after()[1]).containsExactly(
                            "{\"a\": 1, \"b\": \"text\", \"c\": [1, 2.5, true, false, null], \"d\": {\"nested\": {\"deep\": \"x\"}}}",
                            "[]", "{}", "null", "true", "false", "-32768", "2147483647", "-9223372036854775808",
                            "18446744073709551615", "3.14159265358979",
                            "\"string with \\\"quotes\\\" and unicode: 日本 😀\"",
                            "{\"dec\": 123.456, \"date\": \"2012-03-18\", \"time\": \"11:30:45.123000\","
                                    + " \"datetime\": \"2012-03-18 11:30:45.654321\"}",
                            "[\"" + "long".repeat(100) + "\", 70000, -1, 65535, 65536]", null);
                    assertThat(after(rowsOf(file, "cdc.t_json").get(1), 0)[1])
                            .isEqualTo("{\"big\": \"" + "z".repeat(70000) + "\"}");
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "t_geo: SRID + WKB, geometry types",
                        file -> {
                    DecodedRows geo = rowsOf(file, "cdc.t_geo").get(0);
                    assertThat(hex(after(geo, 0)[2])).isEqualTo("E6100000010100000000000000005052C00000000000C04640");
                    assertThat(geo.tableMap().metadata().geometryTypes()[2]).isEqualTo(1);
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000002", "PARTIAL_UPDATE_ROWS: JSON diffs, MINIMAL"
                        + " image", file -> {
                    List<DecodedRows> pj = rowsOf(file, "cdc.t_pj");
                    assertThat(pj.get(1).rows().get(0).after()[1]).isEqualTo(new PartialJson(List.of(
                            new JsonDiff(JsonDiff.Operation.REPLACE, "$.a", "\"bulu\""))));
                    assertThat(pj.get(3).rows().get(0).after()[1]).isEqualTo(new PartialJson(List.of(
                            new JsonDiff(JsonDiff.Operation.REMOVE, "$.e", null))));
                    assertThat(pj.get(4).rows().get(0).after()[1]).isEqualTo(new PartialJson(List.of(
                            new JsonDiff(JsonDiff.Operation.INSERT, "$.c.new", "[1, \"x\"]"))));
                    DecodedRows minimal = pj.get(6);
                    assertThat(minimal.event().columnsBefore().stream()).containsExactly(0);
                    assertThat(minimal.event().columnsAfter().stream()).containsExactly(1);
                    assertThat(minimal.rows().get(0).after()).containsExactly(null, new PartialJson(List.of(
                            new JsonDiff(JsonDiff.Operation.REPLACE, "$.a", "\"minimal\""))), null, null);
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000003", "TRANSACTION_PAYLOAD: zstd, inner events",
                        file -> {
                    List<BinlogEvent> events = BinlogCorpus.events(file);
                    assertThat(events).filteredOn(e -> e instanceof TransactionPayloadEvent).hasSize(4);
                    assertThat(rowsOf(file, "cdc.t_cmp")).extracting(d -> d.event().header().typeName()).containsExactly(
                            "WRITE_ROWS_V2", "WRITE_ROWS_V2", "UPDATE_ROWS_V2", "PARTIAL_UPDATE_ROWS", "DELETE_ROWS_V2",
                            "WRITE_ROWS_V2");
                }),
                expect("generated-mysql-9.7.4-debian-sid/mysql97-bin.000005", "GTID_TAGGED", file -> assertThat(
                        BinlogCorpus.events(file)).filteredOn(e -> e.header().type() == EventType.GTID_TAGGED)
                        .extracting(e -> ((GtidEvent) e).gtid()).containsExactly(
                                "94d47226-ebec-11f1-9c9d-02fc00000001:tag_one:1",
                                "94d47226-ebec-11f1-9c9d-02fc00000001:tag_one:2")),
                expect("rust_mysql_common/binlog_transaction_with_GTID_TAG.000001", "tagged PREVIOUS_GTIDS and GTID",
                        file -> {
                    List<BinlogEvent> events = BinlogCorpus.events(file);
                    assertThat(events).filteredOn(e -> e instanceof PreviousGtidsEvent).extracting(
                            e -> ((PreviousGtidsEvent) e).gtidSet()).containsExactly(
                                    "55778904-0299-11f1-b1b8-4ef0c4956feb:1-13:mytag:1-2");
                    assertThat(events).filteredOn(e -> e instanceof GtidEvent).extracting(e -> ((GtidEvent) e).gtid())
                            .contains("55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3");
                }),
                expect("rust_mysql_common/binlog_transaction_previous_GTID_no_tag.000001", "untagged PREVIOUS_GTIDS",
                        file -> assertThat(BinlogCorpus.events(file)).filteredOn(e -> e instanceof PreviousGtidsEvent)
                                .extracting(e -> ((PreviousGtidsEvent) e).gtidSet())
                                .containsExactly("b9b88c66-0755-11f1-9899-4a9da94c4d71:1-2")),
                expect("rust_mysql_common/json-opaque.binlog", "opaque JSON scalars", file -> assertThat(
                        rowsOf(file, "foo.test")).extracting(d -> d.rows().get(0).after()[0]).containsExactly(
                                "{\"a\": \"base64:type15:VQ==\"}", "{\"b\": \"2012-03-18\"}",
                                "{\"c\": \"2012-03-18 11:30:45.000000\"}", "{\"c\": \"87:31:46.654321\"}",
                                // mysqlbinlog quotes opaque DECIMALs; the server's SELECT (and so we) print numbers
                                "{\"d\": 123.456}", "{\"e\": 9.00}", "{\"e\": [0, 1, true, false]}", "{\"e\": null}")),
                expect("rust_mysql_common/vector.binlog", "VECTOR values and dimensions", file -> {
                    DecodedRows foo = rowsOf(file, "dtb.foo").get(0);
                    assertThat(foo.rows().get(0).after()[1]).isEqualTo(new byte[] {(byte) 205, (byte) 204, (byte) 140,
                        63, (byte) 205, (byte) 204, 12, 64, 51, 51, 83, 64});
                    assertThat(foo.tableMap().metadata().vectorDimensions()[1]).isEqualTo(3);
                    DecodedRows bar = rowsOf(file, "dtb.bar").get(0);
                    assertThat(bar.tableMap().metadata().vectorDimensions()).containsExactly(-1, 2, -1, 4);
                }),
                expect("rust_mysql_common/mysql-enum-string-set.000001", "ENUM and SET hidden in STRING", file -> {
                    List<DecodedRows> t = rowsOf(file, "mysql.t");
                    assertThat(after(t.get(0), 0)[2]).isEqualTo(1);
                    assertThat(after(t.get(0), 0)[3]).isEqualTo(0b101L);
                    assertThat(t.get(1).rows().get(0).after()[2]).isEqualTo(2);
                    assertThat(t.get(1).rows().get(0).after()[3]).isEqualTo(0b1010L);
                    assertThat(text(t.get(1).rows().get(0).after()[0])).isEqualTo("field1");
                }),
                expect("rust_mysql_common/mysql_type_bit.000001", "BIT", file -> assertThat(
                        after(rowsOf(file, "mysql.foo").get(0), 0)).containsExactly(0b100L, "foo".getBytes(), 0b100000L)),
                expect("rust_mysql_common/time_issue.000001", "negative TIME2 beyond 99 hours", file -> assertThat(
                        rowsOf(file, "noria.t").get(0).rows().get(0).after()[0]).isInstanceOf(TimeValue.class)
                        .hasToString("-507:48:27")),
                expect("rust_mysql_common/minimal_row_metadata.000001", "MINIMAL metadata: signedness, charset",
                        file -> {
                    DecodedRows t = rowsOf(file, "noria.t1").get(0);
                    assertThat(t.tableMap().metadata().isUnsigned(4)).isTrue();
                    assertThat(t.rows().get(0).after()[4]).isEqualTo((long) (int) 3230202323L);
                    assertThat(t.tableMap().metadata().charset(2)).isEqualTo(255);
                }),
                expect("rust_mysql_common/mariadb-bin.000001", "MariaDB 10.5 FULL metadata", file -> {
                    TableMapEvent map = rowsOf(file, "toddy_test.outbox").get(0).tableMap();
                    assertThat(map.metadata().columnNames()).containsExactly("id", "topic", "event_type", "event",
                            "created");
                    assertThat(map.metadata().columnCharsets()).containsExactly(-1, 45, 45, 63, -1);
                    assertThat(map.metadata().primaryKey()).containsExactly(0);
                }),
                expect("rust-mysql-binlog/bin-log.000001", "GTID and DECIMAL(10,5)", file -> {
                    assertThat(BinlogCorpus.events(file)).filteredOn(e -> e instanceof GtidEvent)
                            .extracting(e -> ((GtidEvent) e).gtid())
                            .contains("87cee3a4-6b31-11e7-bdfd-0d98d6698870:14918");
                    Object[] row = after(rowsOf(file, "bltest.foo").get(0), 0);
                    assertThat(row[0]).isEqualTo(1L);
                    assertThat(row[1]).isEqualTo(new BigDecimal("0.10000"));
                }),
                expect("mysql-binlog-connector-java/mysql-bin.compressed", "5 events, payload with 4 inside", file -> {
                    List<BinlogEvent> top = topLevel(file);
                    assertThat(top).hasSize(5);
                    assertThat(((TransactionPayloadEvent) top.get(3)).events()).extracting(e -> e.header().typeName())
                            .containsExactly("QUERY", "TABLE_MAP", "UPDATE_ROWS_V2", "XID");
                }),
                expect("mysql-binlog-connector-java/mysql-bin.checksum-none", "191 events", file -> assertThat(
                        topLevel(file)).hasSize(191)),
                expect("mysql-binlog-connector-java/mysql-bin.checksum-crc32", "303 events", file -> assertThat(
                        topLevel(file)).hasSize(303)),
                expect("mysql-binlog-connector-java/mysql-bin.sakila.gz", "1462 events, gzip", file -> assertThat(
                        topLevel(file)).hasSize(1462)),
                expect("mysql-binlog-connector-java/mysql-bin.aurora-padding", "unknown type 100 skipped by length",
                        file -> {
                    List<BinlogEvent> top = topLevel(file);
                    assertThat(top.get(3)).isInstanceOf(UnknownEvent.class);
                    assertThat(top.get(3).header().type()).isEqualTo(100);
                    assertThat(((QueryEvent) top.get(4)).sql()).isEqualTo("BEGIN");
                }),
                expect("apecloud-mysql-binlog-connector-rust/mysql-bin.000057", "8 events", file -> assertThat(
                        topLevel(file)).hasSize(8)),
                expect("apecloud-mysql-binlog-connector-rust/mysql-bin.000080", "37 events", file -> assertThat(
                        topLevel(file)).hasSize(37)),
                expect("mariadb-test-data-10.11.19/std_data/mdev35643_mysql_80_binlog.000001", "100-row payload,"
                        + " partial JSON REPLACE", file -> {
                    List<DecodedRows> t1 = rowsOf(file, "test.t1");
                    assertThat(t1).hasSize(105);
                    assertThat(after(t1.get(4), 0)).containsExactly(1000L, 0L,
                            ("--0--" + "/".repeat(100) + "--").getBytes(StandardCharsets.UTF_8));
                    DecodedRows t2 = rowsOf(file, "test.t2").get(0);
                    assertThat(t2.rows().get(0).after()[1]).isEqualTo(new PartialJson(List.of(new JsonDiff(
                            JsonDiff.Operation.REPLACE, "$.b", "\"" + "oOo".repeat(50) + "\""))));
                }),
                expect("generated-mysql-5.5.9-mxj/mysql-bin.000001", "MySQL 5.5 old temporal types, zero dates, 2-byte"
                        + " ENUM, 3-byte SET, MEDIUMBLOB", file -> {
                    assertThat(after(rowsOf(file, "cdc_types.t_time").get(0), 2)).containsExactly(3L, "0000-00-00",
                            "12:34:56", "0000-00-00 00:00:00", null, 0);
                    Object[] str = after(rowsOf(file, "cdc_types.t_str").get(0), 0);
                    assertThat(str[15]).isEqualTo(260);
                    assertThat(str[17]).isEqualTo((1L << 0) | (1L << 8) | (1L << 16) | (1L << 19));
                    assertThat((byte[]) str[10]).hasSize(70000);
                }));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("expectations")
    void decodedValuesMatchTheCorpusExpectations(String file, String what, Check check) throws IOException {
        Path corpus = BinlogCorpus.require();
        check.verify(corpus.resolve(file));
    }

    private static Arguments expect(String file, String what, Check check) {
        return Arguments.of(file, what, check);
    }

    private static void goMysqlDecimals(Path file) throws IOException {
        List<String> table = Files.readAllLines(file.resolveSibling(file.getFileName() + ".expected.md")).stream()
                .filter(l -> l.matches("\\| \\d+ \\|.*")).toList();
        List<DecodedRows> rows = rowsOf(file, "test.decodedecimal");
        assertThat(table).hasSize(17);
        for (int r = 0; r < table.size(); r++) {
            String[] cells = table.get(r).substring(1).split("\\|");
            Object[] after = rows.get(0).rows().get(r).after();
            assertThat(after[0]).isEqualTo(Long.parseLong(cells[0].trim()));
            for (int c = 1; c <= 11; c++) {
                assertThat(((BigDecimal) after[c]).toPlainString()).as("row %d column %d", r + 1, c)
                        .isEqualTo(cells[c].trim());
            }
        }
    }

    private static List<DecodedRows> rowsOf(Path file, String table) throws IOException {
        List<DecodedRows> rows = BinlogCorpus.rows(file).stream().filter(d -> d.table().equals(table)).toList();
        assertThat(rows).as("rows events of %s in %s", table, file).isNotEmpty();
        return rows;
    }

    /** The after image, DATE/TIME/DATETIME values as their text (what a client sees of them). */
    private static Object[] after(DecodedRows rows, int index) {
        return Stream.of(rows.rows().get(index).after()).map(v -> v instanceof TemporalValue t ? t.toString() : v)
                .toArray();
    }

    private static List<BinlogEvent> topLevel(Path file) throws IOException {
        List<BinlogEvent> events = new java.util.ArrayList<>();
        try (BinlogFileReader reader = BinlogFileReader.open(file)) {
            BinlogEvent e;
            while ((e = reader.next()) != null) {
                events.add(e);
            }
        }
        return events;
    }

    private static String text(Object bytes) {
        return new String((byte[]) bytes, StandardCharsets.UTF_8);
    }

    private static String hex(Object bytes) {
        return HexFormat.of().withUpperCase().formatHex((byte[]) bytes);
    }
}
