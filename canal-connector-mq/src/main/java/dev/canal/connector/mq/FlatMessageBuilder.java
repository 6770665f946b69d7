package dev.canal.connector.mq;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the ROWDATA entries of a batch into flat messages, one per entry, with Canal's rules. Two Canal details are kept on purpose because consumers see them: the set of updated column names
 * grows over the rows of an entry (a later row's {@code old} also lists columns updated in earlier rows), and
 * an UPDATE row without updated columns adds no {@code old} element.
 */
public final class FlatMessageBuilder {

    /** One flat message per entry, in batch order; {@code ts} is the build time written to every message. */
    public List<FlatMessage> build(long batchId, List<RowEntry> entries, long ts) {
        List<FlatMessage> messages = new ArrayList<>(entries.size());
        for (RowEntry entry : entries) {
            messages.add(build(batchId, entry, ts));
        }
        return messages;
    }

    public FlatMessage build(long batchId, RowEntry entry, long ts) {
        CanalEntry.Header header = entry.header();
        CanalEntry.RowChange change = entry.rowChange();
        EventType type = change.getEventType();
        Rows rows = change.getIsDdl() ? Rows.NONE : rows(change, type);
        return new FlatMessage(rows.data, header.getSchemaName(), header.getExecuteTime(), header.getGtid(), batchId,
                change.getIsDdl(), rows.mysqlType, rows.old, rows.pkNames, change.getSql(), rows.sqlType,
                header.getTableName(), ts, type.name(), isSnapshot(header));
    }

    /** The header property snapshot entries carry (docs/snapshots.md). */
    static boolean isSnapshot(CanalEntry.Header header) {
        for (CanalEntry.Pair pair : header.getPropsList()) {
            if (pair.getKey().equals("snapshot")) {
                return Boolean.parseBoolean(pair.getValue());
            }
        }
        return false;
    }

    private record Rows(List<Map<String, String>> data, Map<String, String> mysqlType,
            List<Map<String, String>> old, List<String> pkNames, Map<String, Integer> sqlType) {
        static final Rows NONE = new Rows(null, null, null, null, null);
    }

    private static Rows rows(CanalEntry.RowChange change, EventType type) {
        if (type != EventType.INSERT && type != EventType.UPDATE && type != EventType.DELETE) {
            return Rows.NONE;
        }
        Map<String, Integer> sqlType = new LinkedHashMap<>();
        Map<String, String> mysqlType = new LinkedHashMap<>();
        List<Map<String, String>> data = new ArrayList<>();
        List<Map<String, String>> old = new ArrayList<>();
        List<String> pkNames = new ArrayList<>();
        Set<String> updated = new HashSet<>(); // grows over the rows, as in Canal
        boolean firstRow = true;
        for (CanalEntry.RowData rowData : change.getRowDatasList()) {
            List<CanalEntry.Column> columns = type == EventType.DELETE
                    ? rowData.getBeforeColumnsList() : rowData.getAfterColumnsList();
            Map<String, String> row = new LinkedHashMap<>();
            for (CanalEntry.Column column : columns) {
                if (firstRow && column.getIsKey()) {
                    pkNames.add(column.getName());
                }
                sqlType.put(column.getName(), column.getSqlType());
                mysqlType.put(column.getName(), column.getMysqlType());
                row.put(column.getName(), valueOf(column));
                if (column.getUpdated()) {
                    updated.add(column.getName());
                }
            }
            firstRow = false;
            if (!row.isEmpty()) {
                data.add(Collections.unmodifiableMap(row));
            }
            if (type == EventType.UPDATE) {
                Map<String, String> before = new LinkedHashMap<>();
                for (CanalEntry.Column column : rowData.getBeforeColumnsList()) {
                    if (updated.contains(column.getName())) {
                        before.put(column.getName(), valueOf(column));
                    }
                }
                if (!before.isEmpty()) {
                    old.add(Collections.unmodifiableMap(before));
                }
            }
        }
        return new Rows(nullIfEmpty(data), nullIfEmpty(mysqlType), nullIfEmpty(old), nullIfEmpty(pkNames),
                nullIfEmpty(sqlType));
    }

    private static String valueOf(CanalEntry.Column column) {
        return column.getIsNull() ? null : column.getValue();
    }

    private static <T> List<T> nullIfEmpty(List<T> list) {
        return list.isEmpty() ? null : Collections.unmodifiableList(list);
    }

    private static <V> Map<String, V> nullIfEmpty(Map<String, V> map) {
        return map.isEmpty() ? null : Collections.unmodifiableMap(map);
    }
}
