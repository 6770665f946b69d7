package dev.canal.reference;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.DatabaseTableMeta;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.TableMetaTSDB;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.TableMetaTSDBFactory;

/**
 * Gives each parser Canal's own {@link DatabaseTableMeta} (the table-meta TSDB: a snapshot of the filtered
 * tables at the start position, then every DDL replayed in binlog order) over in-memory tables. Without a TSDB
 * Canal decodes every row with the table as it is at the time of decoding, which differs from the deployer's
 * default (TSDB on, in H2) whenever a DDL lies between the start position and now.
 */
final class MemoryTableMetaTSDBFactory implements TableMetaTSDBFactory {

    @Override
    public TableMetaTSDB build(String destination, String springXml) {
        DatabaseTableMeta meta = new DatabaseTableMeta();
        meta.setMetaHistoryDAO(new MemoryMetaHistoryDAO());
        meta.setMetaSnapshotDAO(new MemoryMetaSnapshotDAO());
        return meta;
    }

    @Override
    public void destory(String destination) {
        // the parser destroys the TableMetaTSDB itself; the in-memory tables go with it
    }
}
