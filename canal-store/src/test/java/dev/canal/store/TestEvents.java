package dev.canal.store;

import com.google.protobuf.ByteString;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.position.LogIdentity;

/** Builds store events for tests: the event with id n sits at offset n with execute time n. */
public final class TestEvents {

    public static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);
    public static final String JOURNAL = "mysql-bin.000001";
    private static final ByteString PAYLOAD = ByteString.copyFromUtf8("entry");

    private TestEvents() {
    }

    public static Event row(long id) {
        return event(id, EntryType.ROWDATA, EventType.INSERT, "", PAYLOAD.size());
    }

    public static Event sized(long id, long bytes) {
        return event(id, EntryType.ROWDATA, EventType.INSERT, "", bytes);
    }

    public static Event begin(long id, String gtid) {
        return event(id, EntryType.TRANSACTIONBEGIN, EventType.UPDATE, gtid, PAYLOAD.size());
    }

    public static Event end(long id) {
        return event(id, EntryType.TRANSACTIONEND, EventType.UPDATE, "", PAYLOAD.size());
    }

    public static Event ddl(long id) {
        return event(id, EntryType.ROWDATA, EventType.ALTER, "", PAYLOAD.size());
    }

    private static Event event(long id, EntryType entryType, EventType eventType, String gtid, long bytes) {
        return new Event(SOURCE, PAYLOAD, null, JOURNAL, id, 1L, id, gtid, entryType, eventType, 1, bytes);
    }

    /** A real entry as the parser builds it, for the Event factory. */
    public static CanalEntry.Entry entry(long offset, EntryType type, EventType eventType, int rowsCount) {
        CanalEntry.Header.Builder header = CanalEntry.Header.newBuilder()
                .setLogfileName(JOURNAL).setLogfileOffset(offset).setServerId(1).setExecuteTime(offset * 1000)
                .setEventLength(100).setEventType(eventType);
        if (rowsCount > 0) {
            header.addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue(Integer.toString(rowsCount)));
        }
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type)
                .setStoreValue(ByteString.copyFromUtf8("v" + offset)).build();
    }
}
