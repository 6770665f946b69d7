package dev.canal.bench.differential;

import com.alibaba.otter.canal.protocol.CanalEntry;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry as the official client decodes it, flattened to {@code path -> value}: every field that is present
 * (so a field set on one side and absent on the other shows as a path only one side has), the store value parsed
 * as the RowChange, TransactionBegin or TransactionEnd its entry type holds. A column's path carries its name and a
 * property's its key, e.g. {@code rowChange.rowDatas[0].afterColumns[3](c_int).value}.
 */
record EntryFields(int index, Map<String, String> fields) {

    static EntryFields of(int index, CanalEntry.Entry entry) throws InvalidProtocolBufferException {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("entryType", entry.getEntryType().name());
        flatten("header.", entry.getHeader(), out);
        ByteString store = entry.getStoreValue();
        switch (entry.getEntryType()) {
            case ROWDATA -> flatten("rowChange.", CanalEntry.RowChange.parseFrom(store), out);
            case TRANSACTIONBEGIN -> flatten("begin.", CanalEntry.TransactionBegin.parseFrom(store), out);
            case TRANSACTIONEND -> flatten("end.", CanalEntry.TransactionEnd.parseFrom(store), out);
            default -> out.put("storeValue", HexFormat.of().formatHex(store.toByteArray()));
        }
        return new EntryFields(index, out);
    }

    String get(String path) {
        return fields.get(path);
    }

    /** Whether the entry is of this entry type ({@code ROWDATA}, {@code TRANSACTIONBEGIN}, ...). */
    boolean is(String entryType) {
        return entryType.equals(fields.get("entryType"));
    }

    /** Entry type, table and event type, for a difference's line. */
    String title() {
        return "#" + index + " " + fields.get("entryType") + " " + fields.getOrDefault("header.schemaName", "") + "."
                + fields.getOrDefault("header.tableName", "") + " " + fields.getOrDefault("header.eventType", "");
    }

    /** Title, position and statement (if any) on one line, for a listing of a run's entries. */
    String line() {
        String sql = fields.getOrDefault("rowChange.sql", "");
        return title() + " @" + fields.get("header.logfileName") + ":" + fields.get("header.logfileOffset")
                + (sql.isEmpty() ? "" : " " + (sql.length() > 100 ? sql.substring(0, 100) + "..." : sql));
    }

    private static void flatten(String prefix, MessageOrBuilder message, Map<String, String> out) {
        for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
            String path = prefix + field.getKey().getName();
            if (field.getKey().isRepeated()) {
                List<?> items = (List<?>) field.getValue();
                for (int i = 0; i < items.size(); i++) {
                    put(path + "[" + i + label(items.get(i)) + "]", items.get(i), out);
                }
            } else {
                put(path, field.getValue(), out);
            }
        }
    }

    private static void put(String path, Object value, Map<String, String> out) {
        if (value instanceof MessageOrBuilder message) {
            flatten(path + ".", message, out);
        } else if (value instanceof ByteString bytes) {
            out.put(path, HexFormat.of().formatHex(bytes.toByteArray()));
        } else if (value instanceof EnumValueDescriptor e) {
            out.put(path, e.getName());
        } else {
            out.put(path, String.valueOf(value));
        }
    }

    private static String label(Object item) {
        if (item instanceof CanalEntry.Column column) {
            return "(" + column.getName() + ")";
        }
        if (item instanceof CanalEntry.Pair pair) {
            return "(" + pair.getKey() + ")";
        }
        return "";
    }
}
