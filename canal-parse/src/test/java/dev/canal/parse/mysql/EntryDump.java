package dev.canal.parse.mysql;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stable, human-readable text rendering of Canal entries, for comparing a parser's output with a hand-checked
 * dump. Every field that is present on the wire is printed, in field-number order, as {@code name=value}; a field
 * that is absent is not printed, so presence is checked too (proto2: Canal sets fields explicitly).
 *
 * <p>Fields that differ from run to run (binlog file and offset, server id, execute time, GTIDs, table id, XID,
 * thread id) are printed as {@code name=*}: their presence is still checked, their value is not.
 *
 * <p>Layout: one block per entry, its header, then its payload (TransactionBegin, TransactionEnd or RowChange),
 * then for row changes one line per column: {@code before}/{@code after}, then the column's fields. Strings are
 * quoted; backslash, quote and control characters (C0, DEL and C1, i.e. binary bytes read as ISO-8859-1) are
 * escaped as {@code \\}, {@code \"}, {@code \n}, {@code \t}, {@code \r} and {@code \xNN}.
 */
final class EntryDump {

    private static final Set<String> MASKED = Set.of("logfileName", "logfileOffset", "serverId", "executeTime",
            "gtid", "tableId", "transactionId", "threadId");
    /** header props naming the current transaction's GTID */
    private static final Set<String> MASKED_PROPS = Set.of("curtGtid", "curtGtidSn", "curtGtidLct");

    private EntryDump() {
    }

    static List<String> render(List<CanalEntry.Entry> entries) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            render(i + 1, entries.get(i), lines);
        }
        return lines;
    }

    private static void render(int number, CanalEntry.Entry entry, List<String> lines) {
        lines.add("entry " + number + fields(entry, Set.of("header", "storeValue")));
        lines.add("  header" + fields(entry.getHeader(), Set.of()));
        try {
            switch (entry.getEntryType()) {
                case TRANSACTIONBEGIN -> lines.add("  begin" + fields(
                        CanalEntry.TransactionBegin.parseFrom(entry.getStoreValue()), Set.of()));
                case TRANSACTIONEND -> lines.add("  end" + fields(
                        CanalEntry.TransactionEnd.parseFrom(entry.getStoreValue()), Set.of()));
                case ROWDATA -> rowChange(CanalEntry.RowChange.parseFrom(entry.getStoreValue()), lines);
                default -> lines.add("  storeValue bytes=" + entry.getStoreValue().size());
            }
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("entry " + number + " has a storeValue that does not parse as its "
                    + entry.getEntryType() + " payload", e);
        }
    }

    private static void rowChange(CanalEntry.RowChange change, List<String> lines) {
        lines.add("  rowChange" + fields(change, Set.of("rowDatas")));
        for (int r = 0; r < change.getRowDatasCount(); r++) {
            CanalEntry.RowData row = change.getRowDatas(r);
            lines.add("  row " + (r + 1) + fields(row, Set.of("beforeColumns", "afterColumns")));
            row.getBeforeColumnsList().forEach(c -> lines.add("    before" + fields(c, Set.of())));
            row.getAfterColumnsList().forEach(c -> lines.add("    after " + fields(c, Set.of())));
        }
    }

    /** The present fields of a message as {@code " name=value"}, field-number order, except {@code skipped}. */
    private static String fields(Message message, Set<String> skipped) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<FieldDescriptor, Object> f : message.getAllFields().entrySet()) {
            String name = f.getKey().getName();
            if (skipped.contains(name)) {
                continue;
            }
            sb.append(' ').append(name).append('=');
            if (MASKED.contains(name)) {
                sb.append('*');
            } else if (f.getKey().isRepeated()) {
                sb.append(pairs(f.getValue()));
            } else {
                sb.append(scalar(f.getValue()));
            }
        }
        return sb.toString();
    }

    private static String pairs(Object repeated) {
        StringBuilder sb = new StringBuilder("[");
        for (Object o : (List<?>) repeated) {
            CanalEntry.Pair p = (CanalEntry.Pair) o;
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(p.getKey()).append('=').append(MASKED_PROPS.contains(p.getKey()) ? "*" : quoted(p.getValue()));
        }
        return sb.append(']').toString();
    }

    private static String scalar(Object value) {
        if (value instanceof String s) {
            return quoted(s);
        }
        if (value instanceof EnumValueDescriptor e) {
            return e.getName();
        }
        return String.valueOf(value);
    }

    static String quoted(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                        sb.append(String.format("\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
