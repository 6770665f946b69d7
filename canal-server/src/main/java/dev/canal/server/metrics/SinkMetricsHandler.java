package dev.canal.server.metrics;

import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.sink.EventDownStreamHandler;
import dev.canal.store.Event;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Watches what a destination's sink accepts, before the store (added first among the sink's handlers so that it
 * sees heartbeats, which are never stored): the latest event time, for {@code canal_instance_traffic_delay}, and
 * the transactions ended, for {@code canal_instance_transactions}.
 */
final class SinkMetricsHandler implements EventDownStreamHandler {

    private final LongSupplier clock;
    private final AtomicLong latestExecuteTime = new AtomicLong();
    private final LongAdder transactions = new LongAdder();

    /** @param clock the current time in milliseconds, what a master heartbeat stands for */
    SinkMetricsHandler(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public List<Event> before(List<Event> events) {
        long latest = 0;
        for (Event event : events) {
            switch (event.entryType()) {
                case TRANSACTIONBEGIN, ROWDATA -> latest = Math.max(latest, event.executeTime());
                case TRANSACTIONEND -> {
                    latest = Math.max(latest, event.executeTime());
                    transactions.increment();
                }
                // the source is idle but alive: it is up to date as of now
                case HEARTBEAT -> latest = event.eventType() == EventType.MHEARTBEAT ? clock.getAsLong() : latest;
                default -> {
                }
            }
        }
        if (latest > 0) {
            latestExecuteTime.set(latest);
        }
        return events;
    }

    /** The latest event time seen in milliseconds, 0 before any. */
    public long latestExecuteTime() {
        return latestExecuteTime.get();
    }

    public long transactions() {
        return transactions.sum();
    }
}
