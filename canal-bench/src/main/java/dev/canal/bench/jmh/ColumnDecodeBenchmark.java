package dev.canal.bench.jmh;

import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.binlog.column.ColumnDecoder;
import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.protocol.CanalEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link ColumnDecoder#decode} per column type: {@value #VALUES} values of one type laid out as a row image
 * stores them (the workload table's types, with its metadata), decoded one after another. Reports ns per value.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ColumnDecodeBenchmark {

    static final int VALUES = 1000;

    @Param({"LONGLONG", "LONG", "TINY", "DOUBLE", "NEWDECIMAL", "DATETIME2", "TIMESTAMP2", "DATE", "TIME2", "VARCHAR",
        "BLOB"})
    public String type;

    private final ColumnRenderer renderer = new ColumnRenderer(ZoneOffset.UTC);
    private final CanalEntry.Column.Builder column = CanalEntry.Column.newBuilder();
    private int typeCode;
    private int meta;
    private byte[] image;
    private ColumnMeta columnMeta;

    @Setup
    public void encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < VALUES; i++) {
            switch (type) {
                case "LONGLONG" -> little(out, i * 1_000_003L, 8);
                case "LONG" -> little(out, i * 7919L, 4);
                case "TINY" -> little(out, i % 256 - 128, 1);
                case "DOUBLE" -> little(out, Double.doubleToLongBits(i + 0.25), 8);
                case "NEWDECIMAL" -> {
                    // DECIMAL(12,2): 1 leading digit in 1 byte, 9 digits in 4 bytes, 2 fraction digits in 1 byte;
                    // the sign bit of the first byte is flipped for positive values
                    out.write(0x80);
                    big(out, i % 100_000, 4);
                    out.write(i % 100);
                }
                case "DATETIME2" -> {
                    // DATETIME(3): 5 bytes big-endian offset by 0x8000000000, then 2 bytes of (micros / 100)
                    long ym = 2024 * 13 + 1 + i % 12;
                    long packed = ym << 22 | (long) (1 + i % 28) << 17 | (long) (i % 24) << 12 | (long) (i % 60) << 6
                            | i % 60;
                    big(out, packed + 0x8000000000L, 5);
                    big(out, i % 1000 * 10, 2);
                }
                case "TIMESTAMP2" -> big(out, 1_717_200_000L + i, 4);
                case "DATE" -> little(out, (1 + i % 28) | (1 + i % 12) << 5 | 2000 << 9, 3);
                // TIME(0): 3 bytes big-endian hms offset by 0x800000, every other value negative
                case "TIME2" -> big(out, 0x800000L + (i % 2 == 0 ? 1 : -1)
                        * ((long) (i % 839) << 12 | (long) (i % 60) << 6 | i % 60), 3);
                case "VARCHAR" -> lengthPrefixed(out, "name-" + i, 1);
                case "BLOB" -> lengthPrefixed(out, "body " + i + ": a short text column as an application keeps", 2);
                default -> throw new IllegalArgumentException(type);
            }
        }
        image = out.toByteArray();
        typeCode = switch (type) {
            case "LONGLONG" -> ColumnType.LONGLONG;
            case "LONG" -> ColumnType.LONG;
            case "TINY" -> ColumnType.TINY;
            case "DOUBLE" -> ColumnType.DOUBLE;
            case "NEWDECIMAL" -> ColumnType.NEWDECIMAL;
            case "DATETIME2" -> ColumnType.DATETIME2;
            case "TIMESTAMP2" -> ColumnType.TIMESTAMP2;
            case "DATE" -> ColumnType.DATE;
            case "TIME2" -> ColumnType.TIME2;
            case "VARCHAR" -> ColumnType.VARCHAR;
            default -> ColumnType.BLOB;
        };
        String dataType = switch (type) {
            case "LONGLONG" -> "bigint";
            case "LONG" -> "int";
            case "TINY" -> "tinyint";
            case "DOUBLE" -> "double";
            case "NEWDECIMAL" -> "decimal";
            case "DATETIME2" -> "datetime";
            case "TIMESTAMP2" -> "timestamp";
            case "DATE" -> "date";
            case "TIME2" -> "time";
            case "VARCHAR" -> "varchar";
            default -> "text";
        };
        columnMeta = new ColumnMeta("c", dataType, dataType, false, false, StandardCharsets.UTF_8, 0);
        meta = switch (type) {
            case "NEWDECIMAL" -> 12 << 8 | 2;
            case "DATETIME2" -> 3;
            case "VARCHAR" -> 255; // VARCHAR(64) in a 4-byte charset is 256: 255 keeps the 1-byte length here
            case "BLOB" -> 2; // TEXT: 2-byte length
            case "DOUBLE" -> 8;
            default -> 0;
        };
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public void decode(Blackhole bh) {
        LittleEndianCursor cursor = new LittleEndianCursor(image);
        for (int i = 0; i < VALUES; i++) {
            bh.consume(ColumnDecoder.decode(typeCode, meta, cursor));
        }
    }

    /**
     * Decoding plus {@link ColumnRenderer#render} into a column builder, as the entries path does: DATE/TIME/DATETIME
     * values become text only here, TIMESTAMP in a time zone (UTC), DECIMAL as plain text, text with its charset.
     */
    @Benchmark
    @OperationsPerInvocation(VALUES)
    public void decodeAndRender(Blackhole bh) {
        LittleEndianCursor cursor = new LittleEndianCursor(image);
        for (int i = 0; i < VALUES; i++) {
            renderer.render(columnMeta, ColumnDecoder.decode(typeCode, meta, cursor), column);
            bh.consume(column.getValue());
        }
    }

    private static void little(ByteArrayOutputStream out, long value, int bytes) {
        for (int b = 0; b < bytes; b++) {
            out.write((int) (value >>> (8 * b)));
        }
    }

    private static void big(ByteArrayOutputStream out, long value, int bytes) {
        for (int b = bytes - 1; b >= 0; b--) {
            out.write((int) (value >>> (8 * b)));
        }
    }

    private static void lengthPrefixed(ByteArrayOutputStream out, String text, int lengthBytes) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        little(out, bytes.length, lengthBytes);
        out.writeBytes(bytes);
    }
}
