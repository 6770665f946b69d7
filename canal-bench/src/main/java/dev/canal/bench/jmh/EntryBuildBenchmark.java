package dev.canal.bench.jmh;

import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.protocol.CanalEntry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One real rows event of the workload table (about 20-40 rows of 12 columns) per operation: its row images
 * decoded ({@code decodeRows}), and decoded plus rendered into a ROWDATA entry with its RowChange encoded
 * ({@code buildEntry}: EntryConverter.buildRows with ColumnRenderer, the parallel stage's work per event).
 * The difference is the entry building's own cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EntryBuildBenchmark {

    @Param({"WRITE", "UPDATE", "DELETE"})
    public String kind;

    private SampleRows sample;

    @Setup
    public void load() {
        sample = new SampleRows(RowsEvent.Kind.valueOf(kind));
    }

    @Benchmark
    public List<?> decodeRows() {
        return RowsDecoder.decode(sample.event, sample.map);
    }

    @Benchmark
    public CanalEntry.Entry buildEntry() {
        return sample.converter.buildRows(sample.task);
    }
}
