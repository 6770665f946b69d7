package dev.canal.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.DatabaseTableMeta;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaHistoryDO;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.dao.MetaSnapshotDO;
import org.junit.jupiter.api.Test;

/** The in-memory TSDB tables keep the contract Canal's DatabaseTableMeta relies on. */
class MemoryTsdbTablesTest {

    private static MetaHistoryDO history(String file, long offset, long timestamp) {
        MetaHistoryDO row = new MetaHistoryDO();
        row.setDestination("d");
        row.setBinlogMasterId("1");
        row.setBinlogFile(file);
        row.setBinlogOffest(offset);
        row.setBinlogTimestamp(timestamp);
        row.setSqlText("ALTER TABLE t ADD c" + offset + " INT");
        return row;
    }

    private static MetaSnapshotDO snapshot(long offset, long timestamp) {
        MetaSnapshotDO row = new MetaSnapshotDO();
        row.setDestination("d");
        row.setBinlogMasterId("1");
        row.setBinlogFile("f");
        row.setBinlogOffest(offset);
        row.setBinlogTimestamp(timestamp);
        row.setData("{}");
        return row;
    }

    @Test
    void aDuplicateHistoryRowFailsAsCanalRecognisesADuplicate() {
        MemoryMetaHistoryDAO dao = new MemoryMetaHistoryDAO();
        dao.insert(history("f", 100, 10));

        Throwable duplicate = catchThrowable(() -> dao.insert(history("f", 100, 10)));

        assertThat(new DatabaseTableMeta().isUkDuplicateException(duplicate)).isTrue();
    }

    @Test
    void historyIsReadInBinlogTimeOrderWithinTheRange() {
        MemoryMetaHistoryDAO dao = new MemoryMetaHistoryDAO();
        dao.insert(history("f", 300, 30));
        dao.insert(history("f", 100, 10));
        dao.insert(history("f", 200, 20));
        dao.insert(history("f", 400, 40));

        assertThat(dao.findByTimestamp("d", 10L, 30L)).extracting(MetaHistoryDO::getBinlogOffest)
                .containsExactly(100L, 200L, 300L);
        assertThat(dao.findByTimestamp("other", 0L, 100L)).isEmpty();
    }

    @Test
    void theSnapshotFoundIsTheLatestStrictlyBeforeTheTime() {
        MemoryMetaSnapshotDAO dao = new MemoryMetaSnapshotDAO();
        dao.insert(snapshot(0, -2));
        dao.insert(snapshot(100, 10));
        dao.insert(snapshot(200, 20));

        assertThat(dao.findByTimestamp("d", 20L).getBinlogOffest()).isEqualTo(100L);
        assertThat(dao.findByTimestamp("d", 0L).getBinlogOffest()).isEqualTo(0L);
        assertThat(dao.findByTimestamp("other", 100L)).isNull();
    }
}
