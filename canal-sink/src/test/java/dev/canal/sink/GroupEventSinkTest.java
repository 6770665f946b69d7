package dev.canal.sink;

import static dev.canal.sink.Entries.OTHER_SOURCE;
import static dev.canal.sink.Entries.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.Event;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupEventSinkTest {

    private static final String DESTINATION = "group";

    private final MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(8192));
    private final GroupEventSink sink = new GroupEventSink(store, 2, false);
    private final ExecutorService parsers = Executors.newFixedThreadPool(3);

    GroupEventSinkTest() {
        store.start();
        sink.start();
    }

    @AfterEach
    void stop() {
        sink.stop();
        parsers.shutdownNow();
        store.stop();
    }

    @Test
    void twoSourcesEnterTheStoreInEventTimeOrder() throws Exception {
        long seed = System.nanoTime();
        System.out.println("GroupEventSinkTest seed=" + seed);
        List<Long> storedBatchTimes = Collections.synchronizedList(new ArrayList<>());
        sink.addHandler(new EventDownStreamHandler() {
            @Override
            public List<Event> after(List<Event> events) {
                storedBatchTimes.add(events.get(events.size() - 1).executeTime());
                return events;
            }
        });

        // source A writes at even milliseconds, source B at odd ones; both end with a heartbeat at the
        // same far-future time, which releases the other source's last transactions and then both
        Future<Integer> a = parsers.submit(() -> parse(SOURCE, 0, new Random(seed)));
        Future<Integer> b = parsers.submit(() -> parse(OTHER_SOURCE, 1, new Random(seed + 1)));
        int transactions = a.get(30, TimeUnit.SECONDS) + b.get(30, TimeUnit.SECONDS);

        assertThat(storedBatchTimes).hasSize(transactions).isSorted();
        List<Event> stored = store.tryGet(8192).events();
        assertThat(stored).noneMatch(event -> event.entryType() == CanalEntry.EntryType.HEARTBEAT);
        for (LogIdentity source : List.of(SOURCE, OTHER_SOURCE)) {
            List<Long> offsets = stored.stream().filter(event -> event.logIdentity().equals(source))
                    .map(Event::logfileOffset).toList();
            assertThat(offsets).as("entries of %s in their own order, none lost", source)
                    .isSorted().doesNotHaveDuplicates().hasSize((int) stored.stream()
                            .filter(event -> event.logIdentity().equals(source)).count());
        }
    }

    /** Sinks 300 transactions of 1 to 3 rows with rising times of the given parity; returns 300. */
    private int parse(LogIdentity source, int parity, Random random) throws InterruptedException {
        int transactions = 300;
        long time = parity;
        long offset = 4;
        for (int t = 0; t < transactions; t++) {
            List<CanalEntry.Entry> entries = new ArrayList<>();
            entries.add(Entries.begin(offset++, time));
            int rows = 1 + random.nextInt(3);
            for (int r = 0; r < rows; r++) {
                time += 2 * (1 + random.nextInt(3));
                entries.add(Entries.row(offset++, time));
            }
            entries.add(Entries.end(offset++, time));
            assertThat(sink.sink(entries, source, DESTINATION)).isTrue();
        }
        assertThat(sink.sink(List.of(Entries.heartbeat(offset, Long.MAX_VALUE)), source, DESTINATION)).isTrue();
        return transactions;
    }

    @Test
    void aBatchWaitsUntilEverySourceHasAnnouncedOneAndTheEarliestGoesFirst() throws Exception {
        CompletableFuture<Boolean> later = CompletableFuture.supplyAsync(() -> sinkQuietly(SOURCE, 1, 2000), parsers);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !later.isDone());
        assertThat(store.counters().putSequence()).isEqualTo(-1);

        assertThat(CompletableFuture.supplyAsync(() -> sinkQuietly(OTHER_SOURCE, 10, 1000), parsers)
                .get(5, TimeUnit.SECONDS)).isTrue();
        // a heartbeat at the waiting batch's own time releases both
        assertThat(CompletableFuture.supplyAsync(() -> heartbeatQuietly(OTHER_SOURCE, 11, 2000), parsers)
                .get(5, TimeUnit.SECONDS)).isTrue();

        assertThat(later.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(store.tryGet(10).events()).extracting(Event::executeTime).containsExactly(1000L, 2000L);
    }

    @Test
    void stoppingReleasesAWaitingSource() throws Exception {
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> sinkQuietly(SOURCE, 1, 2000), parsers);
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());

        sink.stop();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isFalse();
    }

    private boolean heartbeatQuietly(LogIdentity source, long offset, long time) {
        return sinkQuietly(source, Entries.heartbeat(offset, time));
    }

    private boolean sinkQuietly(LogIdentity source, long offset, long time) {
        return sinkQuietly(source, Entries.row(offset, time));
    }

    private boolean sinkQuietly(LogIdentity source, CanalEntry.Entry entry) {
        try {
            return sink.sink(List.of(entry), source, DESTINATION);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
