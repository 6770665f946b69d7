package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsumerFilterTest {

    private static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);

    private static Event entry(long offset, EntryType type, String schema, String table) {
        CanalEntry.Header header = CanalEntry.Header.newBuilder().setLogfileName("mysql-bin.000001")
                .setLogfileOffset(offset).setExecuteTime(offset).setSchemaName(schema).setTableName(table).build();
        return Event.of(SOURCE, CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(type).build(), true);
    }

    @Test
    void namedConsumersFilterKeepsItsTablesAndTransactionBoundariesOnly() {
        List<Event> batch = List.of(entry(1, EntryType.TRANSACTIONBEGIN, "", ""),
                entry(2, EntryType.ROWDATA, "shop", "orders"), entry(3, EntryType.ROWDATA, "shop", "users"),
                entry(4, EntryType.ROWDATA, "audit", "log"), entry(5, EntryType.TRANSACTIONEND, "", ""));

        List<Event> passed = ConsumerFilter.apply("shop\\.orders,audit\\..*", batch);

        assertThat(passed).extracting(Event::logfileOffset).containsExactly(1L, 2L, 4L, 5L);
    }

    @Test
    void blankFilterPassesEverything() {
        List<Event> batch = List.of(entry(1, EntryType.ROWDATA, "a", "b"));

        assertThat(ConsumerFilter.apply("", batch)).isSameAs(batch);
    }
}
