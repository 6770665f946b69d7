package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 9 (docs/reliability.md): rows far larger than the daemon's store (1 MiB, MEMSIZE): 16 MiB LONGBLOBs of
 * random bytes and JSON documents of several MiB, nested, with non-ASCII text, one row per transaction. A row event
 * over 16 MiB - 1 bytes reaches the parser in several MySQL packets, which the replication client must put back
 * together. The client first asks for nothing, then reads everything: each row must arrive once, whole and byte for
 * byte as the source holds it (SHA-256 of the blob's bytes and of the JSON text), and the daemon's live heap must
 * stay within what its configuration lets it hold.
 */
class BigRowsIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(BigRowsIT.class);
    private static final String SCHEMA = "rel_big_rows";
    private static final int MIB = 1 << 20;
    private static final long NEEDED_PACKET = 64L * MIB;
    private static final int BUFFER_SIZE = 1024;
    private static final int MEM_UNIT = 1024;
    private static final int TRANSACTION_SIZE = 64;
    /** The parser's ring, in events whatever their size: small, so that it cannot hold every row written. */
    private static final int PARALLEL_BUFFER = 4;
    /** See BigTransactionIT: two full-GC samples of the same held data differ by well under this. */
    private static final long NOISE_BYTES = 4L * MIB;
    /**
     * The daemon's heap: 256 MiB. What this configuration lets the daemon hold (the allowance checked below) stays
     * under it (docs/reliability.md, scenario 9). The parser's ring is bounded in bytes by default to a 32nd of the
     * heap (8 MiB here), less than one of these events, so it admits a big event only once the one before it has gone
     * on to the store, whatever {@link #PARALLEL_BUFFER} says; and the parser reads no big event from the source while
     * its transaction buffer waits for room in the store. Only an event read just before that wait began is held
     * besides: {@link #BIG_EVENTS_BEHIND_THE_STORE}.
     */
    private static final String HEAP = "-Xmx256m -Xms64m";
    /** The big events the parser holds, read or decoded, while its transaction buffer waits for the store. */
    private static final int BIG_EVENTS_BEHIND_THE_STORE = 1;

    /** One row as written: a blob (or null) and a JSON document (or null). */
    private record BigRow(int id, byte[] blob, String json) {
    }

    /** Digests of one row's values as the source holds them, or as a client received them. */
    private record Digests(String blob, int blobLength, String json, int jsonLength) {
    }

    /** Runs before DaemonScenario's clean-up, which then finds the daemon stopped already. */
    @AfterEach
    void stopDaemonAndPurgeItsBinlog(MySqlServer db) throws Exception {
        stopDaemon();
        // later scenarios' daemons scan their start file from its beginning: leave them no 16 MiB events to decode
        db.execute("FLUSH BINARY LOGS");
        db.execute("PURGE BINARY LOGS TO '" + db.currentBinlogPosition().file() + "'");
    }

    @Test
    void rowsOfManyMegabytesArriveWholeAndByteExactWhileTheDaemonsHeapStaysBounded(MySqlServer db) throws Exception {
        deliverBigRowsWholeWithBoundedHeap(db, HEAP);
    }

    private void deliverBigRowsWholeWithBoundedHeap(MySqlServer db, String javaOpts) throws Exception {
        Random random = seededRandom("BigRowsIT");
        ensureMaxAllowedPacket(db);
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE `" + SCHEMA + "`.big_rows (id INT PRIMARY KEY, b LONGBLOB, j JSON)");
        db.execute("FLUSH BINARY LOGS"); // the daemon's start-position scan then reads a short file
        List<BigRow> rows = List.of(
                new BigRow(1, randomBytes(random, 16 * MIB), "{\"small\": true}"),
                new BigRow(2, null, nestedJson(random, 4 * MIB)),
                new BigRow(3, randomBytes(random, 16 * MIB), nestedJson(random, 6 * MIB)),
                new BigRow(4, randomBytes(random, 16 * MIB), null),
                new BigRow(5, randomBytes(random, 16 * MIB), null),
                new BigRow(6, randomBytes(random, 16 * MIB), "[1]"));

        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.instance.memory.batch.mode", "MEMSIZE");
        daemon.set("conf/canal.properties", "canal.instance.memory.buffer.size", String.valueOf(BUFFER_SIZE));
        daemon.set("conf/canal.properties", "canal.instance.memory.buffer.memunit", String.valueOf(MEM_UNIT));
        daemon.set("conf/canal.properties", "canal.instance.transaction.size", String.valueOf(TRANSACTION_SIZE));
        daemon.set("conf/canal.properties", "canal.instance.parser.parallelBufferSize", String.valueOf(PARALLEL_BUFFER));
        daemon.javaOpts(javaOpts);
        daemon.start();
        ProcessHandle server = daemon.pid().orElseThrow();
        DaemonMetrics metrics = new DaemonMetrics(daemon);
        long storeLimit = (long) BUFFER_SIZE * MEM_UNIT;

        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        connector.connect();
        Map<Integer, Digests> written;
        Received received;
        long baseline;
        long stalledLive;
        long deliveryMillis;
        long peak;
        connector.subscribe(SCHEMA + "\\..*");
        // the baseline once the daemon is done starting its destination; the sampler's peak is compared with it
        baseline = LiveHeap.settledBytes(server);
        try (HeapSampler sampler = new HeapSampler(server, 1000)) {
            written = write(db, rows);
            // the client has asked for nothing yet: the first big row fills the store, the parser then waits
            daemon.awaitOrShowLogs("the store filling up to its limit", Duration.ofSeconds(120),
                    () -> metrics.storeHeldBytes() >= storeLimit);
            stalledLive = LiveHeap.liveBytes(server);
            long deliveryStart = System.nanoTime();
            received = receiveAll(connector, rows.size(), Duration.ofSeconds(120));
            deliveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deliveryStart);
            sampler.close();
            peak = Math.max(sampler.peakBytes(), stalledLive);
        } finally {
            connector.disconnect();
        }
        long rss = LiveHeap.residentBytes(server);
        long peakRss = LiveHeap.peakResidentBytes(server);
        // what the daemon may hold at any time: the store's limit plus one put (a whole transaction: a row's QUERY and
        // ROWDATA entries), the put waiting behind it (its entries and their encoded form share the value bytes), and
        // the big events the parser read before that put began to wait, each at most an entry of the largest size.
        // While the parser converts the next transaction instead, its entries so far and the rows event being decoded
        // take the place of the last two. A batch going out adds nothing: it is the store's own bytes, copied only
        // into the socket's buffer, which is off the heap
        long largest = received.largestEntryBytes;
        long transaction = received.largestTransactionBytes;
        long allowance = storeLimit + 2 * transaction + BIG_EVENTS_BEHIND_THE_STORE * largest + NOISE_BYTES;
        log.info("{} big rows: delivered in {} ms, {} KiB of entries (largest {} KiB, largest transaction {} KiB); live"
                + " heap {} KiB before, {} KiB stalled, peak {} KiB (allowance {} KiB over the baseline); RSS {} KiB, peak"
                + " RSS {} KiB", rows.size(), deliveryMillis, received.entryBytes / 1024, largest / 1024,
                transaction / 1024, baseline / 1024, stalledLive / 1024, peak / 1024, allowance / 1024, rss / 1024,
                peakRss / 1024);

        DeliveryCheck check = DeliveryCheck.of(Map.of("big_rows", rows.size()), received.rows);
        ResultsTable.record("9 rows of 16 MiB LONGBLOB / 4-6 MiB JSON (MEMSIZE store 1 MiB, " + javaOpts
                + ", stalled then read)", 1, check, List.of(deliveryMillis));
        assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
        assertThat(check.duplicated()).as("%s", check).isZero();
        assertThat(check.orderBreaches()).as("%s", check).isEmpty();
        assertThat(received.digests).as("digests of the values received, against the source's").isEqualTo(written);
        assertThat(stalledLive - baseline).as("growth of the daemon's live heap while the client stalled")
                .isLessThanOrEqualTo(allowance)
                .as("it holds only part of the %d KiB of entries written", received.entryBytes / 1024)
                .isLessThan(received.entryBytes);
        assertThat(peak - baseline).as("growth of the daemon's live heap (peak %d KiB, baseline %d KiB)",
                peak / 1024, baseline / 1024).isLessThanOrEqualTo(allowance);
    }

    /** 16 MiB rows need max_allowed_packet above 16 MiB on the source; raised if the server allows it. */
    private static void ensureMaxAllowedPacket(MySqlServer db) {
        if (Long.parseLong(db.variable("max_allowed_packet")) < NEEDED_PACKET) {
            db.execute("SET GLOBAL max_allowed_packet = " + NEEDED_PACKET); // new connections see it
        }
        assertThat(Long.parseLong(db.variable("max_allowed_packet"))).as("max_allowed_packet of %s", db)
                .isGreaterThanOrEqualTo(NEEDED_PACKET);
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * A JSON document of at least {@code minLength} characters: an array of items nested four levels deep, with
     * integers, booleans, null and strings (some not ASCII); no floating point, whose rendering may differ.
     */
    static String nestedJson(Random random, int minLength) {
        StringBuilder json = new StringBuilder(minLength + 1024).append("{\"items\": [");
        for (int i = 0; json.length() < minLength; i++) {
            json.append(i == 0 ? "" : ", ").append("{\"i\": ").append(i).append(", \"name\": \"item ").append(i)
                    .append(" \u00e9\u4e2d ").append(Long.toHexString(random.nextLong())).append("\", \"ok\": ")
                    .append(random.nextBoolean()).append(", \"none\": null, \"child\": {\"depth\": 1, \"child\":")
                    .append(" {\"depth\": 2, \"values\": [").append(random.nextInt()).append(", ")
                    .append(random.nextInt(1000)).append(", {\"depth\": 3, \"tags\": [\"a\", \"b\\\"q\"]}]}}}");
        }
        return json.append("], \"count\": ").append(json.length()).append('}').toString();
    }

    /**
     * Inserts each row in a transaction of its own, then reads the rows back: the digests are of the values as the
     * source returns them (MySQL stores JSON in a binary form and renders it in its own way).
     */
    private static Map<Integer, Digests> write(MySqlServer db, List<BigRow> rows) throws SQLException {
        try (Connection connection = db.adminConnection()) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO `" + SCHEMA + "`.big_rows (id, b, j) VALUES (?, ?, ?)")) {
                for (BigRow row : rows) {
                    insert.setInt(1, row.id());
                    insert.setBytes(2, row.blob());
                    insert.setString(3, row.json());
                    insert.executeUpdate();
                }
            }
            Map<Integer, Digests> digests = new LinkedHashMap<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, b, j FROM `" + SCHEMA + "`.big_rows ORDER BY id");
                    ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    digests.put(rs.getInt(1), digests(rs.getBytes(2), rs.getString(3)));
                }
            }
            for (BigRow row : rows) {
                assertThat(digests.get(row.id()).blob()).as("blob of row %d read back", row.id())
                        .isEqualTo(sha256(row.blob()));
            }
            return digests;
        }
    }

    private static Digests digests(byte[] blob, String json) {
        byte[] jsonBytes = json == null ? null : json.getBytes(StandardCharsets.UTF_8);
        return new Digests(sha256(blob), blob == null ? -1 : blob.length, sha256(jsonBytes),
                jsonBytes == null ? -1 : jsonBytes.length);
    }

    private static String sha256(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    private static Received receiveAll(CanalConnector connector, int rows, Duration limit) {
        Received received = new Received();
        StalledClientReads.readUntil(connector, () -> received.rows.size() >= rows, limit, received::add);
        return received;
    }

    /** The rows one client session received, each reduced to its digests (a blob arrives as ISO-8859-1 text). */
    private static final class Received {

        final List<ReceivedRow> rows = new ArrayList<>();
        final Map<Integer, Digests> digests = new LinkedHashMap<>();
        long entryBytes;
        long largestEntryBytes;
        /** The entries of the largest transaction, from its begin to its end, together. */
        long largestTransactionBytes;
        private long transactionBytes;

        void add(Message message) {
            for (CanalEntry.Entry entry : message.getEntries()) {
                entryBytes += entry.getSerializedSize();
                largestEntryBytes = Math.max(largestEntryBytes, entry.getSerializedSize());
                transactionBytes += entry.getSerializedSize();
                if (entry.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND) {
                    largestTransactionBytes = Math.max(largestTransactionBytes, transactionBytes);
                    transactionBytes = 0;
                }
                BinlogPoint position = new BinlogPoint(entry.getHeader().getLogfileName(),
                        entry.getHeader().getLogfileOffset());
                InsertedRows.forEach(entry, row -> {
                    int id = Integer.parseInt(InsertedRows.column(row, "id").getValue());
                    CanalEntry.Column blob = InsertedRows.column(row, "b");
                    CanalEntry.Column json = InsertedRows.column(row, "j");
                    rows.add(new ReceivedRow("big_rows", id, position, 0, System.nanoTime()));
                    digests.put(id, digests(blob.getIsNull() ? null : blob.getValue().getBytes(StandardCharsets.ISO_8859_1),
                            json.getIsNull() ? null : json.getValue()));
                });
            }
        }
    }
}
