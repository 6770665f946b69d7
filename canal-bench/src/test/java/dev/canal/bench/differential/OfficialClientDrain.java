package dev.canal.bench.differential;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.sink.HeartbeatTransaction;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Reads one destination with the unmodified official client, acking every batch, until the entry {@code last}
 * accepts and the TRANSACTIONEND after it have arrived, then looks once more so that anything delivered after the
 * end is seen too. Heartbeat transactions, which only our server sends (docs/compatibility.md), are left out.
 */
final class OfficialClientDrain {

    private OfficialClientDrain() {
    }

    static List<EntryFields> drain(int port, String destination, Predicate<CanalEntry.Entry> last,
            long timeoutMillis) throws InvalidProtocolBufferException {
        CanalConnector connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port),
                destination, "", "");
        List<EntryFields> entries = new ArrayList<>();
        connector.connect();
        try {
            connector.subscribe();
            long deadline = System.currentTimeMillis() + timeoutMillis;
            boolean seenLast = false;
            boolean done = false;
            while (!done && System.currentTimeMillis() < deadline) {
                Message message = connector.getWithoutAck(1000, 500L, TimeUnit.MILLISECONDS);
                for (CanalEntry.Entry entry : compared(message)) {
                    entries.add(EntryFields.of(entries.size(), entry));
                    done |= seenLast && entry.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND;
                    seenLast |= last.test(entry);
                }
                ack(connector, message);
            }
            Message extra = connector.getWithoutAck(1000, 1000L, TimeUnit.MILLISECONDS);
            for (CanalEntry.Entry entry : compared(extra)) {
                entries.add(EntryFields.of(entries.size(), entry));
            }
            ack(connector, extra);
        } finally {
            connector.disconnect();
        }
        return entries;
    }

    private static List<CanalEntry.Entry> compared(Message message) {
        return message.getEntries().stream().filter(entry -> entry.getHeader().getPropsList().stream()
                .noneMatch(p -> p.getKey().equals(HeartbeatTransaction.PROPERTY))).toList();
    }

    private static void ack(CanalConnector connector, Message message) {
        if (message.getId() != -1) {
            connector.ack(message.getId());
        }
    }
}
