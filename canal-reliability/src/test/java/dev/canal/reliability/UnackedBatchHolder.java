package dev.canal.reliability;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A client JVM that gets one batch with rows, prints it ({@code HOLDING <batchId> <table>#<id>@<file>:<offset> ...}) and then
 * waits, never acking, until its parent kills it with SIGKILL (scenario 2, {@link ClientKillIT}).
 *
 * <p>Usage: {@code java -cp <test class path> dev.canal.reliability.UnackedBatchHolder <port> <schema>}
 */
public final class UnackedBatchHolder {

    static final String PREFIX = "HOLDING ";

    private UnackedBatchHolder() {
    }

    public static void main(String[] args) throws Exception {
        CanalConnector connector = CheckingConsumer.connector(Integer.parseInt(args[0]));
        connector.connect();
        connector.subscribe(args[1] + "\\..*");
        while (true) {
            Message message = connector.getWithoutAck(4, 200L, TimeUnit.MILLISECONDS);
            List<ReceivedRow> rows = CheckingConsumer.insertedRows(message, 0);
            if (!rows.isEmpty()) {
                System.out.println(PREFIX + message.getId() + " "
                        + rows.stream().map(UnackedBatchHolder::format).collect(Collectors.joining(" ")));
                System.out.flush();
                System.in.read(); // hold the unacked batch until killed
                return;
            }
        }
    }

    static String format(ReceivedRow row) {
        return row.table() + "#" + row.id() + "@" + row.position().file() + ":" + row.position().offset();
    }

    /** A row as {@link #format} printed it, received in {@code session} at {@code nanos}. */
    static ReceivedRow parse(String text, int session, long nanos) {
        String[] tableAndRest = text.split("#", 2);
        String[] idAndPosition = tableAndRest[1].split("@", 2);
        int colon = idAndPosition[1].lastIndexOf(':');
        return new ReceivedRow(tableAndRest[0], Integer.parseInt(idAndPosition[0]), new BinlogPoint(
                idAndPosition[1].substring(0, colon), Long.parseLong(idAndPosition[1].substring(colon + 1))), session, nanos);
    }
}
