package dev.canal.bench.differential;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Reads one destination with the unmodified official client, acking every batch, until the entry {@code last}
 * accepts has arrived and then a get of {@value #QUIET_MILLIS} ms brings nothing more: the workload is in the binlog
 * before the servers start, so whatever follows the last entry arrives at once, whatever filters leave of it.
 */
final class OfficialClientDrain {

    private static final long QUIET_MILLIS = 1000;

    private OfficialClientDrain() {
    }

    /** Subscribes with {@code filter} and leaves without reading: the server keeps the subscription. */
    static void subscribe(int port, String destination, String filter) {
        CanalConnector connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port),
                destination, "", "");
        connector.connect();
        try {
            connector.subscribe(filter);
        } finally {
            connector.disconnect();
        }
    }

    /**
     * @param filter the client's subscribe filter; null subscribes without one
     * @param startIndex the index of the first entry read (entries of an earlier drain come before)
     */
    static List<EntryFields> drain(int port, String destination, String filter, Predicate<CanalEntry.Entry> last,
            long timeoutMillis, int startIndex) throws InvalidProtocolBufferException {
        CanalConnector connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port),
                destination, "", "");
        List<EntryFields> entries = new ArrayList<>();
        connector.connect();
        try {
            if (filter == null) {
                connector.subscribe();
            } else {
                connector.subscribe(filter);
            }
            long deadline = System.currentTimeMillis() + timeoutMillis;
            boolean seenLast = false;
            boolean quiet = false;
            while (!quiet && System.currentTimeMillis() < deadline) {
                Message message = connector.getWithoutAck(1000, seenLast ? QUIET_MILLIS : 500L, TimeUnit.MILLISECONDS);
                for (CanalEntry.Entry entry : message.getEntries()) {
                    entries.add(EntryFields.of(startIndex + entries.size(), entry));
                    seenLast |= last.test(entry);
                }
                quiet = seenLast && message.getEntries().isEmpty();
                if (message.getId() != -1) {
                    connector.ack(message.getId());
                }
            }
        } finally {
            connector.disconnect();
        }
        return entries;
    }
}
