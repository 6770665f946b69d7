package dev.canal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.position.LogPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Named consumers over one ring: own pointers, the ring kept for the slowest, laggards detached. */
class StoreConsumersTest {

    private final List<MemoryEventStore> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(MemoryEventStore::stop);
    }

    private MemoryEventStore store(int size, long detachAfterMillis) {
        MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(size), new ConsumerConfig(detachAfterMillis));
        store.start();
        started.add(store);
        return store;
    }

    private static List<Event> rows(long fromId, long toId) {
        return LongStream.rangeClosed(fromId, toId).mapToObj(TestEvents::row).toList();
    }

    private static List<Long> ids(Events batch) {
        return batch.events().stream().map(Event::logfileOffset).toList();
    }

    private static void ackAll(StoreConsumer consumer, Events batch) {
        consumer.ack(batch.range().end(), batch.range().endSeq());
    }

    @Test
    void eachConsumerReadsEveryEntryAtItsOwnPace() throws InterruptedException {
        MemoryEventStore store = store(16, 0);
        StoreConsumer fast = store.attach("fast", null);
        StoreConsumer slow = store.attach("slow", null);
        store.put(rows(1, 6));

        Events fastBatch = fast.tryGet(6);
        ackAll(fast, fastBatch);
        Events slowFirst = slow.tryGet(2);

        assertThat(ids(fastBatch)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(ids(slowFirst)).containsExactly(1L, 2L);
        assertThat(ids(store.tryGet(3))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void rollbackOfOneConsumerRedeliversOnlyToIt() throws InterruptedException {
        MemoryEventStore store = store(16, 0);
        StoreConsumer a = store.attach("a", null);
        StoreConsumer b = store.attach("b", null);
        store.put(rows(1, 4));
        a.tryGet(2);
        Events bFirst = b.tryGet(2);

        a.rollback();

        assertThat(ids(a.tryGet(4))).containsExactly(1L, 2L, 3L, 4L);
        assertThat(ids(b.tryGet(4))).containsExactly(3L, 4L);
        ackAll(b, bFirst);
    }

    @Test
    void ringIsKeptUntilTheSlowestConsumerAcks() throws InterruptedException {
        MemoryEventStore store = store(4, 0);
        StoreConsumer fast = store.attach("fast", null);
        store.put(rows(1, 4));
        ackAll(fast, fast.tryGet(4));

        assertThat(store.tryPut(rows(5, 5))).as("the default consumer acked nothing").isFalse();

        ackAll(store.consumer(""), store.tryGet(2));
        assertThat(store.tryPut(rows(5, 6))).isTrue();
        assertThat(store.tryPut(rows(7, 7))).isFalse();
    }

    @Test
    void slowestConsumerIsDetachedAfterTheTimeoutAndToldOnItsNextGet() throws Exception {
        MemoryEventStore store = store(4, 200);
        StoreConsumer fast = store.attach("fast", null);
        StoreConsumer slow = store.attach("slow", null);
        store.put(rows(1, 4));
        ackAll(fast, fast.tryGet(4));
        ackAll(store.consumer(""), store.tryGet(4));
        slow.tryGet(1); // takes one batch, never acks

        long started = System.nanoTime();
        CompletableFuture<Void> put = CompletableFuture.runAsync(() -> putQuietly(store, rows(5, 8)));
        put.get(5, TimeUnit.SECONDS);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(150);
        assertThat(ids(fast.tryGet(8))).containsExactly(5L, 6L, 7L, 8L);
        assertThatThrownBy(() -> slow.tryGet(1)).isInstanceOf(ConsumerDetachedException.class)
                .hasMessageContaining("consumer slow was detached").hasMessageContaining("behind");
        assertThat(store.consumerCounters()).filteredOn(ConsumerCounters::detached)
                .extracting(ConsumerCounters::consumer).containsExactly("slow");
    }

    @Test
    void aLoneConsumerIsNeverDetachedButHoldsTheProducerBack() throws Exception {
        MemoryEventStore store = store(4, 100);
        store.put(rows(1, 4));

        assertThat(store.put(rows(5, 5), 400, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(ids(store.tryGet(4))).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void consumerAttachedWithACursorSkipsWhatItAckedBefore() throws InterruptedException {
        MemoryEventStore store = store(16, 0);
        store.put(rows(1, 5));
        LogPosition acked = TestEvents.row(3).toLogPosition(false);

        StoreConsumer resumed = store.attach("resumed", acked);

        assertThat(ids(resumed.tryGet(10))).containsExactly(4L, 5L);
    }

    @Test
    void consumerWhoseCursorWasFreedIsAttachedDetached() throws InterruptedException {
        MemoryEventStore store = store(16, 0);
        store.put(rows(1, 5));
        ackAll(store.consumer(""), store.tryGet(5));

        StoreConsumer late = store.attach("late", TestEvents.row(2).toLogPosition(false));

        assertThatThrownBy(() -> late.tryGet(1)).isInstanceOf(ConsumerDetachedException.class)
                .hasMessageContaining("lies before the oldest entry");
    }

    @Test
    void detachingAConsumerFreesWhatOnlyItHeld() throws InterruptedException {
        MemoryEventStore store = store(4, 0);
        store.attach("gone", null);
        store.put(rows(1, 4));
        ackAll(store.consumer(""), store.tryGet(4));
        assertThat(store.tryPut(rows(5, 5))).isFalse();

        store.detach("gone");

        assertThat(store.tryPut(rows(5, 8))).isTrue();
        assertThat(store.consumer("gone")).isNull();
    }

    @Test
    void lagCountsEntriesAndBinlogTimeNotAcked() throws InterruptedException {
        MemoryEventStore store = store(16, 0);
        StoreConsumer behind = store.attach("behind", null);
        store.put(rows(1, 10));
        ackAll(behind, behind.tryGet(4));

        ConsumerCounters counters = store.consumerCounters().stream()
                .filter(c -> c.consumer().equals("behind")).findFirst().orElseThrow();

        assertThat(counters.lagEntries()).isEqualTo(6);
        assertThat(counters.lagMillis()).isEqualTo(10 - 4);
    }

    @Test
    void defaultConsumerNobodySubscribedHoldsNothingAndIsAttachedAgainAtTheOldestEntryHeld()
            throws InterruptedException {
        MemoryEventStore store = store(4, 0);
        StoreConsumer named = store.attach("named", null);
        store.detach("");
        store.put(rows(1, 4));
        ackAll(named, named.tryGet(2));

        assertThat(store.tryPut(rows(5, 6))).as("only the named consumer holds the ring").isTrue();
        assertThatThrownBy(() -> store.tryGet(1)).isInstanceOf(ConsumerDetachedException.class);

        store.attach("", null);
        assertThat(ids(store.tryGet(10))).containsExactly(3L, 4L, 5L, 6L);
    }

    private static void putQuietly(MemoryEventStore store, List<Event> events) {
        try {
            store.put(events);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
