package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.binlog.event.RowChange;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.sink.filter.ColumnFilter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The hand-written RowChange encoding must be byte for byte what the generated builders produce for the same
 * columns: clients parse it with Canal's generated classes, and the builders are the definition of the format.
 */
class RowChangeWriterTest {

    private static final ColumnRenderer RENDERER = new ColumnRenderer(ZoneOffset.UTC);
    /** Just over the size from which the writer shares values instead of copying them. */
    private static final int BIG = RowChangeWriter.SHARED_VALUE_BYTES + 7;

    /** One column per value kind the renderer handles without a time zone or a temporal representation. */
    private static final TableMeta TABLE = new TableMeta("shop", "orders", List.of(
            new ColumnMeta("id", "bigint(20) unsigned", "bigint", true, true, null, 0),
            new ColumnMeta("qty", "tinyint(3) unsigned", "tinyint", false, true, null, 0),
            new ColumnMeta("delta", "int(11)", "int", false, false, null, 0),
            new ColumnMeta("price", "decimal(12,2)", "decimal", false, false, null, 0),
            new ColumnMeta("ratio", "double", "double", false, false, null, 0),
            new ColumnMeta("flags", "bit(8)", "bit", false, false, null, 0),
            new ColumnMeta("名前", "varchar(64)", "varchar", false, false, StandardCharsets.UTF_8, 0),
            new ColumnMeta("note", "text", "text", false, false, StandardCharsets.UTF_8, 0),
            new ColumnMeta("raw", "binary(4)", "binary", false, false, null, 4),
            new ColumnMeta("state", "enum('a','b')", "enum", false, false, StandardCharsets.UTF_8, 0),
            new ColumnMeta("doc", "json", "json", false, false, StandardCharsets.UTF_8, 0)));

    @RepeatedTest(20)
    void randomRowsEncodeExactlyAsTheGeneratedBuildersDo() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        EventType type = List.of(EventType.INSERT, EventType.UPDATE, EventType.DELETE).get(random.nextInt(3));
        BitSet before = type == EventType.INSERT ? null : randomImage(random);
        BitSet after = type == EventType.DELETE ? null : randomImage(random);
        List<RowChange> rows = new ArrayList<>();
        for (int r = 1 + random.nextInt(30); r > 0; r--) {
            Object[] beforeValues = before == null ? null : values(random, before);
            Object[] afterValues = after == null ? null
                    : beforeValues != null && random.nextBoolean() ? partlyChanged(random, beforeValues, after)
                    : values(random, after);
            rows.add(new RowChange(beforeValues, afterValues));
        }
        ColumnFilter.Selection selection = random.nextInt(4) == 0
                ? new ColumnFilter.Selection(Set.of("ID", "NOTE", "名前"), random.nextBoolean())
                : ColumnFilter.Selection.ALL;
        long tableId = random.nextLong() & Long.MAX_VALUE;

        ByteString written = new RowChangeWriter(RENDERER, TABLE, ColumnHeaders.of(TABLE), selection).write(tableId, type, before, after, rows);

