package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.parse.SourceFlavour;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.binlog.column.DateValue;
import dev.canal.binlog.column.DatetimeValue;
import dev.canal.binlog.column.TimeValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.protocol.CanalEntry;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Value texts and sqlTypes as Canal emits them, plus our deliberate fixes. */
class ColumnRendererTest {

    private final ColumnRenderer renderer = new ColumnRenderer(ZoneId.of("UTC"));

    private static ColumnMeta col(String dataType, boolean unsigned) {
        return new ColumnMeta("c", dataType, dataType, false, unsigned, StandardCharsets.UTF_8, 0);
    }

    private static ColumnMeta text(String dataType, Charset charset) {
        return new ColumnMeta("c", dataType, dataType, false, false, charset, 0);
    }

    private static Arguments c(ColumnMeta meta, Object value, String text, int sqlType) {
        return Arguments.of(meta.dataType() + (meta.unsigned() ? " unsigned" : "") + " " + text, meta, value, text, sqlType);
    }

    private static TimestampValue ts(long epochSeconds, int micros, int fsp) {
        return new TimestampValue(epochSeconds, micros, fsp);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                c(col("tinyint", false), -128L, "-128", Types.TINYINT),
                c(col("tinyint", true), 127L, "127", Types.TINYINT),
                c(col("tinyint", true), -128L, "128", Types.SMALLINT),
                c(col("tinyint", true), -1L, "255", Types.SMALLINT),
                c(col("smallint", true), -1L, "65535", Types.INTEGER),
                c(col("mediumint", true), -1L, "16777215", Types.INTEGER),
                c(col("int", true), -2147483648L, "2147483648", Types.BIGINT),
                c(col("int", false), -2147483648L, "-2147483648", Types.INTEGER),
                c(col("bigint", true), -1L, "18446744073709551615", Types.DECIMAL),
                c(col("bigint", true), Long.MIN_VALUE, "9223372036854775808", Types.DECIMAL),
                c(col("bigint", false), Long.MIN_VALUE, "-9223372036854775808", Types.BIGINT),
                c(col("float", false), 3.40282E38f, "3.40282E38", Types.REAL),
                c(col("float", false), 123456.79f, "123456.79", Types.REAL),
                c(col("double", false), 1.0E22, "1.0E22", Types.DOUBLE),
                c(col("double", false), 4.9E-324, "4.9E-324", Types.DOUBLE),
                c(col("decimal", false), new BigDecimal("1.000"), "1.000", Types.DECIMAL),
                c(col("decimal", false), new BigDecimal("-12.500000000"), "-12.500000000", Types.DECIMAL),
                c(col("bit", false), -1L, "18446744073709551615", Types.BIT),
                c(col("bit", false), 8191L, "8191", Types.BIT),
                c(col("year", false), 0, "0000", Types.VARCHAR),
                c(col("year", false), 2155, "2155", Types.VARCHAR),
                c(col("date", false), new DateValue(0, 0, 0), "0000-00-00", Types.DATE),
                c(col("date", false), new DateValue(2024, 2, 0), "2024-02-00", Types.DATE),
                c(col("time", false), new TimeValue(true, 838, 59, 59, 0, 0), "-838:59:59", Types.TIME),
                c(col("time", false), new TimeValue(false, 1, 2, 3, 4000, 4), "01:02:03.0040", Types.TIME),
                c(col("datetime", false), new DatetimeValue(9999, 12, 31, 23, 59, 59, 999999, 6),
                        "9999-12-31 23:59:59.999999", Types.TIMESTAMP),
                c(col("datetime", false), new DatetimeValue(0, 0, 0, 0, 0, 0, 0, 1), "0000-00-00 00:00:00.0",
                        Types.TIMESTAMP),
                c(col("timestamp", false), ts(0, 0, 0), "0000-00-00 00:00:00", Types.TIMESTAMP),
                c(col("timestamp", false), ts(0, 0, 6), "0000-00-00 00:00:00.000000", Types.TIMESTAMP),
                c(col("timestamp", false), ts(1_700_000_000L, 120_000, 3), "2023-11-14 22:13:20.120", Types.TIMESTAMP),
                c(col("enum", false), 5, "5", Types.INTEGER),
                c(col("set", false), 769L, "769", Types.BIT),
                c(text("varchar", StandardCharsets.UTF_8), "😀 中文".getBytes(StandardCharsets.UTF_8), "😀 中文", Types.VARCHAR),
                c(text("varchar", Charset.forName("windows-1252")), "Grüße".getBytes(Charset.forName("windows-1252")), "Grüße", Types.VARCHAR),
                c(text("char", Charset.forName("GBK")), "中文".getBytes(Charset.forName("GBK")), "中文", Types.CHAR),
                c(text("longtext", StandardCharsets.UTF_8), "ü".getBytes(StandardCharsets.UTF_8), "ü", Types.CLOB),
                c(col("json", false), "{\"a\": [1, 2.5]}", "{\"a\": [1, 2.5]}", Types.VARCHAR),
                c(col("varbinary", false), new byte[] {0, (byte) 0xff, 0x7f}, "\u0000\u00ff\u007f", Types.BLOB),
                c(col("longblob", false), new byte[] {(byte) 0x80}, "\u0080", Types.BLOB),
                c(col("point", false), new byte[] {1, 2}, "\u0001\u0002", Types.BLOB),
                c(col("inet6", false), new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, "::1", Types.CHAR),
                c(col("inet6", false), new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1},
                        "::ffff:10.0.0.1", Types.CHAR),
                c(col("inet4", false), new byte[] {10, 0, 0, 1}, "10.0.0.1", Types.CHAR),
                // a version 1 UUID is stored with its groups reversed
                c(col("uuid", false), HexFormat.of().parseHex("426614174000a45612d3e89b123e4567"),
                        "123e4567-e89b-12d3-a456-426614174000", Types.CHAR),
                c(col("uuid", false), HexFormat.of().parseHex("018f6d3c7a1b7c3d8e4f0123456789ab"),
                        "018f6d3c-7a1b-7c3d-8e4f-0123456789ab", Types.CHAR));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rendersValueTextAndSqlTypeAsCanal(String name, ColumnMeta meta, Object value, String text, int sqlType) {
        CanalEntry.Column.Builder column = CanalEntry.Column.newBuilder();
        renderer.render(meta, value, column);
        assertThat(column.getValue()).isEqualTo(text);
        assertThat(column.getSqlType()).isEqualTo(sqlType);
        assertThat(column.hasIsNull()).isTrue();
        assertThat(column.getIsNull()).isFalse();
    }

    @Test
    void binaryColumnsGetTheirTrailingZeroBytesBack() {
        ColumnMeta binary8 = new ColumnMeta("b", "binary(8)", "binary", false, false, null, 8);
        CanalEntry.Column.Builder column = CanalEntry.Column.newBuilder();
        renderer.render(binary8, new byte[] {0, 1, 2, 3}, column);
        assertThat(column.getValue()).isEqualTo("\u0000\u0001\u0002\u0003\u0000\u0000\u0000\u0000");
    }

    @Test
    void nullIsFlaggedWithoutValueAndSetReportsBlob() {
        CanalEntry.Column.Builder column = CanalEntry.Column.newBuilder();
        renderer.render(col("set", false), null, column);
        assertThat(column.getIsNull()).isTrue();
        assertThat(column.hasValue()).isFalse();
        assertThat(column.getSqlType()).isEqualTo(Types.BLOB);

        CanalEntry.Column.Builder intColumn = CanalEntry.Column.newBuilder();
        renderer.render(col("int", true), null, intColumn);
        assertThat(intColumn.getSqlType()).isEqualTo(Types.INTEGER);
    }

    @Test
    void utf8TextGivesTheBytesThatDecodingAndEncodingAgainWouldGive() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        byte[][] samples = {"héllo 中文 😀".getBytes(StandardCharsets.UTF_8), {(byte) 0xC3}, {(byte) 0xED, (byte) 0xA0,
                (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xC0, (byte) 0x80}, {}};
        List<byte[]> inputs = new ArrayList<>(Arrays.asList(samples));
        for (int i = 0; i < 500; i++) {
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            inputs.add(bytes);
        }
        for (byte[] input : inputs) {
            byte[][] got = new byte[1][];
            renderer.render(text("varchar", StandardCharsets.UTF_8), input.clone(), new ColumnRenderer.ValueSink() {
                @Override
                public void text(int sqlType, String text) {
                    got[0] = text.getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public void utf8(int sqlType, byte[] text) {
                    got[0] = text;
                }

                @Override
                public void nullValue(int sqlType) {
                    throw new AssertionError("not null");
                }
            });
            assertThat(got[0]).as("seed %d, input %s", seed, HexFormat.of().formatHex(input))
                    .isEqualTo(new String(input, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void mariadbJsonIsReportedAsBlobLikeCanalDoesAndMysqlJsonAsVarcharOrOtherWhenNull() {
        ColumnRenderer mariadb = new ColumnRenderer(ZoneId.of("UTC"), SourceFlavour.MARIADB);
        ColumnMeta json = text("json", StandardCharsets.UTF_8);
        CanalEntry.Column.Builder value = CanalEntry.Column.newBuilder();
        CanalEntry.Column.Builder nullValue = CanalEntry.Column.newBuilder();
        CanalEntry.Column.Builder mysqlNull = CanalEntry.Column.newBuilder();

        mariadb.render(json, "{\"k\": \"ü\"}".getBytes(StandardCharsets.UTF_8), value);
        mariadb.render(json, null, nullValue);
        renderer.render(json, null, mysqlNull);

        assertThat(value.getSqlType()).isEqualTo(Types.BLOB);
        assertThat(value.getValue()).as("the text stays UTF-8, unlike Canal's").isEqualTo("{\"k\": \"ü\"}");
        assertThat(nullValue.getSqlType()).isEqualTo(Types.BLOB);
        assertThat(mysqlNull.getSqlType()).as("Canal's sqlType of the JSON type, which only a value replaces")
                .isEqualTo(Types.OTHER);
    }

    @Test
    void timestampsAreRenderedInTheConfiguredZone() {
        ColumnRenderer shanghai = new ColumnRenderer(ZoneId.of("Asia/Shanghai"));
        CanalEntry.Column.Builder column = CanalEntry.Column.newBuilder();
        shanghai.render(col("timestamp", false), ts(0, 1, 6), column);
        assertThat(column.getValue()).isEqualTo("1970-01-01 08:00:00.000001");
    }
}
