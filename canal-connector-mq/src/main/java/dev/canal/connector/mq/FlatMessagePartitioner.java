package dev.canal.connector.mq;

import dev.canal.connector.mq.PartitionHashRules.ByColumns;
import dev.canal.connector.mq.PartitionHashRules.ByTable;
import dev.canal.connector.mq.PartitionHashRules.HashMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Spreads a flat message over partitions by {@code canal.mq.partitionHash}: rows are
 * grouped into one message per partition, {@code old} kept aligned with {@code data}.
 *
 * <p>A key change (an UPDATE whose hash columns had other values before) goes, as in Canal, to the new key's
 * partition only, so the old key's partition never learns that the key left it. With
 * {@code canal.mq.partitionHash.keyChangeToOldPartition} it also goes to the old key's partition when that is
 * another one: each partition then holds every change of each key that ever lived in it, in binlog order, for
 * both keys, and such a row is delivered twice.
 */
public final class FlatMessagePartitioner {

    private final PartitionHashRules rules;
    private final boolean databaseHash;
    private final boolean keyChangeToOldPartition;

    public FlatMessagePartitioner(PartitionHashRules rules, boolean databaseHash, boolean keyChangeToOldPartition) {
        this.rules = rules;
        this.databaseHash = databaseHash;
        this.keyChangeToOldPartition = keyChangeToOldPartition;
    }

    /** The message's share per partition, in partition order; DDL, row-less and unmatched messages go to 0. */
    public SortedMap<Integer, FlatMessage> split(FlatMessage message, int partitions) {
        SortedMap<Integer, FlatMessage> result = new TreeMap<>();
        Optional<HashMode> mode = message.isDdl() || message.data() == null
                ? Optional.empty() : rules.modeFor(message.database(), message.table());
        if (mode.isEmpty()) {
            result.put(0, message);
            return result;
        }
        if (mode.get() instanceof ByTable) {
            result.put(RowHash.tablePartition(message.table(), partitions), message);
            return result;
        }
        List<String> columns = mode.get() instanceof ByColumns byColumns ? byColumns.columns()
                : message.pkNames() == null ? List.of() : message.pkNames();
        Map<Integer, List<Map<String, String>>> rows = new HashMap<>();
        Map<Integer, List<Map<String, String>>> olds = new HashMap<>();
        List<Map<String, String>> data = message.data();
        List<Map<String, String>> old = message.old();
        for (int i = 0; i < data.size(); i++) {
            Map<String, String> row = data.get(i);
            Map<String, String> oldValues = old != null && i < old.size() ? old.get(i) : null;
            int partition = RowHash.partition(hash(message.database(), row, null, columns), partitions);
            add(rows, olds, partition, row, oldValues);
            if (oldValues != null && keyChangeToOldPartition) {
                int before = RowHash.partition(hash(message.database(), row, oldValues, columns), partitions);
                if (before != partition) {
                    add(rows, olds, before, row, oldValues);
                }
            }
        }
        rows.forEach((partition, share) -> result.put(partition, message.withRows(share, olds.get(partition))));
        return result;
    }

    private static void add(Map<Integer, List<Map<String, String>>> rows, Map<Integer, List<Map<String, String>>> olds,
            int partition, Map<String, String> row, Map<String, String> oldValues) {
        rows.computeIfAbsent(partition, p -> new ArrayList<>()).add(row);
        if (oldValues != null) {
            olds.computeIfAbsent(partition, p -> new ArrayList<>()).add(oldValues);
        }
    }

    /** The row hash; with {@code before} given, its values replace the row's (the row as it was). */
    private int hash(String schema, Map<String, String> row, Map<String, String> before, List<String> columns) {
        int h = RowHash.seed(schema, databaseHash);
        for (String column : columns) {
            String value = before != null && before.containsKey(column) ? before.get(column) : row.get(column);
            h ^= (value == null ? "" : value).hashCode();
        }
        return h;
    }
}
