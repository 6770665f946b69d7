package dev.canal.bench;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.ConsumerConfig;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.store.StoreConsumer;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Named consumers (docs/consumers.md): parser -> EntryEventSink -> one MemoryEventStore (Canal's shipped store
 * defaults) read by 1, 2 or 4 named consumers, each on its own thread taking batches and acking at once. The time
 * is from the start of catch-up until every consumer has every row; {@code rows} is what each consumer received,
 * so the rows/s column is the delivery rate per consumer (the store delivers N times as many entries). One
 * catch-up warms up, the second is reported. The CPU reported is the whole process's, consumers included.
 */
final class ConsumersStage {

    private static final int BATCH = 1000;
    private static final long POLL_MILLIS = 100;
    private static final long TIMEOUT_MINUTES = 20;

    private ConsumersStage() {
    }

    static List<StageResult> run(Target target, int consumers) throws Exception {
        pass(target, consumers);
        return List.of(pass(target, consumers));
    }

    private static StageResult pass(Target target, int consumers) throws Exception {
        Properties p = target.parserProperties(true);
        MemoryEventStore store = new MemoryEventStore(StoreConfig.defaults(), ConsumerConfig.defaults());
        EntryEventSink sink = new EntryEventSink(store, false);
        MysqlEventParser parser = new MysqlEventParser("bench", MysqlParserConfig.fromProperties(p), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.fromProperties(p));
        ProcessMeter meter = ProcessMeter.self();
        store.start();
        store.detach(""); // only named consumers read, as when every client subscribes as destination@name
        List<CompletableFuture<Long>> done = new ArrayList<>();
        for (int i = 1; i <= consumers; i++) {
            StoreConsumer consumer = store.attach("c" + i, null);
            done.add(CompletableFuture.supplyAsync(() -> consume(consumer, target.rowChanges()),
                    runnable -> new Thread(runnable, "bench-consumer-" + consumer.name()).start()));
        }
        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        sink.start();
        parser.start();
        long rows = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        for (CompletableFuture<Long> each : done) {
            while (!each.isDone() && System.nanoTime() < deadline) {
                if (parser.failure() != null) {
                    throw new IllegalStateException("the parser failed", parser.failure());
                }
                try {
                    each.get(1, TimeUnit.SECONDS);
                } catch (TimeoutException stillRunning) {
                    // check the parser again
                }
            }
            rows = each.get(1, TimeUnit.SECONDS);
        }
        long nanos = System.nanoTime() - started;
        long cpuNanos = meter.cpuNanos() - cpu;
        long peakRssKb = meter.peakRssKb();
        parser.stop();
        sink.stop();
        store.stop();
        return new StageResult("consumers-" + consumers, rows, 0, 0, nanos, cpuNanos, peakRssKb, "-");
    }

    private static long consume(StoreConsumer consumer, long wanted) {
        long rows = 0;
        try {
            while (rows < wanted) {
                Events batch = consumer.get(BATCH, POLL_MILLIS, TimeUnit.MILLISECONDS);
                for (Event e : batch.events()) {
                    rows += e.rowsCount();
                }
                if (!batch.isEmpty()) {
                    consumer.ack(batch.range().end(), batch.range().endSeq());
                }
            }
            return rows;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("consumer " + consumer.name() + " interrupted after " + rows + " rows", e);
        }
    }
}
