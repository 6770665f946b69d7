package dev.canal.parse.convert;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.binlog.event.RowChange;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.sink.filter.ColumnFilter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Writes the {@code RowChange} of a rows event straight into its protobuf bytes, the same bytes the generated
 * builders would produce (fields in number order, the same fields present), without a {@code Column} and
 * {@code RowData} message per column and row. Building those messages and measuring every column's name and
 * type text again for each row was most of the parser's CPU (docs/performance.md, "Where the time goes").
 *
 * <p>Each column is encoded as soon as it is rendered, its size known from its value. The rows' columns collect
 * in the thread's scratch buffer; once all are there, each RowData's length is known, and the RowChange is written
 * into an array of exactly its size. Values of {@link #SHARED_VALUE_BYTES} or more (blobs, long texts) are not
 * copied at all: the RowChange becomes a rope that shares them, so that a 16 MiB value is not held three times
 * while its entry is built (docs/reliability.md, scenario 9).
 *
 * <p>One instance per rows event, used by one thread: it keeps the last value {@link ColumnRenderer} gave it.
 */
final class RowChangeWriter {

    // field numbers of EntryProtocol.proto
    private static final int ROW_CHANGE_TABLE_ID = 1;
    private static final int ROW_CHANGE_EVENT_TYPE = 2;
    private static final int ROW_CHANGE_IS_DDL = 10;
    private static final int ROW_CHANGE_ROW_DATAS = 12;
    private static final int ROW_DATA_BEFORE_COLUMNS = 1;
    private static final int ROW_DATA_AFTER_COLUMNS = 2;
    /** Tag and value of the updated and isNull fields: two bytes each. */
    private static final int BOOL_FIELD_SIZE = 2;
    private static final int NULL = -1;
    /**
     * Each thread's scratch buffer, reused from event to event (allocating and zeroing one per event cost more than
     * the encoding); one grown beyond {@link #SCRATCH_KEPT} by an event of big rows is dropped after it.
     */
    private static final ThreadLocal<ProtoBytes> SCRATCH = ThreadLocal.withInitial(() -> new ProtoBytes(64 * 1024));
    private static final int SCRATCH_KEPT = 1 << 20;
    /** Values this long or longer are not copied into the scratch buffer: the RowChange shares them (a rope). */
    static final int SHARED_VALUE_BYTES = 64 * 1024;

    private final ColumnRenderer renderer;
    private final TableMeta meta;
    private final ColumnHeaders headers;
    private final ColumnFilter.Selection selection;
    private final Rendered rendered = new Rendered();
    /** The encoded columns of every row, each row's before image then its after image. */
    private ProtoBytes columns;
    /** This event's shared values, in order, each with the scratch position it belongs at. */
    private final List<SharedValue> shared = new ArrayList<>();
    /**
     * The current row's before-image values as ranges of {@link #columns} (start, and length or {@link #NULL}), or,
     * for a shared value, the value itself.
     */
    private final int[] beforeStart;
    private final int[] beforeLength;
    private final byte[][] beforeShared;
    private final boolean[] inBefore;

    /** A value left out of the scratch buffer, to be put at position {@code at} of it. */
    private record SharedValue(int at, byte[] bytes) {
    }

    /** @param headers {@code meta}'s {@link ColumnHeaders} */
    RowChangeWriter(ColumnRenderer renderer, TableMeta meta, ColumnHeaders headers, ColumnFilter.Selection selection) {
        this.renderer = renderer;
        this.meta = meta;
        this.headers = headers;
        this.selection = selection;
        beforeStart = new int[meta.columnCount()];
        beforeLength = new int[meta.columnCount()];
        beforeShared = new byte[meta.columnCount()][];
        inBefore = new boolean[meta.columnCount()];
    }

    /** The encoded RowChange of these rows; {@code before}/{@code after} say which columns each image holds. */
    ByteString write(long tableId, EventType type, BitSet before, BitSet after, List<RowChange> rows) {
        int[] rowEnds = new int[rows.size()];
        columns = SCRATCH.get();
        columns.clear();
        for (int r = 0; r < rowEnds.length; r++) {
            RowChange change = rows.get(r);
            Arrays.fill(inBefore, false);
            if (change.before() != null) {
                image(ROW_DATA_BEFORE_COLUMNS, before, change.before(), false, false);
            }
            if (change.after() != null) {
                image(ROW_DATA_AFTER_COLUMNS, after, change.after(), true, change.before() != null);
            }
            rowEnds[r] = columns.length();
        }
        int[] rowSizes = new int[rowEnds.length];
        int flatSize = 1 + CodedOutputStream.computeInt64SizeNoTag(tableId)
                + 1 + CodedOutputStream.computeInt32SizeNoTag(type.getNumber()) + BOOL_FIELD_SIZE;
        for (int r = 0, start = 0, s = 0; r < rowEnds.length; start = rowEnds[r++]) {
            rowSizes[r] = rowEnds[r] - start;
            for (; s < shared.size() && shared.get(s).at() < rowEnds[r]; s++) {
                rowSizes[r] += shared.get(s).bytes().length;
            }
            flatSize += 1 + CodedOutputStream.computeUInt32SizeNoTag(rowSizes[r]) + rowEnds[r] - start;
        }
        // without shared values (the usual case) one array of exactly the RowChange's size
        List<ByteString> parts = new ArrayList<>(1 + 2 * shared.size());
        ProtoBytes out = new ProtoBytes(flatSize);
        out.tag(ROW_CHANGE_TABLE_ID, WireFormat.WIRETYPE_VARINT);
        out.int64(tableId);
        out.tag(ROW_CHANGE_EVENT_TYPE, WireFormat.WIRETYPE_VARINT);
        out.int64(type.getNumber());
        out.tag(ROW_CHANGE_IS_DDL, WireFormat.WIRETYPE_VARINT);
        out.uint32(0);
        for (int r = 0, start = 0, s = 0; r < rowEnds.length; start = rowEnds[r++]) {
            out.tag(ROW_CHANGE_ROW_DATAS, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.uint32(rowSizes[r]);
            for (; s < shared.size() && shared.get(s).at() < rowEnds[r]; s++) {
                SharedValue value = shared.get(s);
                out.append(columns.array(), start, value.at() - start);
                start = value.at();
                parts.add(UnsafeByteOperations.unsafeWrap(out.toByteArray()));
                parts.add(UnsafeByteOperations.unsafeWrap(value.bytes()));
                out = new ProtoBytes(256);
            }
            out.append(columns.array(), start, rowEnds[r] - start);
        }
        parts.add(UnsafeByteOperations.unsafeWrap(out.toByteArray()));
        if (columns.capacity() > SCRATCH_KEPT) {
            SCRATCH.remove();
        }
        columns = null;
        shared.clear();
        return parts.size() == 1 ? parts.get(0) : ByteString.copyFrom(parts); // copyFrom(Iterable) concatenates
    }

    /**
     * Renders and encodes the columns of one image into {@link #columns}. In an after image a column is
     * {@code updated} unless the before image (absent for INSERT) has the same column with the same value or
     * both are NULL; before-image columns never are.
     */
    private void image(int fieldNumber, BitSet present, Object[] values, boolean afterImage, boolean hasBefore) {
        int columnCount = meta.columnCount();
        // bounded by the column count: a bitmap's padding bits are not columns
        for (int i = present.nextSetBit(0); i >= 0 && i < columnCount; i = present.nextSetBit(i + 1)) {
            ColumnMeta column = meta.column(i);
            if (!selection.keepsAll() && !selection.keeps(column.name())) {
                continue;
            }
            renderer.render(headers.kind(i), column, values[i], rendered);
            boolean updated = afterImage && (!hasBefore || differsFromBefore(i));
            writeColumn(fieldNumber, i, updated);
            if (!afterImage) {
                inBefore[i] = true;
                beforeLength[i] = rendered.isNull ? NULL : rendered.length;
                beforeShared[i] = isShared() ? rendered.bytes : null;
                // where the value just written starts: before the mysqlType field that follows it
                beforeStart[i] = columns.length() - headers.mysqlType(i).length
                        - (beforeShared[i] != null ? 0 : rendered.length);
            }
        }
    }

    /**
     * One Column message, fields in number order: the column's head (index, sqlType, name, isKey), updated,
     * isNull, value, mysqlType.
     */
    private void writeColumn(int fieldNumber, int index, boolean updated) {
        byte[] head = headers.head(index, rendered.sqlType);
        byte[] mysqlType = headers.mysqlType(index);
        boolean valueShared = isShared();
        int valueSize = rendered.isNull ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(rendered.length);
        int size = head.length + 2 * BOOL_FIELD_SIZE + valueSize + (rendered.isNull ? 0 : rendered.length)
                + mysqlType.length;
        columns.column(fieldNumber, size, head, updated, rendered.isNull, valueShared ? null : rendered.bytes,
                rendered.length, mysqlType);
        if (valueShared) {
            // the value belongs between its length and the mysqlType field
            shared.add(new SharedValue(columns.length() - mysqlType.length, rendered.bytes));
        }
    }

    /** Whether the value just rendered is shared rather than copied (the renderer's array is the sink's to keep). */
    private boolean isShared() {
        return !rendered.isNull && rendered.length >= SHARED_VALUE_BYTES;
    }

    /** Whether the value just rendered (of an after image) differs from the before image's value of the column. */
    private boolean differsFromBefore(int index) {
        if (!inBefore[index]) {
            return true;
        }
        if (beforeLength[index] == NULL || rendered.isNull) {
            return beforeLength[index] != NULL || !rendered.isNull;
        }
        byte[] value = beforeShared[index] != null ? beforeShared[index] : columns.array();
        int start = beforeShared[index] != null ? 0 : beforeStart[index];
        return !Arrays.equals(value, start, start + beforeLength[index], rendered.bytes, 0, rendered.length);
    }

    /** The last value the renderer gave: its sqlType and UTF-8 text, or NULL. */
    private static final class Rendered implements ColumnRenderer.ValueSink {

        int sqlType;
        boolean isNull;
        byte[] bytes;
        int length;

        @Override
        public void text(int type, String text) {
            utf8(type, text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void utf8(int type, byte[] text) {
            sqlType = type;
            isNull = false;
            bytes = text;
            length = text.length;
        }

        @Override
        public void nullValue(int type) {
            sqlType = type;
            isNull = true;
            bytes = null;
            length = 0;
        }
    }
}
