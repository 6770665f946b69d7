package dev.canal.reference;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaSnapshotDAO;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaSnapshotDO;
import java.util.Comparator;
import java.util.Date;
import java.util.Objects;

/**
 * Canal's table-structure snapshot table ({@code meta_snapshot}) kept in memory; the companion of
 * {@link MemoryMetaHistoryDAO}, with the contract of the original mapping: the latest snapshot strictly before a
 * binlog time, a unique key on (destination, master id, file, offset), updates of the row with timestamp 0.
 */
final class MemoryMetaSnapshotDAO extends MetaSnapshotDAO {

    private final MemoryTable<MetaSnapshotDO> table = new MemoryTable<>(new MemoryTable.Columns<>(
            MetaSnapshotDO::getDestination, MetaSnapshotDO::getBinlogMasterId, MetaSnapshotDO::getBinlogFile,
            MetaSnapshotDO::getBinlogOffest, MetaSnapshotDO::getBinlogTimestamp, MetaSnapshotDO::setId,
            MetaSnapshotDO::setGmtCreate, MetaSnapshotDO::setGmtModified));

    @Override
    public Long insert(MetaSnapshotDO row) {
        return table.insert(row);
    }

    @Override
    public Long update(MetaSnapshotDO row) {
        return table.read(rows -> {
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
        });
    }

    @Override
    public MetaSnapshotDO findByTimestamp(String destination, Long timestamp) {
        return table.read(rows -> rows.stream()
                .filter(r -> Objects.equals(r.getDestination(), destination) && r.getBinlogTimestamp() < timestamp)
                .max(Comparator.comparing(MetaSnapshotDO::getBinlogTimestamp).thenComparing(MetaSnapshotDO::getId))
                .orElse(null));
    }

    @Override
    public Integer deleteByName(String destination) {
        return table.deleteByName(destination);
    }

    @Override
    public Integer deleteByTimestamp(String destination, int intervalSeconds) {
        return table.deleteByTimestamp(destination, intervalSeconds);
    }

    @Override
    protected void initDao() {
        // nothing to create: the table is this object
    }
}
