package dev.canal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One producer and one consumer race through a small store with random batch sizes, random get
 * modes and random rollbacks. Every entry must reach the consumer in order, each exactly once except
 * for the re-deliveries a rollback asks for. Seed: {@code -Dstore.stress.seed=N} to replay.
 */
class MemoryEventStoreStressTest {

    private static final int TOTAL = 1_500_000;
    private static final int BUFFER_SIZE = 1024;
    private static final int MAX_PUT = 64;
    private static final int MAX_GET = 300;

    @ParameterizedTest
    @EnumSource(BatchMode.class)
    void everyEntryIsDeliveredInOrderDespiteRandomRollbacks(BatchMode mode) throws Exception {
        long seed = Long.getLong("store.stress.seed", System.nanoTime());
        System.out.println("MemoryEventStoreStressTest " + mode + " seed=" + seed);
        // 1024 slots × 8 bytes per unit; events are 1..16 bytes so MEMSIZE often limits before the slots do
        MemoryEventStore store = new MemoryEventStore(new StoreConfig(BUFFER_SIZE, 8, mode, false, true));
        store.start();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> producer = threads.submit(() -> produce(store, new Random(seed)));
            Future<Integer> consumer = threads.submit(() -> consume(store, mode, new Random(seed + 1)));

            // the consumer first: an out-of-order entry fails it at once, and stopping the store then
            // releases the producer
            int rollbacks = consumer.get(60, TimeUnit.SECONDS);
            producer.get(60, TimeUnit.SECONDS);

            StoreCounters counters = store.counters();
            assertThat(counters.ackSequence()).isEqualTo(TOTAL - 1);
            assertThat(counters.putSequence()).isEqualTo(TOTAL - 1);
            assertThat(counters.ackRows()).isEqualTo(TOTAL);
            assertThat(rollbacks).as("the run exercised rollbacks").isPositive();
        } finally {
            threads.shutdownNow();
            store.stop();
        }
    }

    private static Void produce(EventStore store, Random random) throws InterruptedException {
        long next = 0;
        while (next < TOTAL) {
            int size = (int) Math.min(1 + random.nextInt(MAX_PUT), TOTAL - next);
            List<Event> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++, next++) {
                batch.add(TestEvents.sized(next, 1 + (next % 16)));
            }
            switch (random.nextInt(3)) {
                case 0 -> {
                    while (!store.tryPut(batch) && !store.put(batch, 1, TimeUnit.MILLISECONDS)) {
                        // retried: exercises the timed put and its wake-up by ack
                    }
                }
                case 1 -> store.put(batch, 1, TimeUnit.HOURS);
                default -> store.put(batch);
            }
        }
        return null;
    }

    /** Returns the number of rollbacks done; fails on the first out-of-order or missing entry. */
    private static int consume(EventStore store, BatchMode mode, Random random) throws InterruptedException {
        long acked = -1;
        long expected = 0;
        int rollbacks = 0;
        Deque<Events> outstanding = new ArrayDeque<>();
        while (acked < TOTAL - 1) {
            int batchSize = 1 + random.nextInt(MAX_GET);
            Events batch = switch (random.nextInt(3)) {
                case 0 -> store.tryGet(batchSize);
                case 1 -> store.get(batchSize, 1, TimeUnit.MILLISECONDS);
                default -> {
                    // a blocking get may only wait for what can still come: ack first so the producer
                    // has room, and ask for no more than remains (entries are at least 1 byte, 8 per unit)
                    ackAll(store, outstanding);
                    acked = expected - 1;
                    long remaining = TOTAL - expected;
                    int wanted = (int) Math.min(batchSize, mode == BatchMode.ITEMSIZE ? remaining : remaining / 8);
                    yield wanted > 0 ? store.get(wanted) : store.tryGet(batchSize);
                }
            };
            for (Event event : batch.events()) {
                if (event.logfileOffset() != expected) {
                    throw new AssertionError("expected entry " + expected + " but got " + event.logfileOffset());
                }
                expected++;
            }
            if (!batch.isEmpty()) {
                outstanding.add(batch);
            }
            int action = random.nextInt(100);
            if (action < 2) {
                store.rollback();
                outstanding.clear();
                expected = acked + 1;
                rollbacks++;
            } else if (action < 60 || outstanding.size() > 3) {
                ackAll(store, outstanding);
                acked = expected - 1;
            }
        }
        return rollbacks;
    }

    private static void ackAll(EventStore store, Deque<Events> outstanding) {
        while (!outstanding.isEmpty()) {
            Events batch = outstanding.poll();
            store.ack(batch.range().end(), batch.range().endSeq());
        }
    }
}
