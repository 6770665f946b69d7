package dev.canal.binlog.event;

import java.util.BitSet;

/**
 * WRITE/UPDATE/DELETE_ROWS (pre-GA, v1, v2, MariaDB compressed) or PARTIAL_UPDATE_ROWS, with the row images
 * still undecoded: {@code rowData[rowsOffset, rowsEnd)} is decoded by {@link RowsDecoder} against the
 * {@link TableMapEvent} of {@code tableId}, possibly on another thread. {@code rowData} is the event's own byte
 * array, not a copy (so whoever reads events must not reuse that array while the event is in use); for a
 * compressed MariaDB event it is the inflated copy.
 *
 * @param version       0 (pre-GA), 1 or 2
 * @param extraData     v2 extra row info (NDB info, partition ids), empty when none
 * @param columnsBefore columns present in before images (DELETE, UPDATE); null for WRITE
 * @param columnsAfter  columns present in after images (WRITE, UPDATE); null for DELETE
 */
public record RowsEvent(EventHeader header, Kind kind, int version, long tableId, int flags, byte[] extraData,
        int columnCount, BitSet columnsBefore, BitSet columnsAfter, byte[] rowData, int rowsOffset, int rowsEnd)
        implements BinlogEvent {

    /** Rows event flag: last rows event of the statement. */
    public static final int STMT_END_F = 1;

    public enum Kind { WRITE, UPDATE, DELETE, PARTIAL_UPDATE }

    public boolean hasBeforeImage() {
        return columnsBefore != null;
    }

    public boolean hasAfterImage() {
        return columnsAfter != null;
    }

    /** Length of the undecoded row images. */
    public int rowDataLength() {
        return rowsEnd - rowsOffset;
    }
}
