package dev.canal.store.bench;

import dev.canal.store.BatchMode;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.store.TestEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Store throughput, one producer thread and one consumer thread, ITEMSIZE mode, default 16384 slots:
 * the producer puts pre-built events in batches, the consumer gets batches with a blocking get and
 * acks each one. Measures the store alone (events are built before timing starts).
 *
 * <pre>
 * mvn -q -pl canal-store -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/store-bench.cp -Dmdep.includeScope=test
 * java -cp canal-store/target/test-classes:canal-store/target/classes:$(cat /tmp/store-bench.cp) \
 *   dev.canal.store.bench.StoreThroughputBench [entries putBatch getBatch rounds]
 * </pre>
 * Defaults: 50,000,000 entries per round, put batches of 256, get batches of 1024, 5 rounds (the
 * first is warm-up and not reported in the summary).
 */
public final class StoreThroughputBench {

    private StoreThroughputBench() {
    }

    public static void main(String[] args) throws Exception {
        long entries = args.length > 0 ? Long.parseLong(args[0]) : 50_000_000L;
        int putBatch = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int getBatch = args.length > 2 ? Integer.parseInt(args[2]) : 1024;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        List<List<Event>> putBatches = prebuiltBatches(putBatch);
        System.out.printf("store bench: ITEMSIZE, bufferSize %d, %,d entries per round, put batch %d, get batch %d%n",
                StoreConfig.defaults().bufferSize(), entries, putBatch, getBatch);
        double best = 0;
        double sum = 0;
        for (int round = 0; round < rounds; round++) {
            double rate = runRound(entries, putBatches, getBatch);
            System.out.printf("round %d: %,.0f entries/s%s%n", round, rate, round == 0 ? " (warm-up)" : "");
            if (round > 0) {
                best = Math.max(best, rate);
                sum += rate;
            }
        }
        if (rounds > 1) {
            System.out.printf("mean %,.0f entries/s, best %,.0f entries/s over %d measured rounds%n",
                    sum / (rounds - 1), best, rounds - 1);
        }
    }

    /** Distinct event objects, grouped into put batches; the store does not care that they repeat. */
    private static List<List<Event>> prebuiltBatches(int putBatch) {
        List<List<Event>> batches = new ArrayList<>();
        long id = 0;
        for (int b = 0; b < 64; b++) {
            List<Event> batch = new ArrayList<>(putBatch);
            for (int i = 0; i < putBatch; i++) {
                batch.add(TestEvents.row(id++));
            }
            batches.add(List.copyOf(batch));
        }
        return batches;
    }

    private static double runRound(long entries, List<List<Event>> putBatches, int getBatch)
            throws InterruptedException, ExecutionException, TimeoutException {
        MemoryEventStore store = new MemoryEventStore(new StoreConfig(StoreConfig.defaults().bufferSize(),
                StoreConfig.DEFAULT_BUFFER_MEM_UNIT, BatchMode.ITEMSIZE, false, true));
        store.start();
        int putBatch = putBatches.get(0).size();
        long rounded = entries / putBatch * putBatch;
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            long start = System.nanoTime();
            Future<?> producer = threads.submit(() -> {
                for (long put = 0, b = 0; put < rounded; put += putBatch, b++) {
                    store.put(putBatches.get((int) (b & 63)));
                }
                return null;
            });
            Future<?> consumer = threads.submit(() -> {
                long got = 0;
                while (got < rounded) {
                    Events batch = store.get((int) Math.min(getBatch, rounded - got));
                    store.ack(batch.range().end(), batch.range().endSeq());
                    got += batch.size();
                }
                return null;
            });
            consumer.get(10, TimeUnit.MINUTES);
            producer.get(10, TimeUnit.MINUTES);
            return rounded / ((System.nanoTime() - start) / 1e9);
        } finally {
            threads.shutdownNow();
            store.stop();
        }
    }
}
