package dev.canal.bench.jmh;

import dev.canal.binlog.event.RowsEvent;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.BatchMode;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The memory store's put, get and ack of one batch of {@link #batch} stored (raw) entries on one thread, as
 * the sink and a client's get/ack drive it, with Canal's shipped store settings (ITEMSIZE here, so that a
 * batch is a number of events). Reports ns per event.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StoreBenchmark {

    private static final LogIdentity SOURCE = new LogIdentity("127.0.0.1", 3306, 1);
    private static final int BATCH = 100;

    @Param({"true", "false"})
    public boolean raw;

    private MemoryEventStore store;
    private List<Event> batch;

    @Setup(Level.Trial)
    public void start() {
        store = new MemoryEventStore(StoreConfig.defaults().withBatchMode(BatchMode.ITEMSIZE)
                .withRaw(raw));
        store.start();
        SampleRows sample = new SampleRows(RowsEvent.Kind.WRITE);
        CanalEntry.Entry entry = sample.converter.buildRows(sample.task);
        batch = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            batch.add(Event.of(SOURCE, entry, raw));
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        store.stop();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Events putGetAck() throws InterruptedException {
        store.put(batch);
        Events got = store.get(BATCH);
        store.ack(got.range().end(), got.range().endSeq());
        return got;
    }
}
