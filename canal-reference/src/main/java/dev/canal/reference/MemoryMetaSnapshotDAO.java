package dev.canal.reference;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaSnapshotDAO;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaSnapshotDO;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Objects;

/**
 * Canal's table-structure snapshot table ({@code meta_snapshot}) kept in memory; the companion of
 * {@link MemoryMetaHistoryDAO}, with the contract of the original mapping: the latest snapshot strictly before a
 * binlog time, a unique key on (destination, master id, file, offset), updates of the row with timestamp 0.
 */
final class MemoryMetaSnapshotDAO extends MetaSnapshotDAO {

    private final List<MetaSnapshotDO> rows = new ArrayList<>();
    private long nextId = 1;

    @Override
    public synchronized Long insert(MetaSnapshotDO row) {
        for (MetaSnapshotDO r : rows) {
            if (Objects.equals(r.getDestination(), row.getDestination())
                    && Objects.equals(r.getBinlogMasterId(), row.getBinlogMasterId())
                    && Objects.equals(r.getBinlogFile(), row.getBinlogFile())
                    && Objects.equals(r.getBinlogOffest(), row.getBinlogOffest())) {
                throw new IllegalStateException("Duplicate entry '" + row.getBinlogFile() + "-"
                        + row.getBinlogOffest() + "' for key 'binlog_file_offest'");
            }
        }
        row.setId(nextId++);
        row.setGmtCreate(new Date());
        row.setGmtModified(row.getGmtCreate());
        rows.add(row);
        return row.getId();
    }

    @Override
    public synchronized Long update(MetaSnapshotDO row) {
        long updated = 0;
        for (MetaSnapshotDO r : rows) {
            if (Objects.equals(r.getDestination(), row.getDestination()) && r.getBinlogTimestamp() == 0) {
                r.setBinlogFile(row.getBinlogFile());
                r.setBinlogOffest(row.getBinlogOffest());
                r.setBinlogMasterId(row.getBinlogMasterId());
                r.setBinlogTimestamp(row.getBinlogTimestamp());
                r.setData(row.getData());
                r.setExtra(row.getExtra());
                r.setGmtModified(new Date());
                updated++;
            }
        }
        return updated;
    }

    @Override
    public synchronized MetaSnapshotDO findByTimestamp(String destination, Long timestamp) {
        return rows.stream()
                .filter(r -> Objects.equals(r.getDestination(), destination) && r.getBinlogTimestamp() < timestamp)
                .max(Comparator.comparing(MetaSnapshotDO::getBinlogTimestamp).thenComparing(MetaSnapshotDO::getId))
                .orElse(null);
    }

    @Override
    public synchronized Integer deleteByName(String destination) {
        int before = rows.size();
        rows.removeIf(r -> Objects.equals(r.getDestination(), destination));
        return before - rows.size();
    }

    @Override
    public synchronized Integer deleteByTimestamp(String destination, int intervalSeconds) {
        long before = System.currentTimeMillis() - intervalSeconds * 1000L;
        int count = rows.size();
        rows.removeIf(r -> Objects.equals(r.getDestination(), destination) && r.getBinlogTimestamp() > 0
                && r.getBinlogTimestamp() < before);
        return count - rows.size();
    }

    @Override
    protected void initDao() {
        // nothing to create: the table is this object
    }
}
