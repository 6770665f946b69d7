package dev.canal.bench;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * Digests the rows of Canal entries: ours as the store holds them, and the official client's classes as a
 * Canal client receives them (the two generated class sets are distinct types, hence two methods).
 * Row types other than INSERT/UPDATE/DELETE (none in the workload) are not rows here.
 */
final class EntryDigests {

    private EntryDigests() {
    }

    static void addOurs(CanalEntry.Entry entry, RowDigest digest) throws InvalidProtocolBufferException {
        if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
            return;
        }
        CanalEntry.Header header = entry.getHeader();
        String type = header.getEventType().name();
        if (!isRowType(type)) {
            return;
        }
        String table = header.getSchemaName() + "." + header.getTableName();
        for (CanalEntry.RowData row : CanalEntry.RowChange.parseFrom(entry.getStoreValue()).getRowDatasList()) {
            List<String> before = ours(row.getBeforeColumnsList());
            List<String> after = ours(row.getAfterColumnsList());
            digest.add(table, type, (after != null ? after : before).get(0), before, after);
        }
    }

    static void addOfficial(com.alibaba.otter.canal.protocol.CanalEntry.Entry entry, RowDigest digest)
            throws InvalidProtocolBufferException {
        if (entry.getEntryType() != com.alibaba.otter.canal.protocol.CanalEntry.EntryType.ROWDATA) {
            return;
        }
        var header = entry.getHeader();
        String type = header.getEventType().name();
        if (!isRowType(type)) {
            return;
        }
        String table = header.getSchemaName() + "." + header.getTableName();
        var change = com.alibaba.otter.canal.protocol.CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        for (var row : change.getRowDatasList()) {
            List<String> before = official(row.getBeforeColumnsList());
            List<String> after = official(row.getAfterColumnsList());
            digest.add(table, type, (after != null ? after : before).get(0), before, after);
        }
    }

    private static boolean isRowType(String type) {
        return type.equals("INSERT") || type.equals("UPDATE") || type.equals("DELETE");
    }

    private static List<String> ours(List<CanalEntry.Column> columns) {
        if (columns.isEmpty()) {
            return null;
        }
        List<String> values = new ArrayList<>(columns.size());
        for (CanalEntry.Column c : columns) {
            values.add(c.getIsNull() ? RowDigest.NULL : c.getValue());
        }
        return values;
    }

    private static List<String> official(List<com.alibaba.otter.canal.protocol.CanalEntry.Column> columns) {
        if (columns.isEmpty()) {
            return null;
        }
        List<String> values = new ArrayList<>(columns.size());
        for (var c : columns) {
            values.add(c.getIsNull() ? RowDigest.NULL : c.getValue());
        }
        return values;
    }
}
