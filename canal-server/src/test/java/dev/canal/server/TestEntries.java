package dev.canal.server;

import com.google.protobuf.ByteString;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.position.LogIdentity;
import java.util.ArrayList;
import java.util.List;

/**
 * Real entries as the parser would build them. The entry at offset n has execute time n × 1000 and belongs
 * to binlog file {@link #JOURNAL}; a transaction is BEGIN, rows, END.
 */
public final class TestEntries {

    public static final LogIdentity SOURCE = TestInstance.SOURCE;
    public static final String JOURNAL = "mysql-bin.000001";

    private TestEntries() {
    }

    /** A transaction of {@code rows} inserts into test.t starting at {@code firstOffset}: rows + 2 entries. */
    public static List<CanalEntry.Entry> transaction(long firstOffset, int rows) {
        List<CanalEntry.Entry> entries = new ArrayList<>();
        long offset = firstOffset;
        entries.add(entry(offset++, EntryType.TRANSACTIONBEGIN, EventType.QUERY));
        for (int i = 0; i < rows; i++) {
            entries.add(entry(offset++, EntryType.ROWDATA, EventType.INSERT));
        }
        entries.add(entry(offset, EntryType.TRANSACTIONEND, EventType.QUERY));
        return entries;
    }

    public static CanalEntry.Entry entry(long offset, EntryType type, EventType eventType) {
        CanalEntry.Header.Builder header = CanalEntry.Header.newBuilder()
                .setVersion(1).setLogfileName(JOURNAL).setLogfileOffset(offset).setServerId(1)
                .setServerenCode("UTF-8").setExecuteTime(offset * 1000).setSourceType(CanalEntry.Type.MYSQL)
                .setSchemaName("test").setTableName("t").setEventLength(42);
        if (type == EntryType.ROWDATA) {
            header.setEventType(eventType)
                    .addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue("1"));
        }
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type)
                .setStoreValue(ByteString.copyFromUtf8("value@" + offset)).build();
    }

    public static long offsetOf(ByteString rawEntry) {
        try {
            return CanalEntry.Entry.parseFrom(rawEntry).getHeader().getLogfileOffset();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError("not an entry", e);
        }
    }
}
