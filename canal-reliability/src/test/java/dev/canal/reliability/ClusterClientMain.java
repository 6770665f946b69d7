package dev.canal.reliability;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.client.impl.ClusterCanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Official Canal cluster clients (canal.client 1.1.7, {@code CanalConnectors.newClusterConnector}), one thread per
 * destination, each following its destination through ZooKeeper as an application would: it polls with
 * {@code getWithoutAck(batch)} (the server answers at once), prints the inserted rows of each batch, acks the batch,
 * and sleeps {@code pollMillis} when a batch was empty, as Canal's example client does (with 1000 ms there). Runs in
 * a JVM of its own on the official client's class path ({@code dev.canal.testsupport.OfficialClientClassPath}), so
 * it uses nothing of ours.
 *
 * <p>Arguments: zkServers pollMillis destination... Prints, one line each: {@code ROW destination table id file
 * offset serverPort} for every inserted row, {@code RETRY destination exception} when the connector gave up (after
 * its own three tries, 5 s apart) and the loop connects again.
 */
public final class ClusterClientMain {

    /** In the shipped MEMSIZE batch mode: memory units of 1 KB, several small batches. */
    private static final int BATCH_SIZE = 16;

    private ClusterClientMain() {
    }

    public static void main(String[] args) throws java.io.IOException {
        String zkServers = args[0];
        long pollMillis = Long.parseLong(args[1]);
        for (int i = 2; i < args.length; i++) {
            String destination = args[i];
            Thread thread = new Thread(() -> follow(zkServers, destination, pollMillis), "client-" + destination);
            thread.setDaemon(true);
            thread.start();
        }
        while (System.in.read() >= 0) {
            // runs until the test closes our input or kills us
        }
    }

    private static void follow(String zkServers, String destination, long pollMillis) {
        CanalConnector connector = CanalConnectors.newClusterConnector(zkServers, destination, "", "");
        while (true) {
            try {
                connector.connect();
                connector.subscribe();
                while (true) {
                    Message message = connector.getWithoutAck(BATCH_SIZE);
                    print(destination, message, serverPort(connector));
                    if (message.getId() == -1) {
                        Thread.sleep(pollMillis);
                    } else {
                        connector.ack(message.getId());
                    }
                }
            } catch (RuntimeException e) {
                synchronized (System.out) {
                    System.out.println("RETRY " + destination + " " + e.toString().replace('\n', ' '));
                    System.out.flush();
                }
                try {
                    connector.disconnect();
                } catch (RuntimeException alreadyBroken) {
                    // the connection is gone anyway: connect() starts afresh
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void print(String destination, Message message, int serverPort) {
        StringBuilder lines = new StringBuilder();
        for (CanalEntry.Entry entry : message.getEntries()) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            CanalEntry.RowChange change = rowChange(entry);
            if (change.getEventType() != CanalEntry.EventType.INSERT) {
                continue;
            }
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                String id = row.getAfterColumnsList().stream().filter(c -> c.getName().equals("id")).findFirst()
                        .orElseThrow().getValue();
                lines.append("ROW ").append(destination).append(' ').append(entry.getHeader().getTableName())
                        .append(' ').append(id).append(' ').append(entry.getHeader().getLogfileName()).append(' ')
                        .append(entry.getHeader().getLogfileOffset()).append(' ').append(serverPort).append('\n');
            }
        }
        if (lines.length() > 0) {
            PrintStream out = System.out;
            synchronized (out) {
                out.print(lines);
                out.flush();
            }
        }
    }

    private static CanalEntry.RowChange rowChange(CanalEntry.Entry entry) {
        try {
            return CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
        }
    }

    /**
     * The port of the server the connector is connected to, read from the official client's private socket field
     * (canal.client 1.1.7, {@code SimpleCanalConnector.channel}), so that the test knows which server delivered
     * each row; -1 when it cannot tell.
     */
    private static int serverPort(CanalConnector connector) {
        try {
            Object simple = ((ClusterCanalConnector) connector).getCurrentConnector();
            Field channel = simple.getClass().getSuperclass().getDeclaredField("channel");
            channel.setAccessible(true);
            SocketChannel socket = (SocketChannel) channel.get(simple);
            return socket == null ? -1 : ((InetSocketAddress) socket.getRemoteAddress()).getPort();
        } catch (ReflectiveOperationException | java.io.IOException | RuntimeException e) {
            return -1;
        }
    }
}
