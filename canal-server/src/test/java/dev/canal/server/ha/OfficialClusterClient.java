package dev.canal.server.ha;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official Canal client's cluster connector (canal.client 1.1.7) following a destination through
 * ZooKeeper, run in a JVM of its own with the client's own class path (its zkclient and ZooKeeper 3.5 cannot
 * share ours). Prints {@code ROW k} for every row entry received, in order, acks each batch after printing
 * it, and connects again whenever the connector gives up (it retries three times itself, 5 s apart).
 *
 * <p>Arguments: zkServers destination [id]. Row k is the entry at binlog offset 3k + 1 ({@link RowFileInstance}),
 * or with {@code id} the inserted row whose column {@code id} is k.
 */
public final class OfficialClusterClient {

    private static final int BATCH_SIZE = 100;
    private static final long GET_TIMEOUT_MILLIS = 200;
    private static final int ENTRIES_PER_ROW = 3;

    private OfficialClusterClient() {
    }

    /** The row numbers an entry carries: its binlog offset / 3, or with {@code byId} each inserted row's id. */
    private static List<Long> rowsOf(CanalEntry.Entry entry, boolean byId) {
        if (!byId) {
            return List.of(entry.getHeader().getLogfileOffset() / ENTRIES_PER_ROW);
        }
        try {
            List<Long> ids = new ArrayList<>();
            for (CanalEntry.RowData row : CanalEntry.RowChange.parseFrom(entry.getStoreValue()).getRowDatasList()) {
                for (CanalEntry.Column column : row.getAfterColumnsList()) {
                    if (column.getName().equals("id")) {
                        ids.add(Long.parseLong(column.getValue()));
                    }
                }
            }
            return ids;
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("row entry does not parse", e);
        }
    }

    public static void main(String[] args) {
        CanalConnector connector = CanalConnectors.newClusterConnector(args[0], args[1], "", "");
        boolean byId = args.length > 2 && args[2].equals("id");
        while (true) {
            try {
                connector.connect();
                connector.subscribe();
                System.out.println("SUBSCRIBED");
                while (true) {
                    Message message = connector.getWithoutAck(BATCH_SIZE, GET_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                    StringBuilder rows = new StringBuilder();
                    for (CanalEntry.Entry entry : message.getEntries()) {
                        if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                            for (long row : rowsOf(entry, byId)) {
                                rows.append("ROW ").append(row).append('\n');
                            }
                        }
                    }
                    System.out.print(rows);
                    if (message.getId() != -1) {
                        System.out.println("BATCH " + message.getId() + " of " + message.getEntries().size());
                        connector.ack(message.getId());
                    }
                    System.out.flush();
                }
            } catch (RuntimeException e) {
                System.out.println("RETRY " + e);
                System.out.flush();
                try {
                    connector.disconnect();
                } catch (RuntimeException alreadyBroken) {
                    // the connection is gone anyway: connect() starts afresh
                }
            }
        }
    }
}
