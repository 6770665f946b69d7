package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.server.TestEntries;
import dev.canal.store.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

class SinkMetricsHandlerTest {

    private static final long NOW = 9_000_000;

    private final SinkMetricsHandler handler = new SinkMetricsHandler(() -> NOW);

    @Test
    void countsTransactionEndsAndKeepsTheLatestEventTime() {
        handler.before(events(TestEntries.transaction(100, 2)));
        handler.before(events(TestEntries.transaction(104, 1)));

        assertThat(handler.transactions()).isEqualTo(2);
        assertThat(handler.latestExecuteTime()).isEqualTo(106_000);
    }

    @Test
    void onlyAMasterHeartbeatCountsAsNow() {
        handler.before(events(TestEntries.transaction(100, 1)));
        handler.before(events(List.of(heartbeat(200, EventType.QUERY))));
        long afterOtherHeartbeat = handler.latestExecuteTime();
        handler.before(events(List.of(heartbeat(201, EventType.MHEARTBEAT))));

        assertThat(afterOtherHeartbeat).isEqualTo(102_000);
        assertThat(handler.latestExecuteTime()).isEqualTo(NOW);
        assertThat(handler.transactions()).isEqualTo(1);
    }

    @Test
    void passesTheEventsOnUnchanged() {
        List<Event> events = events(TestEntries.transaction(100, 1));

        assertThat(handler.before(events)).isSameAs(events);
    }

    private static CanalEntry.Entry heartbeat(long offset, EventType type) {
        CanalEntry.Entry entry = TestEntries.entry(offset, EntryType.HEARTBEAT, type);
        return entry.toBuilder().setHeader(entry.getHeader().toBuilder().setEventType(type)).build();
    }

    private static List<Event> events(List<CanalEntry.Entry> entries) {
        return entries.stream().map(e -> Event.of(TestEntries.SOURCE, e, true)).toList();
    }
}
