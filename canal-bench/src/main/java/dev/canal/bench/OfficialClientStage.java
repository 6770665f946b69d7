package dev.canal.bench;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.client.impl.SimpleCanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 4: the official client {@code com.alibaba.otter:canal.client} 1.1.x, unmodified, in this JVM, against
 * {@link ServerStage} in a child JVM: getWithoutAck(batch, 1 s) then ack, until every row change arrived.
 * Optionally forces TCP_NODELAY on the client's socket (the client leaves Nagle on).
 * CPU and peak RSS are the server process's.
 */
final class OfficialClientStage {

    private static final Logger log = LoggerFactory.getLogger(OfficialClientStage.class);
    private static final long GET_TIMEOUT_MILLIS = 1000;
    /** A catch-up that delivers no row for this long has stalled (or lost rows): the stage fails. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(10);

    private OfficialClientStage() {
    }

    static StageResult run(Target target, ChildJvm jvm, int batchSize, boolean noDelay) throws Exception {
        String stage = "client-batch" + batchSize + (noDelay ? "-nodelay" : "");
        try (ChildJvm.Running server = jvm.start("server", target.toArgs(), stage)) {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.stdout(), StandardCharsets.UTF_8));
            ProcessMeter meter = ProcessMeter.of(server.pid());
            int port = awaitPort(out, stage);
            long started = System.nanoTime();
            long cpu = meter.cpuNanos();
            CanalConnector connector = CanalConnectors.newSingleConnector(
                    new InetSocketAddress("127.0.0.1", port), ServerStage.DESTINATION, "", "");
            RowDigest digest = new RowDigest();
            try {
                connector.connect();
                if (noDelay) {
                    socketOf(connector).socket().setTcpNoDelay(true);
                }
                connector.subscribe();
                long lastRow = started;
                long lastProgress = started;
                while (digest.rows() < target.rowChanges()) {
                    long before = digest.rows();
                    Message message = connector.getWithoutAck(batchSize, GET_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                    for (CanalEntry.Entry entry : message.getEntries()) {
                        EntryDigests.addOfficial(entry, digest);
                    }
                    if (message.getId() != -1) {
                        connector.ack(message.getId());
                    }
                    long now = System.nanoTime();
                    if (digest.rows() > before) {
                        lastRow = now;
                    } else if (now - lastRow > STALL_NANOS) {
                        throw new IllegalStateException(stage + ": no row for 60 s after " + digest.rows() + " of "
                                + target.rowChanges() + "; see " + server.log());
                    }
                    if (now - lastProgress > PROGRESS_NANOS) {
                        log.info("{}: {} rows after {} s", stage, digest.rows(), (now - started) / 1_000_000_000);
                        lastProgress = now;
                    }
                }
            } finally {
                connector.disconnect();
            }
            long nanos = System.nanoTime() - started;
            return new StageResult(stage, digest.rows(), 0, 0, nanos, meter.cpuNanos() - cpu, meter.peakRssKb(),
                    digest.value());
        }
    }

    private static int awaitPort(BufferedReader out, String stage) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(ServerStage.READY)) {
                return Integer.parseInt(line.substring(ServerStage.READY.length()).trim());
            }
        }
        throw new IllegalStateException(stage + ": the server JVM ended before listening (see its log)");
    }

    /** The connector's socket channel: SimpleCanalConnector keeps it private and never sets TCP_NODELAY. */
    private static SocketChannel socketOf(CanalConnector connector) throws ReflectiveOperationException {
        Field channel = SimpleCanalConnector.class.getDeclaredField("channel");
        channel.setAccessible(true);
        return (SocketChannel) channel.get(connector);
    }
}