        assertThat(written).as("seed %d", seed)
                .isEqualTo(builtByGeneratedCode(tableId, type, before, after, rows, selection).toByteString());
    }

    @Test
    void anUpdateMarksOnlyChangedColumnsAndColumnsMissingFromTheBeforeImage() throws Exception {
        BitSet before = bits(0, 2, 6);
        BitSet after = bits(0, 2, 6, 7);
        Object[] old = new Object[TABLE.columnCount()];
        old[0] = 1L;
        old[2] = 5L;
        Object[] changed = old.clone();
        changed[6] = "x".getBytes(StandardCharsets.UTF_8); // NULL before, a value after
        changed[7] = "new".getBytes(StandardCharsets.UTF_8); // absent from the before image
        ByteString written = new RowChangeWriter(RENDERER, TABLE, ColumnHeaders.of(TABLE), ColumnFilter.Selection.ALL)
                .write(7, EventType.UPDATE, before, after, List.of(new RowChange(old, changed)));

        CanalEntry.RowData row = CanalEntry.RowChange.parseFrom(written).getRowDatas(0);

        assertThat(row.getBeforeColumnsList()).extracting(CanalEntry.Column::getUpdated).containsOnly(false);
        assertThat(row.getAfterColumnsList()).extracting(CanalEntry.Column::getName, CanalEntry.Column::getUpdated)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("id", false),
                        org.assertj.core.groups.Tuple.tuple("delta", false),
                        org.assertj.core.groups.Tuple.tuple("名前", true),
                        org.assertj.core.groups.Tuple.tuple("note", true));
    }

    private static BitSet bits(int... indexes) {
        BitSet set = new BitSet();
        for (int i : indexes) {
            set.set(i);
        }
        return set;
    }

    /** A full image, or a MINIMAL-like subset; sometimes with padding bits past the last column. */
    private static BitSet randomImage(Random random) {
        BitSet image = new BitSet();
        for (int i = 0; i < TABLE.columnCount(); i++) {
            if (random.nextInt(4) != 0) {
                image.set(i);
            }
        }
        if (random.nextBoolean()) {
            image.set(TABLE.columnCount() + random.nextInt(5));
        }
        return image;
    }

    private static Object[] values(Random random, BitSet present) {
        Object[] values = new Object[TABLE.columnCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = present.get(i) && random.nextInt(6) != 0 ? value(random, i) : null;
        }
        return values;
    }

    private static Object[] partlyChanged(Random random, Object[] before, BitSet after) {
        Object[] values = before.clone();
        for (int i = 0; i < values.length; i++) {
            if (!after.get(i)) {
                values[i] = null;
            } else if (random.nextInt(3) == 0) {
                values[i] = random.nextInt(5) == 0 ? null : value(random, i);
            } else if (values[i] instanceof byte[] same && random.nextBoolean()) {
                values[i] = same.clone(); // the same value in another array
            }
        }
        return values;
    }

    private static Object value(Random random, int column) {
        return switch (TABLE.column(column).dataType()) {
            case "bigint", "int", "tinyint", "bit" -> random.nextBoolean() ? random.nextLong() : (long) random.nextInt(3);
            case "decimal" -> BigDecimal.valueOf(random.nextLong(), 2);
            case "double" -> random.nextDouble() * 1e6;
            case "varchar", "text", "json" -> text(random).getBytes(StandardCharsets.UTF_8);
            case "binary" -> randomBytes(random, random.nextInt(8) == 0 ? BIG : random.nextInt(5));
            case "enum" -> random.nextInt(3);
            default -> throw new IllegalArgumentException(TABLE.column(column).dataType());
        };
    }

    private static String text(Random random) {
        String[] parts = {"", "a", "héllo", "日本語", "😀", "x".repeat(200)};
        String text = parts[random.nextInt(parts.length)] + parts[random.nextInt(parts.length)];
        // now and then a value the writer shares instead of copying (RowChangeWriter.SHARED_VALUE_BYTES)
        return random.nextInt(10) == 0 ? text + "ü".repeat(BIG / 2) : text;
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The reference: the same RowChange built with the generated message builders. */
    private static CanalEntry.RowChange builtByGeneratedCode(long tableId, EventType type, BitSet before,
            BitSet after, List<RowChange> rows, ColumnFilter.Selection selection) {
        CanalEntry.RowChange.Builder change = CanalEntry.RowChange.newBuilder()
                .setTableId(tableId).setEventType(type).setIsDdl(false);
        for (RowChange row : rows) {
            CanalEntry.RowData.Builder data = CanalEntry.RowData.newBuilder();
            List<CanalEntry.Column> beforeColumns = row.before() == null ? null
                    : builtColumns(before, row.before(), false, null, selection);
            if (beforeColumns != null) {
                data.addAllBeforeColumns(beforeColumns);
            }
            if (row.after() != null) {
                data.addAllAfterColumns(builtColumns(after, row.after(), true, beforeColumns, selection));
            }
            change.addRowDatas(data);
        }
        return change.build();
    }

    private static List<CanalEntry.Column> builtColumns(BitSet present, Object[] values, boolean afterImage,
            List<CanalEntry.Column> before, ColumnFilter.Selection selection) {
        List<CanalEntry.Column> out = new ArrayList<>();
        for (int i = present.nextSetBit(0); i >= 0 && i < TABLE.columnCount(); i = present.nextSetBit(i + 1)) {
            ColumnMeta column = TABLE.column(i);
            if (!selection.keepsAll() && !selection.keeps(column.name())) {
                continue;
            }
            CanalEntry.Column.Builder c = CanalEntry.Column.newBuilder()
                    .setIndex(i).setName(column.name()).setIsKey(column.key()).setMysqlType(column.mysqlType());
            RENDERER.render(column, values[i], c);
            int index = i;
            boolean unchanged = before != null && before.stream().anyMatch(b -> b.getIndex() == index
                    && b.getIsNull() == c.getIsNull() && b.getValue().equals(c.getValue()));
            c.setUpdated(afterImage && !unchanged);
            out.add(c.build());
        }
        return out;
    }
}
