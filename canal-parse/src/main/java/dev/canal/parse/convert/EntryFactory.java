package dev.canal.parse.convert;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.List;

/** Builds entries and headers with exactly the fields Canal sets. */
final class EntryFactory {

    private static final String ENCODING = "UTF-8";

    private EntryFactory() {
    }

    /**
     * @param table     null for an entry whose header has no table name at all (database statements)
     * @param eventType null for TRANSACTIONBEGIN/TRANSACTIONEND headers, which carry none
     * @param gtid      executed GTID set in GTID mode, else null
     */
    static CanalEntry.Header.Builder header(EventPosition at, String schema, String table, EventType eventType,
            String gtid, List<CanalEntry.Pair> props) {
        CanalEntry.Header.Builder h = CanalEntry.Header.newBuilder()
                .setVersion(1)
                .setLogfileName(at.file())
                .setLogfileOffset(at.offset())
                .setServerId(at.serverId())
                .setServerenCode(ENCODING)
                .setExecuteTime(at.timestampSeconds() * 1000)
                .setSourceType(CanalEntry.Type.MYSQL)
                .setSchemaName(schema)
                .setEventLength(at.length());
        if (table != null) {
            h.setTableName(table);
        }
        if (eventType != null) {
            h.setEventType(eventType);
        }
        if (gtid != null) {
            h.setGtid(gtid);
        }
        h.addAllProps(props);
        return h;
    }

    static CanalEntry.Entry entry(CanalEntry.Header.Builder header, EntryType type, com.google.protobuf.ByteString value) {
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type).setStoreValue(value).build();
    }

    static CanalEntry.Pair pair(String key, String value) {
        return CanalEntry.Pair.newBuilder().setKey(key).setValue(value).build();
    }
}
