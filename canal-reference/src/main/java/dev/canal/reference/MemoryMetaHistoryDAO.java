package dev.canal.reference;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaHistoryDAO;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaHistoryDO;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Objects;

/**
 * Canal's DDL history table ({@code meta_history}) kept in memory, for a {@code DatabaseTableMeta} that replays
 * DDL exactly as Canal's does, without the H2 or MySQL database and the deployer's MyBatis mapping files behind
 * the original DAO. Same contract as those mappings: a unique key on (destination, master id, file, offset) whose
 * violation is reported as MySQL words it (Canal ignores such duplicates), and history read in binlog-time order.
 */
final class MemoryMetaHistoryDAO extends MetaHistoryDAO {

    private final List<MetaHistoryDO> rows = new ArrayList<>();
    private long nextId = 1;

    @Override
    public synchronized Long insert(MetaHistoryDO row) {
        for (MetaHistoryDO r : rows) {
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
    public synchronized List<MetaHistoryDO> findByTimestamp(String destination, Long snapshotTimestamp,
            Long timestamp) {
        return rows.stream()
                .filter(r -> Objects.equals(r.getDestination(), destination))
                .filter(r -> r.getBinlogTimestamp() >= snapshotTimestamp && r.getBinlogTimestamp() <= timestamp)
                .sorted(Comparator.comparing(MetaHistoryDO::getBinlogTimestamp).thenComparing(MetaHistoryDO::getId))
                .toList();
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
