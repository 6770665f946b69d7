package dev.canal.parse.convert;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.mysql.event.RowChange;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.sink.filter.ColumnFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.List;

/**
 * Writes the {@code RowChange} of a rows event straight into its protobuf bytes, the same bytes the generated
 * builders would produce (fields in number order, the same fields present), without a {@code Column} and
 * {@code RowData} message per column and row. Building those messages and measuring every column's name and
 * type text again for each row was most of the parser's CPU (docs/performance.md, "Where the time goes").
 *
 * <p>One instance per rows event and thread: it keeps the last value {@link ColumnRenderer} gave it.
 */
final class RowChangeWriter {

    // field numbers of EntryProtocol.proto
    private static final int ROW_CHANGE_TABLE_ID = 1;
    private static final int ROW_CHANGE_EVENT_TYPE = 2;
    private static final int ROW_CHANGE_IS_DDL = 10;
    private static final int ROW_CHANGE_ROW_DATAS = 12;
    private static final int ROW_DATA_BEFORE_COLUMNS = 1;
    private static final int ROW_DATA_AFTER_COLUMNS = 2;
    private static final int COLUMN_INDEX = 1;
    private static final int COLUMN_SQL_TYPE = 2;
    private static final int COLUMN_UPDATED = 5;
    private static final int COLUMN_IS_NULL = 6;
    private static final int COLUMN_VALUE = 8;

    private final ColumnRenderer renderer;
    private final TableMeta meta;
    private final ColumnHeaders headers;
    private final ColumnFilter.Selection selection;
    private final Rendered rendered = new Rendered();

    /** @param headers {@code meta}'s {@link ColumnHeaders} */
    RowChangeWriter(ColumnRenderer renderer, TableMeta meta, ColumnHeaders headers, ColumnFilter.Selection selection) {
        this.renderer = renderer;
        this.meta = meta;
        this.headers = headers;
        this.selection = selection;
    }

    /** The encoded RowChange of these rows; {@code before}/{@code after} say which columns each image holds. */
    ByteString write(long tableId, EventType type, BitSet before, BitSet after, List<RowChange> rows) {
        Image[] befores = new Image[rows.size()];
        Image[] afters = new Image[rows.size()];
        int size = CodedOutputStream.computeInt64Size(ROW_CHANGE_TABLE_ID, tableId)
                + CodedOutputStream.computeEnumSize(ROW_CHANGE_EVENT_TYPE, type.getNumber())
                + CodedOutputStream.computeBoolSize(ROW_CHANGE_IS_DDL, false);
        for (int r = 0; r < befores.length; r++) {
            RowChange row = rows.get(r);
            befores[r] = row.before() == null ? null : image(before, row.before(), false, null);
            afters[r] = row.after() == null ? null : image(after, row.after(), true, befores[r]);
            size += CodedOutputStream.computeTagSize(ROW_CHANGE_ROW_DATAS)
                    + lengthDelimitedSize(rowDataSize(befores[r], afters[r]));
        }
        byte[] bytes = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeInt64(ROW_CHANGE_TABLE_ID, tableId);
            out.writeEnum(ROW_CHANGE_EVENT_TYPE, type.getNumber());
            out.writeBool(ROW_CHANGE_IS_DDL, false);
            for (int r = 0; r < befores.length; r++) {
                out.writeTag(ROW_CHANGE_ROW_DATAS, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                out.writeUInt32NoTag(rowDataSize(befores[r], afters[r]));
                if (befores[r] != null) {
                    befores[r].writeTo(ROW_DATA_BEFORE_COLUMNS, out);
                }
                if (afters[r] != null) {
                    afters[r].writeTo(ROW_DATA_AFTER_COLUMNS, out);
                }
            }
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException("RowChange of " + meta.fullName() + " did not fit its computed size", e);
        }
        return UnsafeByteOperations.unsafeWrap(bytes);
    }

    private static int rowDataSize(Image before, Image after) {
        return (before == null ? 0 : before.fieldsSize(ROW_DATA_BEFORE_COLUMNS))
                + (after == null ? 0 : after.fieldsSize(ROW_DATA_AFTER_COLUMNS));
    }

    private static int lengthDelimitedSize(int length) {
        return CodedOutputStream.computeUInt32SizeNoTag(length) + length;
    }

