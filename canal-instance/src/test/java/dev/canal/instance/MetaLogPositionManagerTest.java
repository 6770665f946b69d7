package dev.canal.instance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MetaLogPositionManagerTest {

    private static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);

    private final MemoryMetaManager meta = new MemoryMetaManager();
    private final MetaLogPositionManager positions = new MetaLogPositionManager(meta);

    @BeforeEach
    void start() {
        meta.start();
    }

    @Test
    void nothingKnownWithoutCursors() {
        meta.subscribe(new ClientIdentity("example", (short) 1));
        assertThat(positions.latest("example")).isNull();
    }

    @Test
    void smallestCursorOfTheSameSourceWinsByFileThenOffset() {
        LogPosition early = at(SOURCE, "mysql-bin.000002", 900, 3000);
        LogPosition late = at(SOURCE, "mysql-bin.000003", 4, 1000);
        cursor(1, late);
        cursor(2, early);
        cursor(3, null);

        assertThat(positions.latest("example")).isEqualTo(early);
        assertThat(positions.latest("other")).isNull();
    }

    @Test
    void cursorsOfDifferentSourcesCompareByTimestamp() {
        LogPosition olderOnStandby = at(LogIdentity.of("10.0.0.2", 3306), "mysql-bin.000009", 4, 1000);
        LogPosition newerOnMaster = at(SOURCE, "mysql-bin.000001", 4, 2000);
        cursor(1, newerOnMaster);
        cursor(2, olderOnStandby);

        assertThat(positions.latest("example")).isEqualTo(olderOnStandby);
    }

    @Test
    void persistChangesNothing() {
        LogPosition acked = at(SOURCE, "mysql-bin.000002", 900, 3000);
        cursor(1, acked);
        positions.persist("example", at(SOURCE, "mysql-bin.000005", 4, 9000));
        assertThat(positions.latest("example")).isEqualTo(acked);
    }

    private void cursor(int clientId, LogPosition position) {
        ClientIdentity client = new ClientIdentity("example", (short) clientId);
        meta.subscribe(client);
        if (position != null) {
            meta.updateCursor(client, position);
        }
    }

    private static LogPosition at(LogIdentity source, String file, long offset, long timestamp) {
        return new LogPosition(source, EntryPosition.of(file, offset, 1, timestamp));
    }
}
