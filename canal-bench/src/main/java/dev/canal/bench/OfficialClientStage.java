package dev.canal.bench;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.client.impl.SimpleCanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 4: the official client {@code com.alibaba.otter:canal.client} 1.1.x, unmodified, in this JVM, against a
 * server in a child JVM: ours ({@link ServerStage}) or the real Canal 1.1.7 ({@link ReferenceCanal}), each with
 * one destination that catches up from the workload's start. getWithoutAck(batch, 1 s) then ack, until every row
 * change arrived. Optionally forces TCP_NODELAY on the client's socket (the client leaves Nagle on), and optionally
 * pauses after each batch, as a consumer that spends time on what it receives (a throttled client). Rows are
 * counted by the entries' {@code rowsCount} header prop; the entries the client parsed are kept and their row
 * changes digested after the clock stops. CPU and peak RSS are the server process's.
 */
final class OfficialClientStage {

    private static final Logger log = LoggerFactory.getLogger(OfficialClientStage.class);
    private static final long GET_TIMEOUT_MILLIS = 1000;
    /** A catch-up that delivers no row for this long has stalled (or lost rows): the stage fails. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long STATS_TIMEOUT_SECONDS = 30;
    /** The reference's stage names start so; ours start with {@code client-}. */
    static final String CANAL_117 = "canal117-";
    /** The reference's own log lines at WARN and above, as our server stage's (bench-logback.xml). */
    private static final List<String> REFERENCE_LOGGING = List.of("-Dcanal.reference.log.level=WARN");

    /**
     * A server being measured: where the client connects, whose CPU and memory count, where its log is, and how to
     * ask it for its own {@link ServerStats} (null for Canal 1.1.7, which has no such console).
     */
    private record Server(int port, ProcessMeter meter, long pid, Path log, Callable<ServerStats> stats) {
    }

    private interface Digester {
        void add(CanalEntry.Entry entry, RowDigest digest) throws InvalidProtocolBufferException;
    }

    private OfficialClientStage() {
    }

