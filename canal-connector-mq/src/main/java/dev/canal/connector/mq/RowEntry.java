package dev.canal.connector.mq;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;

/** A ROWDATA entry with its row change decoded once, for the encoders that look inside it. */
public record RowEntry(CanalEntry.Entry entry, CanalEntry.RowChange rowChange) {

    /** Decodes the entry's row change; fails naming the entry's binlog position when it is not one. */
    public static RowEntry of(CanalEntry.Entry entry) {
        try {
            return new RowEntry(entry, CanalEntry.RowChange.parseFrom(entry.getStoreValue()));
        } catch (InvalidProtocolBufferException e) {
            CanalEntry.Header h = entry.getHeader();
            throw new IllegalStateException("entry at " + h.getLogfileName() + ":" + h.getLogfileOffset() + " ("
                    + h.getSchemaName() + "." + h.getTableName() + ") has no valid RowChange", e);
        }
    }

    public CanalEntry.Header header() {
        return entry.getHeader();
    }

    public String schema() {
        return entry.getHeader().getSchemaName();
    }

    public String table() {
        return entry.getHeader().getTableName();
    }

    /** A copy of this entry holding only {@code row}, as the protobuf partitioner ships single rows (docs/mq.md). */
    public CanalEntry.Entry withSingleRow(CanalEntry.RowData row) {
        CanalEntry.RowChange single = rowChange.toBuilder().clearRowDatas().addRowDatas(row).build();
        return entry.toBuilder().setStoreValue(single.toByteString()).build();
    }
}
