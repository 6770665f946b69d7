package dev.canal.sink;

import static dev.canal.sink.Entries.SOURCE;
import static dev.canal.sink.Entries.begin;
import static dev.canal.sink.Entries.ddl;
import static dev.canal.sink.Entries.end;
import static dev.canal.sink.Entries.gtid;
import static dev.canal.sink.Entries.heartbeat;
import static dev.canal.sink.Entries.heartbeatTransaction;
import static dev.canal.sink.Entries.row;
import static dev.canal.sink.Entries.statementText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EntryEventSinkTest {

    private static final String DESTINATION = "example";

    private final MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(1024));
    private EntryEventSink sink = startedSink(false);

    private EntryEventSink startedSink(boolean filterTransactionEntry) {
        if (!store.isStarted()) {
            store.start();
        }
        EntryEventSink created = new EntryEventSink(store, filterTransactionEntry);
        created.start();
        return created;
    }

    @AfterEach
    void stop() {
        sink.stop();
        store.stop();
    }

    private boolean sink(CanalEntry.Entry... entries) throws InterruptedException {
        return sink.sink(List.of(entries), SOURCE, DESTINATION);
    }

    /** Offsets of everything stored so far, in store order. */
    private List<Long> stored() {
        Events batch = store.tryGet(1024);
        return batch.events().stream().map(Event::logfileOffset).toList();
    }

    @Test
    void entriesAreStoredInOrderWithTheSourceAsIdentity() throws Exception {
        assertThat(sink(begin(1, 1000), row(2, 1000), row(3, 1000), end(4, 1000))).isTrue();

        Events batch = store.tryGet(10);
        assertThat(batch.events()).extracting(Event::logfileOffset).containsExactly(1L, 2L, 3L, 4L);
        assertThat(batch.events()).allSatisfy(event -> {
            assertThat(event.logIdentity()).isEqualTo(SOURCE);
            assertThat(event.isRaw()).isTrue();
        });
        assertThat(batch.events().get(1).parsedEntry()).isEqualTo(row(2, 1000));
    }

    @Test
    void aNonRawStoreGetsParsedEntries() throws Exception {
        store.stop();
        MemoryEventStore nonRaw = new MemoryEventStore(StoreConfig.itemSize(16).withRaw(false));
        nonRaw.start();
        EntryEventSink nonRawSink = new EntryEventSink(nonRaw, false);
        nonRawSink.start();

        nonRawSink.sink(List.of(row(2, 1000)), SOURCE, DESTINATION);

        assertThat(nonRaw.tryGet(1).events().get(0).entry()).isEqualTo(row(2, 1000));
        nonRaw.stop();
    }

    @Test
    void heartbeatsReachTheHandlersButNotTheStore() throws Exception {
        List<EntryType> seenBefore = new ArrayList<>();
        List<EntryType> seenAfter = new ArrayList<>();
        sink.addHandler(new EventDownStreamHandler() {
            @Override
            public List<Event> before(List<Event> events) {
                events.forEach(event -> seenBefore.add(event.entryType()));
                return events;
            }

            @Override
            public List<Event> after(List<Event> events) {
                events.forEach(event -> seenAfter.add(event.entryType()));
                return events;
            }
        });

        assertThat(sink(heartbeat(1, 1000))).isTrue();
        assertThat(sink(row(2, 1000), heartbeat(3, 1000), end(4, 1000))).isTrue();

        assertThat(seenBefore).containsExactly(EntryType.HEARTBEAT, EntryType.ROWDATA, EntryType.HEARTBEAT,
                EntryType.TRANSACTIONEND);
        assertThat(seenAfter).containsExactly(EntryType.ROWDATA, EntryType.TRANSACTIONEND);
        assertThat(stored()).containsExactly(2L, 4L);
        assertThat(store.counters().putSequence()).isEqualTo(1);
    }

    @Test
    void gtidEntriesAreNeverStored() throws Exception {
        sink(gtid(1, 1000), begin(2, 1000), row(3, 1000), end(4, 1000));

        assertThat(stored()).containsExactly(2L, 3L, 4L);
    }

    @Test
    void handlersRunInOrderAndMayChangeTheBatch() throws Exception {
        List<String> calls = new ArrayList<>();
        sink.addHandler(new EventDownStreamHandler() {
            @Override
            public List<Event> before(List<Event> events) {
                calls.add("second");
                return events.subList(1, events.size());
            }
        });
        sink.addHandler(new EventDownStreamHandler() {
            @Override
            public List<Event> before(List<Event> events) {
                calls.add("first");
                return events;
            }
        }, 0);

        sink(row(1, 1000), row(2, 1000));

        assertThat(calls).containsExactly("first", "second");
        assertThat(stored()).containsExactly(2L);
    }

    @Test
    void anEmptyTransactionIsDroppedUnlessFiveSecondsOfEventTimePassed() throws Exception {
        sink(begin(1, 10_000), end(2, 10_000));       // the first one passes: 10 s since time 0
        sink(begin(3, 12_000), end(4, 12_000));       // 2 s later: dropped
        sink(begin(5, 15_000), end(6, 15_000));       // 5 s after the last let through: not more, dropped
        sink(begin(7, 15_001), end(8, 15_001));       // more than 5 s: passes
        sink(begin(9, 15_002), row(10, 15_002), end(11, 15_002)); // has rows: always stored

        assertThat(stored()).containsExactly(1L, 2L, 7L, 8L, 9L, 10L, 11L);
    }

    @Test
    void anEmptyTransactionPassesAfter8192WereDropped() throws Exception {
        sink(begin(0, 10_000), end(0, 10_000));
        for (int i = 1; i <= 8192; i++) {
            sink(begin(i, 10_000), end(i, 10_000));
        }
        assertThat(store.counters().putSequence()).isEqualTo(1);

        sink(begin(8193, 10_000), end(8193, 10_000));

        assertThat(stored()).containsExactly(0L, 0L, 8193L, 8193L);
    }

    @Test
    void theEndOfATransactionWhoseRowsCameInAnEarlierFlushIsKept() throws Exception {
        // the parser flushed the rows, then the transaction's last rows were filtered out: only END is left
        // event times within 5 s of time 0, so empty transactions are not let through by time
        sink(begin(1, 1000), row(2, 1000));
        sink(end(3, 1000));
        // a transaction whose rows were all filtered out is still empty
        sink(begin(4, 1001));
        sink(end(5, 1001));

        assertThat(stored()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void theEndAfterStatementTextWhoseRowsWereAllFilteredOutIsDroppedAsCanalDrops() throws Exception {
        // MariaDB: ANNOTATE_ROWS text, rows of a filtered table, XID. Canal flushes the text on its own, and the
        // END after it is an empty flush; when a row change follows the text, the END is kept
        sink(statementText(1, 1000), end(2, 1000));
        sink(statementText(3, 1000), row(4, 1000), end(5, 1000));
        sink(begin(6, 1000), statementText(7, 1000), end(8, 1000));

        assertThat(stored()).containsExactly(1L, 3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void aDdlDoesNotMakeTheNextTransactionNonEmpty() throws Exception {
        sink(ddl(1, 1000));
        sink(end(2, 1001));

        assertThat(stored()).containsExactly(1L);
    }

    @Test
    void transactionEntryFilterDropsBoundariesButLetsAPairThroughEveryFiveSeconds() throws Exception {
        sink = startedSink(true);

        sink(begin(1, 10_000), row(2, 10_000), end(3, 10_000));   // first boundary: 10 s after time 0, passes
        sink(begin(4, 10_001), row(5, 10_001), end(6, 10_001));   // boundaries dropped
        sink(begin(7, 15_001), row(8, 15_001), end(9, 15_001));   // 5 s and 1 ms later: both pass
        sink(begin(10, 15_002), row(11, 15_002), end(12, 15_002));

        assertThat(stored()).containsExactly(1L, 2L, 3L, 5L, 7L, 8L, 9L, 11L);
    }

    @Test
    void transactionEntryFilterLetsABoundaryPairThroughAfter8192() throws Exception {
        sink = startedSink(true);
        sink(row(0, 10_000), end(0, 10_000));                 // passes, and resets the count
        for (int i = 1; i <= 4096; i++) {
            sink(begin(i, 10_000), end(i, 10_000));           // 8192 boundaries dropped
        }
        assertThat(store.counters().putSequence()).isEqualTo(1);

        sink(begin(5000, 10_000), row(5001, 10_000), end(5002, 10_000));
        sink(begin(6000, 10_000), row(6001, 10_000), end(6002, 10_000));

        assertThat(stored()).containsExactly(0L, 0L, 5000L, 5001L, 5002L, 6001L);
    }

    @Test
    void aHeartbeatTransactionPassesWhereAnEmptyOneIsDroppedUnlessItsPositionWasLetThroughLast() throws Exception {
        sink(begin(1, 10_000), end(2, 10_000));                          // 10 s after time 0: passes
        sink(heartbeatTransaction(EntryType.TRANSACTIONBEGIN, 2, 10_000),
                heartbeatTransaction(EntryType.TRANSACTIONEND, 2, 10_000)); // the end just let through: dropped
        sink(begin(3, 10_001), end(4, 10_001));                          // an empty transaction: dropped
        sink(heartbeatTransaction(EntryType.TRANSACTIONBEGIN, 4, 10_001),
                heartbeatTransaction(EntryType.TRANSACTIONEND, 4, 10_001)); // a new position: passes
        sink(heartbeatTransaction(EntryType.TRANSACTIONBEGIN, 4, 10_001),
                heartbeatTransaction(EntryType.TRANSACTIONEND, 4, 10_001)); // the same again: dropped

        assertThat(stored()).containsExactly(1L, 2L, 4L, 4L);
    }

    @Test
    void transactionEntryFilterLetsHeartbeatTransactionsThrough() throws Exception {
        sink = startedSink(true);
        sink(begin(1, 10_000), row(2, 10_000), end(3, 10_000));
        sink(begin(4, 10_001), row(5, 10_001), end(6, 10_001));   // boundaries dropped
        sink(heartbeatTransaction(EntryType.TRANSACTIONBEGIN, 7, 10_002),
                heartbeatTransaction(EntryType.TRANSACTIONEND, 7, 10_002));

        assertThat(stored()).containsExactly(1L, 2L, 3L, 5L, 7L, 7L);
    }

    @Test
    void aFullStoreBlocksTheSinkUntilAnAckMakesRoom() throws Exception {
        store.stop();
        MemoryEventStore small = new MemoryEventStore(StoreConfig.itemSize(4));
        small.start();
        EntryEventSink smallSink = new EntryEventSink(small, false);
        smallSink.start();
        smallSink.sink(List.of(begin(1, 1000), row(2, 1000), row(3, 1000), end(4, 1000)), SOURCE, DESTINATION);

        Thread[] parser = new Thread[1];
        CompletableFuture<Boolean> blocked = new CompletableFuture<>();
        parser[0] = new Thread(() -> {
            try {
                blocked.complete(smallSink.sink(List.of(begin(5, 1001), row(6, 1001), end(7, 1001)), SOURCE,
                        DESTINATION));
            } catch (Throwable t) {
                blocked.completeExceptionally(t);
            }
        });
        parser[0].start();
        await().atMost(Duration.ofSeconds(5)).until(() -> parser[0].getState() == Thread.State.WAITING);
        assertThat(blocked).isNotDone();

        Events batch = small.tryGet(2);
        small.ack(batch.range().end(), batch.range().endSeq());
        assertThat(blocked).isNotDone();
        batch = small.tryGet(1);
        small.ack(batch.range().end(), batch.range().endSeq());

        assertThat(blocked.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(small.tryGet(10).events()).extracting(Event::logfileOffset).containsExactly(4L, 5L, 6L, 7L);
        assertThat(small.counters().putBlockingNanos()).isPositive();
        smallSink.stop();
        small.stop();
    }

    @Test
    void aStoppedSinkStoresNothingAndSaysSo() throws Exception {
        sink.stop();

        assertThat(sink(row(1, 1000))).isFalse();
        assertThat(store.counters().putSequence()).isEqualTo(-1);
    }
}
