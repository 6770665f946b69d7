package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 8 (docs/reliability.md): one transaction of many rows ({@code -Dreliability.bigTxnRows}, 200,000 by
 * default, 1,000,000 for the heavy run) reaches a daemon whose MEMSIZE store holds 1 MiB. The client first asks for
 * nothing, so the parser has to wait for room instead of buffering the transaction; then it reads the whole
 * transaction with getWithoutAck + ack. Every row must arrive exactly once, in binlog order, with its value, inside
 * one transaction; and the daemon's live heap must stay within what its configuration lets it hold.
 */
class BigTransactionIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(BigTransactionIT.class);
    private static final String SCHEMA = "rel_big_txn";
    private static final int ROWS = Integer.getInteger("reliability.bigTxnRows", 200_000);
    private static final int ROWS_PER_INSERT = 1000;
    /** The daemon's store: 1,024 events of at most 1 MiB together (MEMSIZE), and the parser's buffers. */
    private static final int BUFFER_SIZE = 1024;
    private static final int MEM_UNIT = 1024;
    private static final int TRANSACTION_SIZE = 64;
    private static final int PARALLEL_BUFFER = 64;
    /**
     * What the daemon's live heap may differ by between two full-GC samples with the same data held (class
     * histograms of an idle daemon move by well under 1 MiB; SlowClientIT's samples agree to a few KiB).
     */
    private static final long NOISE_BYTES = 4L << 20;

    @Test
    void oneHugeTransactionIsDeliveredWholeInOrderWhileTheDaemonsHeapStaysBounded(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE `" + SCHEMA + "`.big (id INT PRIMARY KEY, v VARCHAR(64) NOT NULL)");
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.instance.memory.batch.mode", "MEMSIZE");
        daemon.set("conf/canal.properties", "canal.instance.memory.buffer.size", String.valueOf(BUFFER_SIZE));
        daemon.set("conf/canal.properties", "canal.instance.memory.buffer.memunit", String.valueOf(MEM_UNIT));
        daemon.set("conf/canal.properties", "canal.instance.transaction.size", String.valueOf(TRANSACTION_SIZE));
        daemon.set("conf/canal.properties", "canal.instance.parser.parallelBufferSize", String.valueOf(PARALLEL_BUFFER));
        daemon.start();
        ProcessHandle server = daemon.pid().orElseThrow();
        DaemonMetrics metrics = new DaemonMetrics(daemon);
        long storeLimit = (long) BUFFER_SIZE * MEM_UNIT;

        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        connector.connect();
        Received received;
        long baseline;
        long stalledLive;
        long heldWhileStalled;
        long writeMillis;
        long deliveryMillis;
        long peak;
        connector.subscribe(SCHEMA + "\\..*");
        // the baseline once the daemon is done starting its destination; the sampler's peak is compared with it
        baseline = LiveHeap.settledBytes(server);
        try (HeapSampler sampler = new HeapSampler(server, 1000)) {
            long writeStart = System.nanoTime();
            writeOneTransaction(db, ROWS);
            writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - writeStart);
            // the client has asked for nothing yet: the store fills up, then the parser has to wait for room
            daemon.awaitOrShowLogs("the store filling up to its limit", Duration.ofSeconds(120),
                    () -> metrics.storeHeldBytes() >= storeLimit);
            heldWhileStalled = metrics.storeHeldBytes();
            stalledLive = LiveHeap.liveBytes(server);
            long deliveryStart = System.nanoTime();
            received = receiveAll(connector, ROWS, Duration.ofSeconds(Math.max(120, ROWS / 2000)));
            deliveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deliveryStart);
            sampler.close();
            peak = Math.max(sampler.peakBytes(), stalledLive);
        } finally {
            connector.disconnect();
        }
        long rss = LiveHeap.residentBytes(server);
        long peakRss = LiveHeap.peakResidentBytes(server);
        // in entries of at most the largest size: the store's limit plus one put (a flush of the parser's transaction
        // buffer), the put waiting behind it as entries and as bytes, the parser's ring of raw and decoded events; and
        // a few batches on their way to the client
        long allowance = storeLimit + (3L * TRANSACTION_SIZE + 2L * PARALLEL_BUFFER) * received.largestEntryBytes()
                + 4L * StalledClientReads.BATCH_UNITS * MEM_UNIT + NOISE_BYTES;
        log.info("{} rows in one transaction: written in {} ms, delivered in {} ms, {} KiB of entries (largest {} B);"
                + " store held {} KiB while the client stalled (limit {} KiB); live heap {} KiB before, {} KiB stalled,"
                + " peak {} KiB, allowance {} KiB over the baseline; RSS {} KiB, peak RSS {} KiB", ROWS, writeMillis,
                deliveryMillis, received.entryBytes() / 1024, received.largestEntryBytes(), heldWhileStalled / 1024,
                storeLimit / 1024, baseline / 1024, stalledLive / 1024, peak / 1024, allowance / 1024, rss / 1024,
                peakRss / 1024);

        DeliveryCheck check = received.check(ROWS);
        ResultsTable.record("8 one transaction of " + ROWS + " rows (MEMSIZE store 1 MiB, stalled then read)", 1,
                check, List.of(deliveryMillis));
        assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
        assertThat(check.duplicated()).as("%s", check).isZero();
        assertThat(check.orderBreaches()).as("%s", check).isEmpty();
        assertThat(received.wrongValues()).as("rows whose v is not the value written").isEmpty();
        assertThat(received.transactionEndsAmongRows()).as("transaction ends between the first and the last row")
                .isZero();
        // the store may overshoot its limit by one put (a flush of the parser's transaction buffer)
        assertThat(heldWhileStalled).as("bytes the store held while the client stalled")
                .isLessThanOrEqualTo(storeLimit + TRANSACTION_SIZE * received.largestEntryBytes());
        assertThat(stalledLive - baseline).as("growth of the daemon's live heap while the client stalled: only part"
                + " of the %d KiB of entries of the transaction", received.entryBytes() / 1024)
                .isLessThan(received.entryBytes() / 2);
        assertThat(peak - baseline).as("growth of the daemon's live heap (peak %d KiB, baseline %d KiB)",
                peak / 1024, baseline / 1024).isLessThanOrEqualTo(allowance);
    }

    /** The value row {@code id} carries, so that the consumer can check every value it gets. */
    static String valueOf(int id) {
        return "r" + id + "-" + Integer.toHexString(id * 0x9E3779B1);
    }

    private static void writeOneTransaction(MySqlServer db, int rows) throws SQLException {
        try (Connection connection = db.adminConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int first = 1; first <= rows; first += ROWS_PER_INSERT) {
                StringBuilder sql = new StringBuilder("INSERT INTO `" + SCHEMA + "`.big (id, v) VALUES ");
                int last = Math.min(rows, first + ROWS_PER_INSERT - 1);
                for (int id = first; id <= last; id++) {
                    sql.append(id == first ? "" : ",").append('(').append(id).append(",'").append(valueOf(id)).append("')");
                }
                statement.executeUpdate(sql.toString());
            }
            connection.commit();
        }
    }

    /** Reads and acks until the last row arrived or {@code limit} passed, checking every row against what was written. */
    private static Received receiveAll(CanalConnector connector, int rows, Duration limit) {
        Received received = new Received(rows);
        StalledClientReads.readUntil(connector, () -> received.highestId >= rows, limit, received::add);
        return received;
    }

    /** What one client session received of ids 1..rows, checked as it arrives (no per-row objects are kept). */
    private static final class Received {

        private final int rows;
        private final BitSet seen;
        private final List<String> breaches = new ArrayList<>();
        private final List<String> wrongValues = new ArrayList<>();
        private long count;
        private int highestId;
        private int previousId;
        private int transactionEndsAmongRows;
        private long entryBytes;
        private long largestEntryBytes;

        Received(int rows) {
            this.rows = rows;
            this.seen = new BitSet(rows + 1);
        }

        void add(Message message) {
            for (CanalEntry.Entry entry : message.getEntries()) {
                entryBytes += entry.getSerializedSize();
                largestEntryBytes = Math.max(largestEntryBytes, entry.getSerializedSize());
                if (entry.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND && count > 0 && highestId < rows) {
                    transactionEndsAmongRows++;
                }
                InsertedRows.forEach(entry, this::checkRow);
            }
        }

        private void checkRow(CanalEntry.RowData row) {
            int id = Integer.parseInt(InsertedRows.column(row, "id").getValue());
            String value = InsertedRows.column(row, "v").getValue();
            if (id != previousId + 1 && breaches.size() < 10) {
                breaches.add("id " + id + " after id " + previousId);
            }
            if (!value.equals(valueOf(id)) && wrongValues.size() < 10) {
                wrongValues.add("id " + id + ": " + value);
            }
            if (id < 1 || id > rows) {
                breaches.add("id " + id + " was never written");
            } else {
                seen.set(id);
            }
            previousId = id;
            highestId = Math.max(highestId, id);
            count++;
        }

        DeliveryCheck check(int written) {
            int distinct = seen.cardinality();
            Set<String> missing = new TreeSet<>();
            for (int id = seen.nextClearBit(1); id <= written && missing.size() < 10; id = seen.nextClearBit(id + 1)) {
                missing.add("big#" + id);
            }
            return new DeliveryCheck(written, count, distinct, written - distinct, count - distinct, missing,
                    List.copyOf(breaches));
        }

        List<String> wrongValues() {
            return wrongValues;
        }

        int transactionEndsAmongRows() {
            return transactionEndsAmongRows;
        }

        long entryBytes() {
            return entryBytes;
        }

        long largestEntryBytes() {
            return largestEntryBytes;
        }
    }
}
