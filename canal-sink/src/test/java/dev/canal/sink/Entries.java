package dev.canal.sink;

import com.google.protobuf.ByteString;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.position.LogIdentity;

/** Entries as the parser builds them, at a given offset and event time (ms). */
final class Entries {

    static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);
    static final LogIdentity OTHER_SOURCE = LogIdentity.of("127.0.0.2", 3306);

    private Entries() {
    }

    static CanalEntry.Entry begin(long offset, long time) {
        return entry(offset, time, EntryType.TRANSACTIONBEGIN, null);
    }

    static CanalEntry.Entry end(long offset, long time) {
        return entry(offset, time, EntryType.TRANSACTIONEND, null);
    }

    /** One entry of the empty transaction the parser hands on at a heartbeat or a rotation. */
    static CanalEntry.Entry heartbeatTransaction(EntryType type, long offset, long time) {
        CanalEntry.Entry entry = entry(offset, time, type, null);
        return entry.toBuilder().setHeader(entry.getHeader().toBuilder().addProps(HeartbeatTransaction.mark()))
                .build();
    }

    static CanalEntry.Entry row(long offset, long time) {
        return entry(offset, time, EntryType.ROWDATA, EventType.INSERT);
    }

    /** The statement text of the rows that follow (ROWS_QUERY, ANNOTATE_ROWS). */
    static CanalEntry.Entry statementText(long offset, long time) {
        return entry(offset, time, EntryType.ROWDATA, EventType.QUERY);
    }

    static CanalEntry.Entry ddl(long offset, long time) {
        return entry(offset, time, EntryType.ROWDATA, EventType.ALTER);
    }

    static CanalEntry.Entry heartbeat(long offset, long time) {
        return entry(offset, time, EntryType.HEARTBEAT, EventType.MHEARTBEAT);
    }

    static CanalEntry.Entry gtid(long offset, long time) {
        return entry(offset, time, EntryType.GTIDLOG, EventType.GTID);
    }

    private static CanalEntry.Entry entry(long offset, long time, EntryType type, EventType eventType) {
        CanalEntry.Header.Builder header = CanalEntry.Header.newBuilder()
                .setLogfileName("mysql-bin.000001").setLogfileOffset(offset).setServerId(1)
                .setExecuteTime(time).setEventLength(40);
        if (eventType != null) {
            header.setEventType(eventType);
        }
        if (type == EntryType.ROWDATA) {
            header.addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue("1"));
        }
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type)
                .setStoreValue(ByteString.copyFromUtf8("value@" + offset)).build();
    }
}