    /** Our server ({@link ServerStage} in a child JVM). */
    static StageResult run(Target target, ChildJvm jvm, int batchSize, boolean noDelay, long pauseMillis)
            throws Exception {
        String stage = "client-batch" + batchSize + (noDelay ? "-nodelay" : "") + pauseLabel(pauseMillis);
        try (ChildJvm.Running server = jvm.start("server", target.toArgs(), stage)) {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.stdout(), StandardCharsets.UTF_8));
            ProcessMeter meter = ProcessMeter.of(server.pid());
            int port = awaitPort(out, stage);
            BlockingQueue<String> statsLines = new LinkedBlockingQueue<>();
            drain(out, stage, statsLines);
            Writer console = new OutputStreamWriter(server.process().getOutputStream(), StandardCharsets.UTF_8);
            Callable<ServerStats> stats = () -> {
                console.write(ServerStats.REQUEST + "\n");
                console.flush();
                String line = statsLines.poll(STATS_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (line == null) {
                    throw new IllegalStateException(stage + ": the server did not answer " + ServerStats.REQUEST);
                }
                return ServerStats.parse(line);
            };
            return measure(stage, target, new Server(port, meter, server.pid(), server.log(), stats),
                    ServerStage.DESTINATION, batchSize, noDelay, pauseMillis, EntryDigests::addOfficial);
        }
    }

    /** The real Canal 1.1.7 (module canal-reference) in a child JVM with the deployer's JVM options. */
    static StageResult runReference(Target target, ChildJvm jvm, int batchSize, boolean noDelay, long pauseMillis)
            throws Exception {
        String stage = CANAL_117 + "batch" + batchSize + (noDelay ? "-nodelay" : "") + pauseLabel(pauseMillis);
        Path workDir = jvm.nextLogDir(stage);
        try (ReferenceCanal canal = ReferenceCanal.start(target.referenceDestination(ServerStage.DESTINATION),
                REFERENCE_LOGGING, workDir)) {
            return measure(stage, target, new Server(canal.port(), ProcessMeter.of(canal.pid()), canal.pid(),
                    canal.log(), null),
                    ServerStage.DESTINATION, batchSize, noDelay, pauseMillis, EntryDigests::addCanal117);
        }
    }

    private static StageResult measure(String stage, Target target, Server server, String destination,
            int batchSize, boolean noDelay, long pauseMillis, Digester digester) throws Exception {
        long started = System.nanoTime();
        long cpu = server.meter().cpuNanos();
        Map<String, Long> threadsBefore = ThreadCpu.of(server.pid());
        ServerStats statsBefore = server.stats() == null ? null : server.stats().call();
        CanalConnector connector = CanalConnectors.newSingleConnector(
                new InetSocketAddress("127.0.0.1", server.port()), destination, "", "");
        List<CanalEntry.Entry> received = new ArrayList<>();
        long rows = 0;
        try {
            connector.connect();
            if (noDelay) {
                socketOf(connector).socket().setTcpNoDelay(true);
            }
            connector.subscribe();
            long lastRow = started;
            long lastProgress = started;
            while (rows < target.rowChanges()) {
                long before = rows;
                Message message = connector.getWithoutAck(batchSize, GET_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                for (CanalEntry.Entry entry : message.getEntries()) {
                    received.add(entry);
                    rows += rowsCount(entry);
                }
                if (message.getId() != -1) {
                    connector.ack(message.getId());
                }
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis); // a slow consumer: it spends this long on each batch
                }
                long now = System.nanoTime();
                if (rows > before) {
                    lastRow = now;
                } else if (now - lastRow > STALL_NANOS) {
                    throw new IllegalStateException(stage + ": no row for 60 s after " + rows + " of "
                            + target.rowChanges() + "; see " + server.log());
                }
                if (now - lastProgress > PROGRESS_NANOS) {
                    log.info("{}: {} rows after {} s", stage, rows, (now - started) / 1_000_000_000);
                    lastProgress = now;
                }
            }
        } finally {
            connector.disconnect();
        }
        long nanos = System.nanoTime() - started;
        long cpuNanos = server.meter().cpuNanos() - cpu;
        long peakRssKb = server.meter().peakRssKb();
        ServerProfile profile = new ServerProfile(ThreadCpu.minus(ThreadCpu.of(server.pid()), threadsBefore),
                cpuNanos, statsBefore == null ? null : server.stats().call().minus(statsBefore));
        RowDigest digest = new RowDigest();
        for (CanalEntry.Entry entry : received) {
            digester.add(entry, digest);
        }
        return new StageResult(stage, digest.rows(), 0, 0, nanos, cpuNanos, peakRssKb, digest.value(), profile);
    }

    /** The stage name's suffix of a throttled client: {@code -pause5ms}; none for a client that does not pause. */
    private static String pauseLabel(long pauseMillis) {
        return pauseMillis > 0 ? "-pause" + pauseMillis + "ms" : "";
    }

    static int awaitPort(BufferedReader out, String stage) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(ServerStage.READY)) {
                return Integer.parseInt(line.substring(ServerStage.READY.length()).trim());
            }
        }
        throw new IllegalStateException(stage + ": the server JVM ended before listening (see its log)");
    }

    /** The row count the server put in a ROWDATA entry's header props (0 for other entries). */
    static long rowsCount(CanalEntry.Entry entry) {
        for (CanalEntry.Pair prop : entry.getHeader().getPropsList()) {
            if (prop.getKey().equals("rowsCount")) {
                return Long.parseLong(prop.getValue());
            }
        }
        return 0;
    }

    /** Keeps reading the server's standard output, so that nothing it prints can block it on a full pipe. */
    static void drain(BufferedReader out, String stage) {
        drain(out, stage, null);
    }

    /** As {@link #drain(BufferedReader, String)}, passing the server's {@link ServerStats} lines to {@code stats}. */
    private static void drain(BufferedReader out, String stage, BlockingQueue<String> stats) {
        Thread drain = new Thread(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    // the server prints nothing else on purpose; a stray line must not stall it
                    if (stats != null && ServerStats.isStatsLine(line)) {
                        stats.add(line);
                    }
                }
            } catch (IOException ended) {
                // the server JVM is gone
            }
        }, "drain-" + stage);
        drain.setDaemon(true);
        drain.start();
    }

    /**
     * The connector's socket channel: SimpleCanalConnector keeps it private and never sets TCP_NODELAY. Looked up
     * as a single field (reflection over all its fields would load the ZooKeeper client classes left out here).
     */
    private static SocketChannel socketOf(CanalConnector connector) throws ReflectiveOperationException {
        VarHandle channel = MethodHandles.privateLookupIn(SimpleCanalConnector.class, MethodHandles.lookup())
                .findVarHandle(SimpleCanalConnector.class, "channel", SocketChannel.class);
        return (SocketChannel) channel.get(connector);
    }
}
