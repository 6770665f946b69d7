package dev.canal.sink;

import dev.canal.store.Event;
import dev.canal.store.EventStore;
import java.util.List;

/**
 * The sink of a group instance (Canal's GroupEventSink): several parsers, one per source, share one
 * store, and their batches enter it in event-time order. Each batch waits at a {@link TimelineBarrier}
 * keyed by the time of its last entry (Canal waits per entry, so the last one decides) until every
 * source has a batch waiting, then the earliest goes. A transaction stays in one piece.
 */
public class GroupEventSink extends EntryEventSink {

    private final TimelineBarrier barrier;

    public GroupEventSink(EventStore store, int groupSize, boolean filterTransactionEntry) {
        super(store, filterTransactionEntry);
        this.barrier = new TimelineBarrier(groupSize);
    }

    @Override
    public void start() {
        barrier.open();
        super.start();
    }

    @Override
    public void stop() {
        super.stop();
        barrier.close();
    }

    @Override
    protected boolean deliver(List<Event> events) throws InterruptedException {
        long time = events.get(events.size() - 1).executeTime();
        if (!barrier.await(time)) {
            return false;
        }
        try {
            return super.deliver(events);
        } finally {
            barrier.clear(time);
        }
    }
}
