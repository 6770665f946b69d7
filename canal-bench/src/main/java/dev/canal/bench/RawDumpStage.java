package dev.canal.bench;

import dev.canal.binlog.net.BinlogStream;
import dev.canal.binlog.net.ConnectionOptions;
import dev.canal.binlog.net.MysqlConnection;
import dev.canal.binlog.net.ReplicaOptions;
import dev.canal.binlog.net.ReplicaSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Stage 1: the binlog dump read with our BinlogStream (framing and CRC32 checked), nothing decoded. */
final class RawDumpStage {

    private RawDumpStage() {
    }

    static StageResult run(Target target) throws IOException {
        ProcessMeter meter = ProcessMeter.self();
        long[] counts = new long[2];
        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        dump(target, event -> {
            counts[0]++;
            counts[1] += event.length;
        });
        long nanos = System.nanoTime() - started;
        return new StageResult("raw-dump", target.rowChanges(), counts[0], counts[1], nanos,
                meter.cpuNanos() - cpu, meter.peakRssKb(), "-");
    }

    /** Every event of the workload's binlog, held in memory for the decode stage. */
    static List<byte[]> capture(Target target) throws IOException {
        List<byte[]> events = new ArrayList<>();
        dump(target, events::add);
        return events;
    }

    /** Reads from the workload's start to the binlog's end as it is now, handing each whole event on. */
    private static void dump(Target target, Consumer<byte[]> each) throws IOException {
        try (MysqlConnection connection = MysqlConnection.open(
                ConnectionOptions.of(target.host(), target.port(), target.user(), target.password()))) {
            ReplicaSession session = new ReplicaSession(connection, ReplicaOptions.of(Target.SERVER_ID));
            session.setUp();
            try (BinlogStream stream = session.dumpToEnd(target.file(), target.position())) {
                for (byte[] event = stream.next(); event != null; event = stream.next()) {
                    each.accept(event);
                }
            }
        }
    }
}
