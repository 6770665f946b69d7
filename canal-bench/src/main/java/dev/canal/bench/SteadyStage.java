package dev.canal.bench;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The steady-state question: one long catch-up into the store (parser -> sink -> store, parallel parser, Canal's
 * store defaults, the server's heap), one consumer taking and acking batches, as the entries stage does, but one
 * pass only. The clock and the CPU are also read when the consumer has seen {@code warmAfter} row changes, so the
 * report gives the whole catch-up and the part after the JIT has warmed up. CPU is the process's minus the
 * consumer thread's. Nothing is kept: the entries stages check the content of the same path.
 */
final class SteadyStage {

    private static final int BATCH = 1000;
    private static final long POLL_MILLIS = 100;

    private SteadyStage() {
    }

    static List<StageResult> run(Target target, long warmAfter) throws Exception {
        Properties p = target.parserProperties(true);
        MemoryEventStore store = new MemoryEventStore(StoreConfig.defaults());
        EntryEventSink sink = new EntryEventSink(store, false);
        MysqlEventParser parser = new MysqlEventParser("bench", MysqlParserConfig.fromProperties(p), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.fromProperties(p));
        ProcessMeter meter = ProcessMeter.self();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] mark = new long[3]; // rows, nanoTime, process CPU minus consumer CPU, when warmAfter was passed
        long[] rows = new long[1];
        long[] consumerCpu = new long[1];
        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        store.start();
        sink.start();
        parser.start();
        CompletableFuture<Long> done = CompletableFuture.supplyAsync(() -> {
            long threadCpu = threads.getCurrentThreadCpuTime();
            try {
                while (rows[0] < target.rowChanges()) {
                    if (parser.failure() != null) {
                        throw new IllegalStateException("the parser failed", parser.failure());
                    }
                    Events batch = store.get(BATCH, POLL_MILLIS, TimeUnit.MILLISECONDS);
                    for (Event e : batch.events()) {
                        rows[0] += e.rowsCount();
                    }
                    if (!batch.isEmpty()) {
                        store.ack(batch.range().end(), batch.range().endSeq());
                    }
                    if (mark[0] == 0 && rows[0] >= warmAfter) {
                        mark[1] = System.nanoTime();
                        mark[2] = meter.cpuNanos() - (threads.getCurrentThreadCpuTime() - threadCpu);
                        mark[0] = rows[0];
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            consumerCpu[0] = threads.getCurrentThreadCpuTime() - threadCpu;
            return System.nanoTime();
        }, runnable -> new Thread(runnable, "bench-store-consumer").start());
        long ended = done.get(60, TimeUnit.MINUTES);
        long cpuEnd = meter.cpuNanos() - consumerCpu[0];
        long peakRssKb = meter.peakRssKb();
        parser.stop();
        sink.stop();
        store.stop();
        StageResult overall = new StageResult("steady-overall", rows[0], 0, 0, ended - started, cpuEnd - cpu,
                peakRssKb, "-");
        StageResult warm = new StageResult("steady-after-" + warmAfter, rows[0] - mark[0], 0, 0, ended - mark[1],
                cpuEnd - mark[2], peakRssKb, "-");
        return List.of(overall, warm);
    }
}
