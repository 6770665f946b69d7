package dev.canal.reference;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaHistoryDAO;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaHistoryDO;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Canal's DDL history table ({@code meta_history}) kept in memory, for a {@code DatabaseTableMeta} that replays
 * DDL exactly as Canal's does, without the H2 or MySQL database and the deployer's MyBatis mapping files behind
 * the original DAO. Same contract as those mappings: a unique key on (destination, master id, file, offset) whose
 * violation is reported as MySQL words it (Canal ignores such duplicates), and history read in binlog-time order.
 */
final class MemoryMetaHistoryDAO extends MetaHistoryDAO {

    private final MemoryTable<MetaHistoryDO> table = new MemoryTable<>(new MemoryTable.Columns<>(
            MetaHistoryDO::getDestination, MetaHistoryDO::getBinlogMasterId, MetaHistoryDO::getBinlogFile,
            MetaHistoryDO::getBinlogOffest, MetaHistoryDO::getBinlogTimestamp, MetaHistoryDO::setId,
            MetaHistoryDO::setGmtCreate, MetaHistoryDO::setGmtModified));

    @Override
    public Long insert(MetaHistoryDO row) {
        return table.insert(row);
    }

    @Override
    public List<MetaHistoryDO> findByTimestamp(String destination, Long snapshotTimestamp, Long timestamp) {
        return table.read(rows -> rows.stream()
                .filter(r -> Objects.equals(r.getDestination(), destination))
                .filter(r -> r.getBinlogTimestamp() >= snapshotTimestamp && r.getBinlogTimestamp() <= timestamp)
                .sorted(Comparator.comparing(MetaHistoryDO::getBinlogTimestamp).thenComparing(MetaHistoryDO::getId))
                .toList());
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