    /**
     * Renders the columns of one image. In an after image a column is {@code updated} unless the before image
     * (null for INSERT) has the same column with the same value or both are NULL; before-image columns never are.
     */
    private Image image(BitSet present, Object[] values, boolean afterImage, Image before) {
        int columnCount = meta.columnCount();
        Image image = new Image(headers, columnCount);
        // bounded by the column count: a bitmap's padding bits are not columns
        for (int i = present.nextSetBit(0); i >= 0 && i < columnCount; i = present.nextSetBit(i + 1)) {
            ColumnMeta column = meta.column(i);
            if (!selection.keepsAll() && !selection.keeps(column.name())) {
                continue;
            }
            renderer.render(headers.kind(i), column, values[i], rendered);
            ByteString value = rendered.value;
            image.add(i, rendered.sqlType, value, afterImage && (before == null || before.differs(i, value)));
        }
        return image;
    }

    /** The last value the renderer gave: its sqlType and UTF-8 text, null for SQL NULL. */
    private static final class Rendered implements ColumnRenderer.ValueSink {

        int sqlType;
        ByteString value;

        @Override
        public void text(int type, String text) {
            sqlType = type;
            value = ByteString.copyFromUtf8(text);
        }

        @Override
        public void utf8(int type, byte[] text) {
            sqlType = type;
            value = UnsafeByteOperations.unsafeWrap(text); // the renderer's sink contract: the array is ours
        }

        @Override
        public void nullValue(int type) {
            sqlType = type;
            value = null;
        }
    }

    /** The rendered columns of one image, in column order, with their encoded sizes. */
    private static final class Image {

        private final ColumnHeaders headers;
        private final int[] order;
        private final int[] sqlTypes;
        private final ByteString[] values;
        private final boolean[] present;
        private final boolean[] updated;
        private final int[] sizes;
        private int count;

        Image(ColumnHeaders headers, int columnCount) {
            this.headers = headers;
            order = new int[columnCount];
            sqlTypes = new int[columnCount];
            values = new ByteString[columnCount];
            present = new boolean[columnCount];
            updated = new boolean[columnCount];
            sizes = new int[columnCount];
        }

        void add(int index, int sqlType, ByteString value, boolean isUpdated) {
            order[count++] = index;
            sqlTypes[index] = sqlType;
            values[index] = value;
            present[index] = true;
            updated[index] = isUpdated;
            sizes[index] = columnSize(index);
        }

        /** Whether an after-image value differs from this (before) image's value of the same column. */
        boolean differs(int index, ByteString afterValue) {
            if (!present[index]) {
                return true;
            }
            ByteString beforeValue = values[index];
            return beforeValue == null ? afterValue != null : !beforeValue.equals(afterValue);
        }

        private int columnSize(int index) {
            int size = CodedOutputStream.computeInt32Size(COLUMN_INDEX, index)
                    + CodedOutputStream.computeInt32Size(COLUMN_SQL_TYPE, sqlTypes[index])
                    + headers.nameAndKey(index).length
                    + CodedOutputStream.computeBoolSize(COLUMN_UPDATED, updated[index])
                    + CodedOutputStream.computeBoolSize(COLUMN_IS_NULL, values[index] == null)
                    + headers.mysqlType(index).length;
            return values[index] == null ? size : size + CodedOutputStream.computeBytesSize(COLUMN_VALUE, values[index]);
        }

        /** Size of this image as repeated Column fields of a RowData. */
        int fieldsSize(int fieldNumber) {
            int tag = CodedOutputStream.computeTagSize(fieldNumber);
            int size = 0;
            for (int k = 0; k < count; k++) {
                size += tag + lengthDelimitedSize(sizes[order[k]]);
            }
            return size;
        }

        void writeTo(int fieldNumber, CodedOutputStream out) throws IOException {
            for (int k = 0; k < count; k++) {
                int index = order[k];
                out.writeTag(fieldNumber, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                out.writeUInt32NoTag(sizes[index]);
                out.writeInt32(COLUMN_INDEX, index);
                out.writeInt32(COLUMN_SQL_TYPE, sqlTypes[index]);
                out.writeRawBytes(headers.nameAndKey(index));
                out.writeBool(COLUMN_UPDATED, updated[index]);
                out.writeBool(COLUMN_IS_NULL, values[index] == null);
                if (values[index] != null) {
                    out.writeBytes(COLUMN_VALUE, values[index]);
                }
                out.writeRawBytes(headers.mysqlType(index));
            }
        }
    }
}
