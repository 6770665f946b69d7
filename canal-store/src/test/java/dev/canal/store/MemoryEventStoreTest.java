package dev.canal.store;

import static dev.canal.store.TestEvents.begin;
import static dev.canal.store.TestEvents.ddl;
import static dev.canal.store.TestEvents.end;
import static dev.canal.store.TestEvents.row;
import static dev.canal.store.TestEvents.sized;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.position.LogPosition;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MemoryEventStoreTest {

    private final List<MemoryEventStore> started = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    @AfterEach
    void stopAll() throws InterruptedException {
        started.forEach(MemoryEventStore::stop);
        for (Thread thread : threads) {
            thread.join(5_000);
        }
    }

    private MemoryEventStore store(StoreConfig config) {
        MemoryEventStore store = new MemoryEventStore(config);
        store.start();
        started.add(store);
        return store;
    }

    private MemoryEventStore itemStore(int size) {
        return store(StoreConfig.itemSize(size));
    }

    private static List<Event> events(long fromId, long toId) {
        return events(fromId, toId, TestEvents::row);
    }

    private static List<Event> events(long fromId, long toId, LongFunction<Event> factory) {
        return LongStream.rangeClosed(fromId, toId).mapToObj(factory).toList();
    }

    private static List<Long> ids(Events batch) {
        return batch.events().stream().map(Event::logfileOffset).toList();
    }

    private <T> CompletableFuture<T> inThread(java.util.concurrent.Callable<T> task, Thread[] holder) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "store-test-worker");
        holder[0] = thread;
        threads.add(thread);
        thread.start();
        return result;
    }

    /** Starts putting {@code events} into a full store on a thread of its own; returns once that put waits. */
    private CompletableFuture<Boolean> blockedPut(MemoryEventStore store, List<Event> events) {
        Thread[] producer = new Thread[1];
        CompletableFuture<Boolean> put = inThread(() -> {
            store.put(events);
            return true;
        }, producer);
        awaitWaiting(producer[0]);
        return put;
    }

    private static void awaitWaiting(Thread thread) {
        await().atMost(Duration.ofSeconds(5)).until(() -> thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING);
    }

    private static void ack(EventStore store, Events batch) {
        store.ack(batch.range().end(), batch.range().endSeq());
    }

    @Nested
    class Configuration {

        @Test
        void bufferSizeMustBeAPowerOfTwo() {
            assertThatThrownBy(() -> StoreConfig.itemSize(1000))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("canal.instance.memory.buffer.size").hasMessageContaining("must be a power of 2");
            assertThatThrownBy(() -> StoreConfig.itemSize(0)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void propertiesUseShippedDefaultsWhenBlank() {
            Properties props = new Properties();
            props.setProperty(StoreConfig.BUFFER_SIZE.name(), "  ");

            assertThat(StoreConfig.fromProperties(props)).isEqualTo(StoreConfig.defaults());
            assertThat(StoreConfig.defaults())
                    .isEqualTo(new StoreConfig(16384, 1024, BatchMode.MEMSIZE, false, true));
        }

        @Test
        void propertiesAreReadTrimmedAndCaseInsensitive() {
            Properties props = new Properties();
            props.setProperty(StoreConfig.BUFFER_SIZE.name(), " 1024 ");
            props.setProperty(StoreConfig.BUFFER_MEM_UNIT.name(), "512");
            props.setProperty(StoreConfig.BATCH_MODE.name(), "itemSize");
            props.setProperty(StoreConfig.DDL_ISOLATION.name(), "TRUE");
            props.setProperty(StoreConfig.RAW_ENTRY.name(), "false");

            assertThat(StoreConfig.fromProperties(props))
                    .isEqualTo(new StoreConfig(1024, 512, BatchMode.ITEMSIZE, true, false));
        }

        @Test
        void invalidPropertyValueNamesTheKey() {
            Properties props = new Properties();
            props.setProperty(StoreConfig.BATCH_MODE.name(), "BYTES");

            assertThatThrownBy(() -> StoreConfig.fromProperties(props))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(StoreConfig.BATCH_MODE.name());
        }
    }

    @Nested
    class Put {

        @Test
        void putBlocksWhenFullUntilAnAckFreesSlots() throws Exception {
            MemoryEventStore store = itemStore(8);
            store.put(events(0, 7));
            Events batch = store.get(3);
            CompletableFuture<Boolean> blockedPut = blockedPut(store, events(8, 10));
            assertThat(blockedPut).isNotDone();
            assertThat(store.counters().putSequence()).isEqualTo(7);

            ack(store, batch);

            assertThat(blockedPut.get(5, TimeUnit.SECONDS)).isTrue();
            assertThat(store.counters().putSequence()).isEqualTo(10);
            assertThat(store.counters().putBlockingNanos()).isPositive();
            assertThat(ids(store.get(8))).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        }

        @Test
        void aWaitingPutIsWokenOnlyOnceAQuarterOfTheStoreIsFree() throws Exception {
            MemoryEventStore store = itemStore(8);
            store.put(events(0, 7));
            Events first = store.get(1);
            Events second = store.get(1);
            CompletableFuture<Boolean> blockedPut = blockedPut(store, events(8, 8));

            ack(store, first); // one slot of eight: the producer sleeps on
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !blockedPut.isDone());

            ack(store, second);
            assertThat(blockedPut.get(5, TimeUnit.SECONDS)).isTrue();
            assertThat(store.counters().putSequence()).isEqualTo(8);
        }

        @Test
        @Timeout(value = 30, unit = TimeUnit.SECONDS)
        void aGetForALargerBatchTakesWhatThereIsWhileAPutWaitsForRoom() throws Exception {
            MemoryEventStore store = itemStore(8);
            store.put(events(0, 7));
            ack(store, store.get(2)); // six of eight slots taken: not full, yet no room for three
            CompletableFuture<Boolean> blockedPut = blockedPut(store, events(8, 10));

            Events rest = store.get(100); // waits for nothing: the put cannot go on until this is acked
            assertThat(ids(rest)).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);

            ack(store, rest);
            assertThat(blockedPut.get(5, TimeUnit.SECONDS)).isTrue();
        }

        @Test
        void blockingTimeCountsAWaitWhileItLasts() throws Exception {
            MemoryEventStore store = itemStore(4);
            store.put(events(0, 3));
            Events batch = store.get(4);
            CompletableFuture<Boolean> blockedPut = blockedPut(store, events(4, 4));

            long first = store.counters().putBlockingNanos();
            await().atMost(5, TimeUnit.SECONDS).until(() -> store.counters().putBlockingNanos() > first);
            assertThat(blockedPut).isNotDone();

            ack(store, batch);
            assertThat(blockedPut.get(5, TimeUnit.SECONDS)).isTrue();
            long done = store.counters().putBlockingNanos();
            assertThat(done).isGreaterThan(first);
            assertThat(store.counters().putBlockingNanos()).as("no wait is running any more").isEqualTo(done);
        }

        @Test
        void handedOutButUnackedEventsStillOccupyTheirSlots() throws Exception {
            MemoryEventStore store = itemStore(4);
            store.put(events(0, 3));
            store.get(4);

            assertThat(store.tryPut(events(4, 4))).isFalse();
            assertThat(store.put(events(4, 4), 20, TimeUnit.MILLISECONDS)).isFalse();
        }

        @Test
        void ackFreesExactlyTheAckedSlots() throws Exception {
            MemoryEventStore store = itemStore(4);
            store.put(events(0, 3));
            ack(store, store.get(2));

            assertThat(store.tryPut(events(4, 6))).isFalse();
            assertThat(store.tryPut(events(4, 5))).isTrue();
        }

        @Test
        void anEmptyPutNeverWaitsEvenWhenTheStoreIsFull() throws Exception {
            MemoryEventStore store = store(new StoreConfig(4, 1, BatchMode.MEMSIZE, false, true));
            store.put(List.of(sized(0, 10)));

            assertThat(store.tryPut(List.of(sized(1, 1)))).isFalse();
            store.put(List.of());
            assertThat(store.counters().putSequence()).isZero();
        }

        @Test
        void aPutLargerThanTheStoreIsRejected() {
            MemoryEventStore store = itemStore(4);

            assertThatThrownBy(() -> store.put(events(0, 4)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bufferSize 4");
        }

        @Test
        void memsizeModeLimitsUnackedBytes() throws Exception {
            // 16 slots × 10 bytes = 160 bytes: a put is allowed while fewer than 160 unacked bytes are held
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, false, true));
            store.put(List.of(sized(0, 100), sized(1, 59)));

            assertThat(store.tryPut(List.of(sized(2, 50)))).isTrue();
            assertThat(store.tryPut(List.of(sized(3, 1)))).isFalse();

            Events first = store.get(10);
            assertThat(ids(first)).containsExactly(0L, 1L);
            store.ack(first.events().get(0).toLogPosition(false), 0);

            assertThat(store.tryPut(List.of(sized(3, 1)))).isTrue();
            assertThat(store.counters().putMemSize()).isEqualTo(210);
            assertThat(store.counters().ackMemSize()).isEqualTo(100);
        }

        @Test
        void stopWakesABlockedProducerWithAnError() throws Exception {
            MemoryEventStore store = itemStore(2);
            store.put(events(0, 1));
            CompletableFuture<Boolean> blockedPut = blockedPut(store, events(2, 2));

            store.stop();

            assertThatThrownBy(() -> blockedPut.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not started");
        }

        @Test
        void operationsOnAStoppedStoreFail() {
            MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(4));

            assertThatThrownBy(() -> store.tryPut(events(0, 0))).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> store.tryGet(1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Nested
    class Get {

        @Test
        void itemsizeGetTakesAtMostBatchSizeEventsInOrder() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 9));

            assertThat(ids(store.tryGet(4))).containsExactly(0L, 1L, 2L, 3L);
            assertThat(ids(store.tryGet(4))).containsExactly(4L, 5L, 6L, 7L);
            assertThat(ids(store.tryGet(4))).containsExactly(8L, 9L);
            assertThat(store.tryGet(4).isEmpty()).isTrue();
        }

        @Test
        void memsizeGetTakesEventsWhileTheTakenBytesStayWithinTheUnitsPlusOneEvent() {
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, false, true));
            store.tryPut(events(0, 9, id -> sized(id, 4)));

            // 2 units = 20 bytes: events are added while the sum so far is <= 20, so 6 events (24 bytes)
            assertThat(ids(store.tryGet(2))).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            assertThat(store.counters().getMemSize()).isEqualTo(24);
        }

        @Test
        void memsizeGetAlwaysTakesAtLeastOneEvent() {
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, false, true));
            store.tryPut(List.of(sized(0, 1000), sized(1, 1)));

            assertThat(ids(store.tryGet(1))).containsExactly(0L);
        }

        @Test
        void tryGetOnAnEmptyStoreReturnsAnEmptyBatchWithoutRange() {
            Events batch = itemStore(4).tryGet(10);

            assertThat(batch.isEmpty()).isTrue();
            assertThat(batch.range()).isNull();
        }

        @Test
        void getWithTimeoutReturnsWhatIsThereWhenTheTimeoutExpires() throws Exception {
            MemoryEventStore store = itemStore(16);
            store.put(events(0, 1));

            assertThat(ids(store.get(5, 30, TimeUnit.MILLISECONDS))).containsExactly(0L, 1L);
            assertThat(store.get(5, 30, TimeUnit.MILLISECONDS).isEmpty()).isTrue();
        }

        @Test
        void getWithTimeoutReturnsAsSoonAsEnoughArrives() throws Exception {
            MemoryEventStore store = itemStore(16);
            Thread[] consumer = new Thread[1];
            CompletableFuture<Events> waiting = inThread(() -> store.get(3, 1, TimeUnit.HOURS), consumer);
            awaitWaiting(consumer[0]);

            store.put(events(0, 1));
            assertThat(waiting).isNotDone();
            store.put(events(2, 4));

            assertThat(ids(waiting.get(5, TimeUnit.SECONDS))).containsExactly(0L, 1L, 2L);
        }

        @Test
        void blockingGetWaitsUntilBatchSizeEventsArePut() throws Exception {
            MemoryEventStore store = itemStore(16);
            store.put(events(0, 1));
            Thread[] consumer = new Thread[1];
            CompletableFuture<Events> waiting = inThread(() -> store.get(3), consumer);
            awaitWaiting(consumer[0]);
            assertThat(waiting).isNotDone();

            store.put(events(2, 2));

            assertThat(ids(waiting.get(5, TimeUnit.SECONDS))).containsExactly(0L, 1L, 2L);
        }

        @Test
        void blockingGetLargerThanTheStoreReturnsOnceTheStoreIsFull() throws Exception {
            MemoryEventStore store = itemStore(4);
            store.put(events(0, 3));

            assertThat(ids(store.get(100))).containsExactly(0L, 1L, 2L, 3L);
        }

        @Test
        void blockingGetInMemsizeWaitsForBatchSizeUnitsNotYetTaken() throws Exception {
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, false, true));
            store.put(List.of(sized(0, 15)));
            Thread[] consumer = new Thread[1];
            CompletableFuture<Events> waiting = inThread(() -> store.get(2), consumer);
            awaitWaiting(consumer[0]);

            store.put(List.of(sized(1, 5)));

            assertThat(ids(waiting.get(5, TimeUnit.SECONDS))).containsExactly(0L, 1L);
        }

        @Test
        void stopWakesABlockedConsumerWithAnError() throws Exception {
            MemoryEventStore store = itemStore(4);
            Thread[] consumer = new Thread[1];
            CompletableFuture<Events> waiting = inThread(() -> store.get(1), consumer);
            awaitWaiting(consumer[0]);

            store.stop();

            assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalStateException.class);
        }

        @Test
        void ddlIsolationEndsABatchBeforeADdl() {
            MemoryEventStore store = store(StoreConfig.itemSize(16).withDdlIsolation(true));
            store.tryPut(List.of(row(0), row(1), ddl(2), row(3)));

            assertThat(ids(store.tryGet(10))).containsExactly(0L, 1L);
            assertThat(ids(store.tryGet(10))).containsExactly(2L);
            assertThat(ids(store.tryGet(10))).containsExactly(3L);
        }

        @Test
        void ddlIsolationAlsoAppliesInMemsizeMode() {
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, true, true));
            store.tryPut(List.of(ddl(0), row(1)));

            assertThat(ids(store.tryGet(10))).containsExactly(0L);
            assertThat(ids(store.tryGet(10))).containsExactly(1L);
        }

        @Test
        void withoutDdlIsolationDdlsShareBatches() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(List.of(row(0), ddl(1), row(2)));

            assertThat(ids(store.tryGet(10))).containsExactly(0L, 1L, 2L);
        }

        @Test
        void batchRangeSpansFirstToLastEventWithEndSequence() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 5));
            store.tryGet(2);

            Events batch = store.tryGet(3);

            assertThat(batch.range().start()).isEqualTo(row(2).toLogPosition(false));
            assertThat(batch.range().end()).isEqualTo(row(4).toLogPosition(false));
            assertThat(batch.range().endSeq()).isEqualTo(4);
            assertThat(batch.range().start().position().included()).isFalse();
        }
    }

    @Nested
    class AckPoint {

        private LogPosition ackPointOf(List<Event> events) {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events);
            return store.tryGet(16).range().ack();
        }

        @Test
        void lastTransactionEndIsTheAckPoint() {
            assertThat(ackPointOf(List.of(begin(0, ""), row(1), end(2), begin(3, ""), row(4), end(5), row(6))))
                    .isEqualTo(end(5).toLogPosition(false));
        }

        @Test
        void aDdlIsAnAckPoint() {
            assertThat(ackPointOf(List.of(end(0), ddl(1), row(2)))).isEqualTo(ddl(1).toLogPosition(false));
        }

        @Test
        void aBeginWithoutGtidIsAnAckPoint() {
            assertThat(ackPointOf(List.of(row(0), end(1), begin(2, ""), row(3))))
                    .isEqualTo(begin(2, "").toLogPosition(false));
        }

        @Test
        void aBeginWithGtidIsNotAnAckPoint() {
            assertThat(ackPointOf(List.of(row(0), end(1), begin(2, "uuid:1-9"), row(3))))
                    .isEqualTo(end(1).toLogPosition(false));
        }

        @Test
        void aBatchOfRowsOnlyHasNoAckPoint() {
            assertThat(ackPointOf(List.of(row(0), row(1)))).isNull();
        }
    }

    @Nested
    class AckAndRollback {

        @Test
        void anAckedEntryIsNotKeptOnceFreed() {
            MemoryEventStore store = itemStore(16);
            WeakReference<Event> acked = putGetAndAckTheSecondOfFour(store);

            await().atMost(Duration.ofSeconds(10)).until(() -> {
                System.gc();
                return acked.get() == null;
            });
            assertThat(store.getFirstPosition().position().position()).as("the ack point is still known").isEqualTo(1L);
        }

        /** Puts four entries in one put, acks the first two; a weak reference to the second, the last acked. */
        private WeakReference<Event> putGetAndAckTheSecondOfFour(MemoryEventStore store) {
            List<Event> put = List.of(begin(0, ""), sized(1, 1 << 20), row(2), end(3));
            store.tryPut(put);
            ack(store, store.tryGet(2));
            return new WeakReference<>(put.get(1));
        }

        @Test
        void rollbackRedeliversEveryUnackedEventInTheSameOrder() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 9));
            ack(store, store.tryGet(2));
            Events second = store.tryGet(3);
            Events third = store.tryGet(3);

            store.rollback();

            List<Long> again = ids(store.tryGet(16));
            assertThat(again).containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(again.subList(0, 6)).containsExactlyElementsOf(
                    java.util.stream.Stream.concat(ids(second).stream(), ids(third).stream()).toList());
        }

        @Test
        void rollbackRestoresTheMemoryTakenCount() {
            MemoryEventStore store = store(new StoreConfig(16, 10, BatchMode.MEMSIZE, false, true));
            store.tryPut(events(0, 3, id -> sized(id, 4)));
            ack(store, store.tryGet(1));
            store.tryGet(1);

            store.rollback();

            assertThat(store.counters().getMemSize()).isEqualTo(store.counters().ackMemSize());
            assertThat(store.counters().getSequence()).isEqualTo(store.counters().ackSequence());
        }

        @Test
        void ackOfAPositionThatDoesNotMatchTheSequenceIsRejected() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 3));
            Events batch = store.tryGet(4);

            assertThatThrownBy(() -> store.ack(row(2).toLogPosition(false), batch.range().endSeq()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no match ack position");
        }

        @Test
        void ackOfAnAlreadyAckedSequenceIsRejected() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 3));
            Events batch = store.tryGet(4);
            ack(store, batch);

            assertThatThrownBy(() -> ack(store, batch)).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void ackWithoutSequenceFindsTheHandedOutPosition() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 5));
            store.tryGet(6);

            store.ack(row(3).toLogPosition(false), -1);

            assertThat(store.counters().ackSequence()).isEqualTo(3);
        }

        @Test
        void ackBeyondGetAfterARollbackNeverHandsAckedEventsOutAgain() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 5));
            store.tryGet(2);
            Events second = store.tryGet(2);
            store.rollback();

            ack(store, second);

            assertThat(ids(store.tryGet(16))).containsExactly(4L, 5L);
        }

        @Test
        void countersFollowRowsMemoryAndExecuteTimes() {
            MemoryEventStore store = itemStore(16);
            store.tryPut(events(0, 4));
            Events batch = store.tryGet(3);
            ack(store, batch);

            StoreCounters counters = store.counters();
            assertThat(counters.putSequence()).isEqualTo(4);
            assertThat(counters.getSequence()).isEqualTo(2);
            assertThat(counters.ackSequence()).isEqualTo(2);
            assertThat(counters.putRows()).isEqualTo(5);
            assertThat(counters.getRows()).isEqualTo(3);
            assertThat(counters.ackRows()).isEqualTo(3);
            assertThat(counters.putExecuteTime()).isEqualTo(4);
            assertThat(counters.getExecuteTime()).isEqualTo(2);
            assertThat(counters.ackExecuteTime()).isEqualTo(2);
            assertThat(counters.putMemSize()).isEqualTo(5 * row(0).rawLength());
        }
    }

    @Nested
    class Positions {

        @Test
        void anEmptyStoreHasNoPositions() {
            MemoryEventStore store = itemStore(4);

            assertThat(store.getFirstPosition()).isNull();
            assertThat(store.getLatestPosition()).isNull();
        }

        @Test
        void beforeAnyAckTheFirstPositionIsTheFirstEvent() {
            MemoryEventStore store = itemStore(4);
            store.tryPut(events(0, 2));
            store.tryGet(2);

            assertThat(store.getFirstPosition()).isEqualTo(row(0).toLogPosition(false));
        }

        @Test
        void afterAnAckTheFirstPositionIsTheLastAckedEventEvenOnceItsSlotIsReused() {
            MemoryEventStore store = itemStore(4);
            store.tryPut(events(0, 3));
            ack(store, store.tryGet(2));
            store.tryPut(events(4, 5));

            assertThat(store.getFirstPosition()).isEqualTo(row(1).toLogPosition(false));
        }

        @Test
        void latestPositionIsIncludedOnlyWhileUnackedEventsRemain() {
            MemoryEventStore store = itemStore(4);
            store.tryPut(events(0, 1));

            assertThat(store.getLatestPosition()).isEqualTo(row(1).toLogPosition(true));

            ack(store, store.tryGet(2));

            assertThat(store.getLatestPosition()).isEqualTo(row(1).toLogPosition(false));
        }
    }
}
