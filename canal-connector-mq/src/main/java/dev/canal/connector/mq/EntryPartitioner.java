package dev.canal.connector.mq;

import dev.canal.connector.mq.PartitionHashRules.ByColumns;
import dev.canal.connector.mq.PartitionHashRules.ByPrimaryKey;
import dev.canal.connector.mq.PartitionHashRules.ByTable;
import dev.canal.connector.mq.PartitionHashRules.HashMode;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Spreads row entries over partitions by {@code canal.mq.partitionHash} for protobuf mode:
 * a hashed entry is cut into one entry per row. Hash columns are matched by name ignoring case; {@code $pk$}
 * takes the columns flagged as keys. A key change goes to the new key's partition, and to the old key's too when
 * asked, as in {@link FlatMessagePartitioner}.
 */
public final class EntryPartitioner {

    private final PartitionHashRules rules;
    private final boolean databaseHash;
    private final boolean keyChangeToOldPartition;

    public EntryPartitioner(PartitionHashRules rules, boolean databaseHash, boolean keyChangeToOldPartition) {
        this.rules = rules;
        this.databaseHash = databaseHash;
        this.keyChangeToOldPartition = keyChangeToOldPartition;
    }

    /** Entries per partition, in partition order and, inside a partition, in batch order. */
    public SortedMap<Integer, List<CanalEntry.Entry>> split(List<RowEntry> entries, int partitions) {
        SortedMap<Integer, List<CanalEntry.Entry>> result = new TreeMap<>();
        for (RowEntry entry : entries) {
            CanalEntry.RowChange change = entry.rowChange();
            Optional<HashMode> mode = change.getIsDdl() || change.getRowDatasCount() == 0
                    ? Optional.empty() : rules.modeFor(entry.schema(), entry.table());
            if (mode.isEmpty()) {
                add(result, 0, entry.entry());
            } else if (mode.get() instanceof ByTable) {
                add(result, RowHash.tablePartition(entry.table(), partitions), entry.entry());
            } else {
                for (CanalEntry.RowData row : change.getRowDatasList()) {
                    CanalEntry.Entry single = entry.withSingleRow(row);
                    boolean delete = change.getEventType() == EventType.DELETE;
                    List<CanalEntry.Column> image = delete ? row.getBeforeColumnsList() : row.getAfterColumnsList();
                    int partition = RowHash.partition(hash(entry.schema(), image, mode.get()), partitions);
                    add(result, partition, single);
                    if (keyChangeToOldPartition && change.getEventType() == EventType.UPDATE
                            && row.getBeforeColumnsCount() > 0) {
                        int before = RowHash.partition(hash(entry.schema(), row.getBeforeColumnsList(), mode.get()),
                                partitions);
                        if (before != partition) {
                            add(result, before, single);
                        }
                    }
                }
            }
        }
        return result;
    }

    private int hash(String schema, List<CanalEntry.Column> columns, HashMode mode) {
        int h = RowHash.seed(schema, databaseHash);
        for (CanalEntry.Column column : columns) {
            boolean hashed = mode instanceof ByColumns byColumns
                    ? byColumns.columns().stream().anyMatch(c -> c.equalsIgnoreCase(column.getName()))
                    : mode instanceof ByPrimaryKey && column.getIsKey();
            if (hashed) {
                h ^= column.getValue().hashCode();
            }
        }
        return h;
    }

    private static void add(SortedMap<Integer, List<CanalEntry.Entry>> result, int partition, CanalEntry.Entry entry) {
        result.computeIfAbsent(partition, p -> new ArrayList<>()).add(entry);
    }
}
