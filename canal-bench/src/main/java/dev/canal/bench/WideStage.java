package dev.canal.bench;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The big-and-wide question: our server ({@link ServerStage}, the server's heap) catching up the one large
 * transaction of {@link WideWorkload}, drained by the official client with batch 1000. Rows are counted (each
 * table's rows of 200 values are not digested: the catch-up stages check values); reports rows/s, server CPU per
 * row, peak RSS and when the first row arrived.
 */
final class WideStage {

    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** @param firstRowSeconds when the client had the transaction's first row */
    record Result(StageResult run, double firstRowSeconds, long columnValues) {
    }

    private WideStage() {
    }

    static Result run(Target target, ChildJvm jvm) throws Exception {
        String stage = "wide-client-batch1000";
        try (ChildJvm.Running server = jvm.start("server", target.toArgs(), stage)) {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.stdout(), StandardCharsets.UTF_8));
            ProcessMeter meter = ProcessMeter.of(server.pid());
            int port = OfficialClientStage.awaitPort(out, stage);
            OfficialClientStage.drain(out, stage);
            long started = System.nanoTime();
            long cpu = meter.cpuNanos();
            long firstRow = 0;
            long rows = 0;
            long values = 0;
            CanalConnector connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port),
                    ServerStage.DESTINATION, "", "");
            try {
                connector.connect();
                connector.subscribe();
                long lastRow = started;
                while (rows < target.rowChanges()) {
                    Message message = connector.getWithoutAck(1000, 1000L, TimeUnit.MILLISECONDS);
                    long before = rows;
                    for (CanalEntry.Entry entry : message.getEntries()) {
                        long n = OfficialClientStage.rowsCount(entry);
                        if (n > 0) {
                            CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                            for (CanalEntry.RowData row : change.getRowDatasList()) {
                                values += row.getAfterColumnsCount();
                            }
                        }
                        rows += n;
                    }
                    if (message.getId() != -1) {
                        connector.ack(message.getId());
                    }
                    long now = System.nanoTime();
                    if (rows > before) {
                        lastRow = now;
                        if (firstRow == 0) {
                            firstRow = now;
                        }
                    } else if (now - lastRow > STALL_NANOS) {
                        throw new IllegalStateException(stage + ": no row for 60 s after " + rows + "; see "
                                + server.log());
                    }
                }
            } finally {
                connector.disconnect();
            }
            long nanos = System.nanoTime() - started;
            StageResult run = new StageResult(stage, rows, 0, 0, nanos, meter.cpuNanos() - cpu, meter.peakRssKb(),
                    "-");
            return new Result(run, (firstRow - started) / 1e9, values);
        }
    }
}
