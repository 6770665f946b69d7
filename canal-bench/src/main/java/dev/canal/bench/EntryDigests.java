package dev.canal.bench;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Digests the rows of Canal entries: ours as the store holds them, and the official client's classes as a
 * Canal client receives them (the two generated class sets are distinct types, hence two methods).
 * Row types other than INSERT/UPDATE/DELETE (none in the workload) are not rows here.
 */
final class EntryDigests {

    private static final Pattern DECIMAL = Pattern.compile("(?i)decimal\\(\\d+,(\\d+)\\).*");

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
        addOfficial(entry, digest, EntryDigests::asSent);
    }

    /**
     * As {@link #addOfficial(com.alibaba.otter.canal.protocol.CanalEntry.Entry, RowDigest)}, for entries of the real
     * Canal 1.1.7, which drops the scale of a DECIMAL whose fraction is zero ({@code 5.00} arrives as {@code 5.0};
     * docs/compatibility.md lists it among the deliberate differences): the scale is restored from the column's
     * {@code mysqlType}, so that the content check compares everything else value for value.
     */
    static void addCanal117(com.alibaba.otter.canal.protocol.CanalEntry.Entry entry, RowDigest digest)
            throws InvalidProtocolBufferException {
        addOfficial(entry, digest, EntryDigests::withDecimalScale);
    }

    private static void addOfficial(com.alibaba.otter.canal.protocol.CanalEntry.Entry entry, RowDigest digest,
            Function<com.alibaba.otter.canal.protocol.CanalEntry.Column, String> text)
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
            List<String> before = official(row.getBeforeColumnsList(), text);
            List<String> after = official(row.getAfterColumnsList(), text);
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

    private static List<String> official(List<com.alibaba.otter.canal.protocol.CanalEntry.Column> columns,
            Function<com.alibaba.otter.canal.protocol.CanalEntry.Column, String> text) {
        if (columns.isEmpty()) {
            return null;
        }
        List<String> values = new ArrayList<>(columns.size());
        for (var c : columns) {
            values.add(c.getIsNull() ? RowDigest.NULL : text.apply(c));
        }
        return values;
    }

    private static String asSent(com.alibaba.otter.canal.protocol.CanalEntry.Column column) {
        return column.getValue();
    }

    private static String withDecimalScale(com.alibaba.otter.canal.protocol.CanalEntry.Column column) {
        Matcher decimal = DECIMAL.matcher(column.getMysqlType());
        if (!decimal.matches()) {
            return column.getValue();
        }
        return new BigDecimal(column.getValue()).setScale(Integer.parseInt(decimal.group(1))).toPlainString();
    }
}
