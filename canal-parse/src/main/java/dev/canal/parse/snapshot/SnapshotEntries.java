package dev.canal.parse.snapshot;

import dev.canal.parse.meta.TableMeta;
import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries of one snapshot chunk: a transaction begin, ROWDATA entries of event type INSERT with the chunk's
 * rows as after images, and a transaction end, each header carrying the property {@value #PROPERTY}={@code true}
 * so a consumer can tell snapshot rows from live changes (docs/snapshots.md, "What a consumer sees"). The headers
 * take the binlog position of the last transaction end streamed before them, so a client's cursor never moves
 * past an event it has not received.
 */
final class SnapshotEntries {

    /** The header property that marks snapshot entries. */
    static final String PROPERTY = "snapshot";
    /** Rows per ROWDATA entry, as a rows event of about 8 KiB carries. */
    static final int ROWS_PER_ENTRY = 128;

    private SnapshotEntries() {
    }

    static List<CanalEntry.Entry> of(TableMeta meta, List<CanalEntry.RowData> rows, CanalEntry.Header at) {
        List<CanalEntry.Entry> entries = new ArrayList<>(2 + rows.size() / ROWS_PER_ENTRY + 1);
        entries.add(entry(header(at, "", "").clearEventType(), CanalEntry.EntryType.TRANSACTIONBEGIN,
                CanalEntry.TransactionBegin.newBuilder().build().toByteString()));
        for (int from = 0; from < rows.size(); from += ROWS_PER_ENTRY) {
            List<CanalEntry.RowData> part = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_ENTRY));
            CanalEntry.RowChange.Builder change = CanalEntry.RowChange.newBuilder()
                    .setEventType(CanalEntry.EventType.INSERT).setIsDdl(false);
            change.addAllRowDatas(part);
            CanalEntry.Header.Builder h = header(at, meta.schema(), meta.table())
                    .setEventType(CanalEntry.EventType.INSERT)
                    .addProps(pair("rowsCount", Integer.toString(part.size())));
            entries.add(entry(h, CanalEntry.EntryType.ROWDATA, change.build().toByteString()));
        }
        entries.add(entry(header(at, "", "").clearEventType(), CanalEntry.EntryType.TRANSACTIONEND,
                CanalEntry.TransactionEnd.newBuilder().build().toByteString()));
        return entries;
    }

    /**
     * The entry that begins a recovery copy of {@code table}: a TRUNCATE statement of the table, marked as snapshot
     * entries are, telling a consumer to drop what it holds of the table before the copy's rows arrive
     * (docs/snapshots.md, "Recovering a purged position").
     */
    static CanalEntry.Entry reset(SnapshotTable table, CanalEntry.Header at) {
        CanalEntry.RowChange change = CanalEntry.RowChange.newBuilder()
                .setEventType(CanalEntry.EventType.TRUNCATE).setIsDdl(true)
                .setSql("TRUNCATE TABLE " + table.quoted()).setDdlSchemaName(table.schema()).build();
        return entry(header(at, table.schema(), table.table()).setEventType(CanalEntry.EventType.TRUNCATE),
                CanalEntry.EntryType.ROWDATA, change.toByteString());
    }

    private static CanalEntry.Header.Builder header(CanalEntry.Header at, String schema, String table) {
        CanalEntry.Header.Builder h = CanalEntry.Header.newBuilder()
                .setVersion(at.getVersion())
                .setLogfileName(at.getLogfileName())
                .setLogfileOffset(at.getLogfileOffset())
                .setServerId(at.getServerId())
                .setServerenCode(at.getServerenCode())
                .setExecuteTime(at.getExecuteTime())
                .setSourceType(at.getSourceType())
                .setSchemaName(schema)
                .setTableName(table)
                .addProps(pair(PROPERTY, "true"));
        if (at.hasGtid()) {
            h.setGtid(at.getGtid());
        }
        return h;
    }

    private static CanalEntry.Entry entry(CanalEntry.Header.Builder header, CanalEntry.EntryType type,
            com.google.protobuf.ByteString value) {
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type).setStoreValue(value).build();
    }

    private static CanalEntry.Pair pair(String key, String value) {
        return CanalEntry.Pair.newBuilder().setKey(key).setValue(value).build();
    }
}
