package dev.canal.bench;

import dev.canal.bench.jmh.SampleEvents;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TestDatabases;
import java.nio.file.Path;
import java.util.List;

/**
 * Regenerates the JMH benchmarks' sample binlog: loads a small workload (120 inserts, 60 updates, 20 deletes,
 * 40 rows per statement) into the fixture's database and writes its events to the given file, e.g.
 * {@code canal-bench/src/main/resources/dev/canal/bench/jmh/sample-events.bin}.
 */
public final class CaptureSampleEvents {

    private CaptureSampleEvents() {
    }

    public static void main(String[] args) throws Exception {
        MySqlServer db = TestDatabases.shared();
        Workload.Loaded loaded = new Workload(db, BenchTable.Shape.STANDARD, new Workload.Mix(120, 60, 20), 40).load();
        Target target = Target.of(db, loaded, BenchTable.Shape.STANDARD);
        List<byte[]> events = RawDumpStage.capture(target);
        SampleEvents.write(events, Path.of(args[0]));
        System.out.println("wrote " + events.size() + " events of " + db + " to " + args[0]);
        System.exit(0);
    }
}
