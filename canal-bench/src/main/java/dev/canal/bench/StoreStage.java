package dev.canal.bench;

import com.google.protobuf.ByteString;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32;

/**
 * Stage 3: parser -> EntryEventSink -> MemoryEventStore (Canal's shipped store defaults), with one consumer
 * thread that takes batches and acks at once, counting rows by the entries' {@code rowsCount}. The CPU reported
 * is the process's minus the consumer thread's, i.e. what the server side spends.
 *
 * <p>Each JVM catches up three times from the workload's start, a new parser, sink and store each time: the first
 * pass is reported as {@code entries-X-cold}, the second only warms up, the third is {@code entries-X} (warm).
 * The cold pass keeps every entry and, once the clock has stopped, parses and digests them for the content
 * check. The warm pass keeps none (a million rows of entries held on the heap made the collector the warm pass's
 * largest cost, which a server that releases acked entries does not pay): its consumer only runs a CRC32 over the
 * entries' bytes, which must equal the cold pass's, so the warm pass delivered byte for byte what was checked.
 */
final class StoreStage {

    /** A consumer batch in the store's MEMSIZE units (1 KiB each), as the server asks for a client's batch 1000. */
    private static final int BATCH = 1000;
    private static final long POLL_MILLIS = 100;
    private static final long TIMEOUT_MINUTES = 20;

    private StoreStage() {
    }

    /** The stage's cold and warm passes. */
    static List<StageResult> run(Target target, boolean parallel) throws Exception {
        String name = parallel ? "entries-parallel" : "entries-serial";
        Pass cold = Pass.run(target, parallel, true);
        Pass.run(target, parallel, false);
        Pass warm = Pass.run(target, parallel, false);
        String warmDigest = warm.entriesCrc == cold.entriesCrc ? cold.digest
                : "entries unlike the cold pass's (CRC32 " + warm.entriesCrc + " against " + cold.entriesCrc + ")";
        return List.of(cold.result(name + "-cold", cold.digest), warm.result(name, warmDigest));
    }

    /** One catch-up from the workload's start. */
    private record Pass(long rows, long nanos, long cpuNanos, long peakRssKb, long entriesCrc, String digest) {

        /** @param keep whether the entries are kept and digested for the content check */
        static Pass run(Target target, boolean parallel, boolean keep) throws Exception {
            Properties p = target.parserProperties(parallel);
            MemoryEventStore store = new MemoryEventStore(StoreConfig.defaults());
            EntryEventSink sink = new EntryEventSink(store, false);
            MysqlEventParser parser = new MysqlEventParser("bench", MysqlParserConfig.fromProperties(p), sink,
                    new MemoryLogPositionManager(), SinkFilterConfig.fromProperties(p));
            ProcessMeter meter = ProcessMeter.self();
            List<ByteString> received = new ArrayList<>();
            CRC32 crc = new CRC32();
            long[] rows = new long[1];
            long[] consumerCpu = new long[1];
            long cpu = meter.cpuNanos();
            long started = System.nanoTime();
            store.start();
            sink.start();
            parser.start();
            CompletableFuture<Long> done = CompletableFuture.supplyAsync(() -> {
                long threadCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                try {
                    while (rows[0] < target.rowChanges()) {
                        Events batch = store.get(BATCH, POLL_MILLIS, TimeUnit.MILLISECONDS);
                        for (Event e : batch.events()) {
                            e.rawBytes().asReadOnlyByteBufferList().forEach(crc::update); // a rope uncopied
                            if (keep) {
                                received.add(e.rawBytes());
                            }
                            rows[0] += e.rowsCount();
                        }
                        if (!batch.isEmpty()) {
                            store.ack(batch.range().end(), batch.range().endSeq());
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("the store consumer failed after " + rows[0] + " rows", e);
                }
                consumerCpu[0] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadCpu;
                return System.nanoTime();
            }, runnable -> new Thread(runnable, "bench-store-consumer").start());
            long ended = waitFor(done, parser, rows);
            long cpuNanos = meter.cpuNanos() - cpu - consumerCpu[0];
            long peakRssKb = meter.peakRssKb();
            parser.stop();
            sink.stop();
            store.stop();
            RowDigest digest = new RowDigest();
            for (ByteString entry : received) {
                EntryDigests.addOurs(CanalEntry.Entry.parseFrom(entry), digest);
            }
            return new Pass(rows[0], ended - started, cpuNanos, peakRssKb, crc.getValue(), digest.value());
        }

        StageResult result(String stage, String contentDigest) {
            return new StageResult(stage, rows, 0, 0, nanos, cpuNanos, peakRssKb, contentDigest);
        }
    }

    private static long waitFor(CompletableFuture<Long> done, MysqlEventParser parser, long[] rows)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (System.nanoTime() < deadline) {
            if (parser.failure() != null) {
                throw new IllegalStateException("the parser failed after " + rows[0] + " rows", parser.failure());
            }
            try {
                return done.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException stillRunning) {
                // check the parser again
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
        }
        throw new TimeoutException("entries stage: " + rows[0] + " rows after " + TIMEOUT_MINUTES + " minutes");
    }
}
