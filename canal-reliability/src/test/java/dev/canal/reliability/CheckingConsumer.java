package dev.canal.reliability;

import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The official Canal client in a loop of getWithoutAck + ack, as a careful consumer runs it: each batch is
 * recorded before it is acked; a broken connection (the server was killed) is dropped and a new one made, which
 * starts a new session. Every received inserted row is kept, in arrival order, for {@link DeliveryCheck}.
 */
final class CheckingConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CheckingConsumer.class);
    private static final int BATCH_SIZE = 16; // memunits (KB) in the shipped MEMSIZE mode: several small batches

    private final int port;
    private final String filter;
    private final List<ReceivedRow> rows = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger sessions;
    private final Thread thread;

    /** Starts consuming; its sessions are numbered from {@code firstSession} on. */
    CheckingConsumer(int port, String schema, int firstSession) {
        this.port = port;
        this.sessions = new AtomicInteger(firstSession);
        this.filter = schema + "\\..*";
        this.thread = new Thread(this::consumeUntilClosed, "checking-consumer-" + schema);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void consumeUntilClosed() {
        while (running.get()) {
            CanalConnector connector = connector(port);
            try {
                connector.connect(); // the official client rolls back unacked batches on connect
                connector.subscribe(filter);
                int session = sessions.getAndIncrement();
                while (running.get()) {
                    Message message = connector.getWithoutAck(BATCH_SIZE, 200L, TimeUnit.MILLISECONDS);
                    rows.addAll(insertedRows(message, session));
                    if (message.getId() != -1) {
                        connector.ack(message.getId());
                    }
                }
                syncAcks(connector, filter);
            } catch (RuntimeException e) {
                log.debug("consumer connection to port {} broke ({}); reconnecting", port, e.toString());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // retry pause while the server is away
            } finally {
                disconnectQuietly(connector);
            }
        }
    }

    /**
     * Gets and acks batches of 16 until at least {@code wanted} rows came (within a minute), then syncs the acks
     * with a subscribe to {@code filter}; returns the rows, perhaps fewer than wanted.
     */
    static List<ReceivedRow> receiveAndAck(CanalConnector connector, int session, int wanted, String filter) {
        List<ReceivedRow> rows = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (rows.size() < wanted && System.nanoTime() < deadline) {
            Message message = connector.getWithoutAck(16, 200L, TimeUnit.MILLISECONDS);
            rows.addAll(insertedRows(message, session));
            if (message.getId() != -1) {
                connector.ack(message.getId());
            }
        }
        syncAcks(connector, filter);
        return rows;
    }

    /**
     * The official client does not wait for an answer to an ack; a subscribe does, and the server handles one
     * connection's requests in order, so once it returns every ack sent before it was applied.
     */
    static void syncAcks(CanalConnector connector, String filter) {
        connector.subscribe(filter);
    }

    /** The official client for the daemon's destination, as user canal/canal (the daemons here require it or no user). */
    static CanalConnector connector(int port) {
        return connector(port, CanalDaemon.DESTINATION);
    }

    /** The official client for another destination of the daemon. */
    static CanalConnector connector(int port, String destination) {
        return CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port), destination, "canal",
                "canal");
    }

    private static void disconnectQuietly(CanalConnector connector) {
        try {
            connector.disconnect();
        } catch (RuntimeException e) {
            log.debug("disconnect after a broken connection failed too: {}", e.toString());
        }
    }

    /** The inserted rows of a message, in entry order. */
    static List<ReceivedRow> insertedRows(Message message, int session) {
        long now = System.nanoTime();
        List<ReceivedRow> received = new ArrayList<>();
        for (CanalEntry.Entry entry : message.getEntries()) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            CanalEntry.RowChange change;
            try {
                change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
            }
            if (change.getEventType() != CanalEntry.EventType.INSERT) {
                continue;
            }
            CanalEntry.Header header = entry.getHeader();
            BinlogPoint position = new BinlogPoint(header.getLogfileName(), header.getLogfileOffset());
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                int id = row.getAfterColumnsList().stream().filter(c -> c.getName().equals("id"))
                        .mapToInt(c -> Integer.parseInt(c.getValue())).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no id column in " + header));
                received.add(new ReceivedRow(header.getTableName(), id, position, session, now));
            }
        }
        return received;
    }

    List<ReceivedRow> rows() {
        return List.copyOf(rows);
    }

    long distinctReceived() {
        return distinct(List.of(), rows);
    }

    /** How many different rows (table and id) {@code earlier} and {@code later} hold together. */
    static long distinct(List<ReceivedRow> earlier, List<ReceivedRow> later) {
        return Stream.concat(earlier.stream(), later.stream()).map(r -> r.table() + "#" + r.id()).distinct().count();
    }

    /**
     * Consumes from session {@code session} on until {@code received} and what comes now hold all {@code written}
     * rows (within a minute), then adds what came to {@code received}.
     */
    static void receiveTheRest(int port, String schema, int session, List<ReceivedRow> received, int written)
            throws InterruptedException {
        try (CheckingConsumer drain = new CheckingConsumer(port, schema, session)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> distinct(received, drain.rows()) >= written);
            drain.close();
            received.addAll(drain.rows());
        }
    }

    /** The first row received at or after {@code nanos}, if any yet. */
    Optional<ReceivedRow> firstReceivedAfter(long nanos) {
        return rows.stream().filter(r -> r.receivedAtNanos() >= nanos).findFirst();
    }

    int sessions() {
        return sessions.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }
}
