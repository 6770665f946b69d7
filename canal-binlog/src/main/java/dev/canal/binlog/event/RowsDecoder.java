package dev.canal.binlog.event;

import dev.canal.binlog.column.ColumnDecoder;
import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.column.JsonBinary;
import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.PartialJson;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Decodes the row images of a {@link RowsEvent} against its {@link TableMapEvent}. Stateless and thread-safe:
 * row decoding can run on worker threads while one thread keeps reading events in order.
 *
 * <p>Each image: a NULL bitmap over the present columns, then each present non-NULL value. In the after image
 * of PARTIAL_UPDATE_ROWS the bitmap is preceded by the value options (length-encoded) and, when they include
 * PARTIAL_JSON, one bit per JSON column of the table telling whether that column holds JSON diffs.
 */
public final class RowsDecoder {

    private static final int PARTIAL_JSON_UPDATES = 1;
    private static final int MAX_PRESIZED_ROWS = 1 << 16;

    private RowsDecoder() {
    }

    /**
     * The rows of {@code event}, in order.
     *
     * @throws MalformedDataException     when the images do not match the table map or run past the event
     * @throws UnsupportedBinlogException for the pre-GA row format (version 0)
     */
    public static List<RowChange> decode(RowsEvent event, TableMapEvent table) {
        if (event.version() == 0) {
            throw new UnsupportedBinlogException("rows of " + table.qualifiedName() + " are in the pre-GA row format"
                    + " of MySQL 5.1 betas (event types 20-22), whose images follow the storage engine's record"
                    + " layout: not decoded");
        }
        if (event.tableId() != table.tableId()) {
            throw new MalformedDataException("rows event of table id " + event.tableId() + " decoded with the map of "
                    + table.tableId() + " (" + table.qualifiedName() + ")");
        }
        if (event.columnCount() > table.columnCount()) {
            throw new MalformedDataException("rows event for " + table.qualifiedName() + " has " + event.columnCount()
                    + " columns, its table map " + table.columnCount());
        }
        int[] before = event.columnsBefore() == null ? null : presentColumns(event.columnsBefore(), event.columnCount());
        int[] after = event.columnsAfter() == null ? null : presentColumns(event.columnsAfter(), event.columnCount());
        LittleEndianCursor c = new LittleEndianCursor(event.rowData(), event.rowsOffset(), event.rowDataLength());
        ArrayList<RowChange> rows = new ArrayList<>();
        boolean partial = event.kind() == RowsEvent.Kind.PARTIAL_UPDATE;
        try {
            while (c.hasRemaining()) {
                int rowStart = c.position();
                Object[] beforeImage = before == null ? null : image(c, before, table, null);
                Object[] afterImage = null;
                if (after != null) {
                    afterImage = image(c, after, table, partial ? partialJsonColumns(c, table) : null);
                }
                if (c.position() == rowStart) {
                    // an image of no columns takes no bytes: what is left cannot be rows
                    throw new MalformedDataException(c.remaining() + " bytes after the last row, but the images"
                            + " have no columns");
                }
                rows.add(new RowChange(beforeImage, afterImage));
                if (rows.size() == 1) {
                    // rows of an event are alike in size: room for as many more as the first one's size suggests
                    // (capped, so that a corrupt event cannot ask for a huge list)
                    rows.ensureCapacity(1 + Math.min(c.remaining() / (c.position() - rowStart), MAX_PRESIZED_ROWS));
                }
            }
        } catch (MalformedDataException e) {
            throw new MalformedDataException("row " + (rows.size() + 1) + " of " + table.qualifiedName() + ": "
                    + e.getMessage(), e);
        }
        return rows;
    }

    private static int[] presentColumns(BitSet bits, int columnCount) {
        int[] present = new int[Math.min(bits.cardinality(), columnCount)];
        int k = 0;
        for (int i = bits.nextSetBit(0); i >= 0 && i < columnCount; i = bits.nextSetBit(i + 1)) {
            present[k++] = i;
        }
        return k == present.length ? present : Arrays.copyOf(present, k);
    }

    private static Object[] image(LittleEndianCursor c, int[] present, TableMapEvent table, BitSet partialJson) {
        Object[] values = new Object[table.columnCount()];
        int nullBitmap = c.position();
        c.skip((present.length + 7) / 8);
        byte[] buf = c.array();
        int[] types = table.columnTypes();
        int[] meta = table.columnMeta();
        for (int k = 0; k < present.length; k++) {
            if ((buf[nullBitmap + (k >> 3)] & (1 << (k & 7))) != 0) {
                continue;
            }
            int col = present[k];
            try {
                if (partialJson != null && partialJson.get(col)) {
                    values[col] = jsonDiffs(c, meta[col]);
                } else {
                    values[col] = ColumnDecoder.decode(types[col], meta[col], c);
                }
            } catch (MalformedDataException e) {
                throw new MalformedDataException("column " + (col + 1) + " (" + ColumnType.name(types[col]) + "): "
                        + e.getMessage(), e);
            }
        }
        return values;
    }

    /** Reads the value options of a partial after image; returns the JSON columns that hold diffs, or null. */
    private static BitSet partialJsonColumns(LittleEndianCursor c, TableMapEvent table) {
        long options = c.lengthEncodedInt();
        if ((options & PARTIAL_JSON_UPDATES) == 0) {
            return null;
        }
        BitSet partial = new BitSet();
        int[] types = table.columnTypes();
        int k = 0;
        int bits = 0;
        for (int col = 0; col < table.columnCount(); col++) {
            if (types[col] != ColumnType.JSON) {
                continue;
            }
            if (k % 8 == 0) {
                bits = c.uint8();
            }
            if ((bits & (1 << (k % 8))) != 0) {
                partial.set(col);
            }
            k++;
        }
        return partial;
    }

    /** A JSON column's diffs: operation (1), path (length-encoded), value (length-encoded binary JSON) if not REMOVE. */
    private static PartialJson jsonDiffs(LittleEndianCursor c, int meta) {
        int length = ColumnDecoder.blobLength(meta, c);
        LittleEndianCursor d = new LittleEndianCursor(c.array(), c.position(), length);
        c.skip(length);
        List<JsonDiff> diffs = new ArrayList<>();
        JsonDiff.Operation[] operations = JsonDiff.Operation.values();
        while (d.hasRemaining()) {
            int op = d.uint8();
            if (op >= operations.length) {
                throw new MalformedDataException("unknown JSON diff operation " + op);
            }
            String path = d.string(d.checkedLength(d.lengthEncodedInt()));
            String value = null;
            if (operations[op] != JsonDiff.Operation.REMOVE) {
                int valueLength = d.checkedLength(d.lengthEncodedInt());
                value = JsonBinary.toJson(d.array(), d.position(), valueLength);
                d.skip(valueLength);
            }
            diffs.add(new JsonDiff(operations[op], path, value));
        }
        return new PartialJson(List.copyOf(diffs));
    }
}
