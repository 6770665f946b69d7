package dev.canal.binlog.net;

import static dev.canal.binlog.net.ReplicaTestSupport.FORMAT_DESCRIPTION_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.GTID_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.GTID_TAGGED_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.HEARTBEAT_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.HEARTBEAT_V2_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.MARIADB_ANNOTATE_ROWS_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.MARIADB_GTID_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.PREVIOUS_GTIDS_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.ROTATE_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.XID_EVENT;
import static dev.canal.binlog.net.ReplicaTestSupport.isRowsInsert;
import static dev.canal.binlog.net.ReplicaTestSupport.isTableMapOf;
import static dev.canal.binlog.net.ReplicaTestSupport.nextPosition;
import static dev.canal.binlog.net.ReplicaTestSupport.readUntil;
import static dev.canal.binlog.net.ReplicaTestSupport.replica;
import static dev.canal.binlog.net.ReplicaTestSupport.replicationOptions;
import static dev.canal.binlog.net.ReplicaTestSupport.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.binlog.gtid.MariadbGtid;
import dev.canal.binlog.gtid.MariadbGtidList;
import dev.canal.binlog.gtid.MysqlGtidSet;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MySqlServerExtension.class)
class BinlogStreamIT {

    private static final String SCHEMA = "canal_net_it";
    static final String ALLOW_TAGGED_GTIDS_ENV = "CANAL_TEST_MYSQL_TAGGED_GTIDS";
    static final String EXCLUSIVE_SERVER_ENV = "CANAL_TEST_MYSQL_EXCLUSIVE";
    private static final Duration HEARTBEAT = ReplicaOptions.DEFAULT_HEARTBEAT;

    @BeforeAll
    static void createTables(MySqlServer db) {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".by_position (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE " + SCHEMA + ".by_tls (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE " + SCHEMA + ".by_gtid (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE " + SCHEMA + ".by_mariadb_gtid (id INT PRIMARY KEY, v VARCHAR(20))");
    }

    @Test
    void dumpFromTheCurrentPositionDeliversNewRowsWithAdvancingPositions(MySqlServer db) throws Exception {
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        BinlogFilePosition start = replica.currentBinlogPosition();
        assertThat(start.file()).isEqualTo(db.currentBinlogPosition().file());
        try (BinlogStream stream = replica.dump(start.file(), start.position())) {
            assertThat(stream.checksumType()).isEqualTo(BinlogChecksumType.parse(db.variable("binlog_checksum")));
            db.execute("INSERT INTO " + SCHEMA + ".by_position VALUES (1, 'a'), (2, 'b')",
                    "INSERT INTO " + SCHEMA + ".by_position VALUES (3, 'c')");

            List<byte[]> events = readUntil(stream, countingRowInserts("by_position", 2));
            assertThat(type(events.get(0))).as("a fake ROTATE names the file first").isEqualTo(ROTATE_EVENT);
            assertThat(stream.currentFile()).isEqualTo(start.file());
            assertThat(type(events.get(1))).isEqualTo(FORMAT_DESCRIPTION_EVENT);
            assertThat(events).filteredOn(e -> isTableMapOf(e, "by_position")).hasSize(2);
            assertThat(events).filteredOn(e -> type(e) == XID_EVENT).isNotEmpty();

            // real events (next position set) follow each other without gaps from the start position on
            long expectedStart = start.position();
            for (byte[] e : events.subList(2, events.size())) {
                long next = nextPosition(e);
                if (next == 0 || type(e) == HEARTBEAT_EVENT || type(e) == HEARTBEAT_V2_EVENT) {
                    continue; // artificial events of the dump carry no position
                }
                assertThat(next - e.length).as("event type %d starts where the last ended", type(e))
                        .isEqualTo(expectedStart);
                expectedStart = next;
            }
            assertThat(stream.nextPosition()).isEqualTo(expectedStart).isGreaterThan(start.position());
            if (db.isMariaDb()) {
                assertThat(events).as("MariaDB sends the statement text when asked")
                        .anyMatch(e -> type(e) == MARIADB_ANNOTATE_ROWS_EVENT && new String(e, StandardCharsets.UTF_8)
                                .contains("INSERT INTO " + SCHEMA + ".by_position VALUES (3, 'c')"));
            }
        }
    }

    @Test
    void dumpToEndStopsAtTheCurrentEndOfTheBinlog(MySqlServer db) throws Exception {
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        BinlogFilePosition end = replica.currentBinlogPosition();
        try (BinlogStream stream = replica.dumpToEnd(end.file(), 4)) {
            long events = 0;
            while (stream.next() != null) {
                events++;
            }
            assertThat(events).isGreaterThan(2);
            assertThat(stream.currentFile()).isEqualTo(end.file());
            assertThat(stream.nextPosition()).isGreaterThanOrEqualTo(end.position());
        }
    }

    @Test
    void rowEventsLargerThanOnePacketArriveWhole(MySqlServer db) throws Exception {
        db.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".by_big (id INT PRIMARY KEY, b LONGBLOB)",
                "DELETE FROM " + SCHEMA + ".by_big");
        byte[] blob = new byte[PacketChannel.MAX_PAYLOAD + 1_000_000];
        java.util.Arrays.fill(blob, (byte) 'x');
        byte[] marker = "END-OF-BLOB".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(marker, 0, blob, blob.length - marker.length, marker.length);
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        BinlogFilePosition start = replica.currentBinlogPosition();
        try (BinlogStream stream = replica.dump(start.file(), start.position())) {
            try (java.sql.Connection c = db.adminConnection();
                    java.sql.PreparedStatement insert = c.prepareStatement(
                            "INSERT INTO " + SCHEMA + ".by_big VALUES (1, ?)")) {
                insert.setBytes(1, blob);
                insert.executeUpdate();
            }
            List<byte[]> events = readUntil(stream, rowsInsertInto("by_big"));
            byte[] rows = events.get(events.size() - 1);
            assertThat(rows.length).isGreaterThan(blob.length);
            String tail = new String(rows, rows.length - 100, 100, StandardCharsets.US_ASCII);
            assertThat(tail).contains("END-OF-BLOB");
            assertThat(nextPosition(rows) - rows.length).isGreaterThan(start.position());
        }
    }

    @Test
    void dumpOverTlsDeliversEvents(MySqlServer db) throws Exception {
        ConnectionOptions tls = replicationOptions(db).withSsl(SslOptions.of(SslMode.PREFERRED));
        ReplicaSession replica = replica(tls, HEARTBEAT);
        assumeTrue(replica.connection().isSecure(), "server offers no TLS");
        BinlogFilePosition start = replica.currentBinlogPosition();
        try (BinlogStream stream = replica.dump(start.file(), start.position())) {
            db.execute("INSERT INTO " + SCHEMA + ".by_tls VALUES (1, REPEAT('x', 20))");
            assertThat(readUntil(stream, rowsInsertInto("by_tls"))).isNotEmpty();
        }
    }

    @Test
    void idleStreamCarriesVerifiedHeartbeats(MySqlServer db) throws Exception {
        ReplicaSession replica = replica(replicationOptions(db), Duration.ofMillis(500));
        BinlogFilePosition start = replica.currentBinlogPosition();
        try (BinlogStream stream = replica.dump(start.file(), start.position())) {
            List<byte[]> events = readUntil(stream, e -> type(e) == HEARTBEAT_EVENT || type(e) == HEARTBEAT_V2_EVENT);
            byte[] heartbeat = events.get(events.size() - 1);
            assertThat(new String(heartbeat, 19, heartbeat.length - 19 - stream.checksumLength(),
                    StandardCharsets.US_ASCII)).as("a heartbeat names the current file").contains(start.file());
        }
    }

    @Test
    void dumpFromAMysqlGtidSetSkipsExecutedTransactions(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "MySQL GTIDs");
        assumeTrue("ON".equalsIgnoreCase(db.variable("gtid_mode")), "gtid_mode is off on " + db);
        db.execute("INSERT INTO " + SCHEMA + ".by_gtid VALUES (1, 'before')");
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        MysqlGtidSet executed = MysqlGtidSet.parse(replica.currentBinlogPosition().gtidSet());
        assertThat(executed.isEmpty()).isFalse();
        try (BinlogStream stream = replica.dump(executed)) {
            db.execute("INSERT INTO " + SCHEMA + ".by_gtid VALUES (2, 'after')");
            List<byte[]> events = readUntil(stream, e -> isTableMapOf(e, "by_gtid"));
            assertOnlyTheNewRowFollows(stream);

            byte[] previous = events.stream().filter(e -> type(e) == PREVIOUS_GTIDS_EVENT).findFirst().orElseThrow();
            MysqlGtidSet before = MysqlGtidSet.decode(previous, 19, previous.length - 19 - stream.checksumLength());
            MysqlGtidSet union = executed.copy();
            union.addAll(before);
            assertThat(union).as("PREVIOUS_GTIDS %s lies within the executed set", before).isEqualTo(executed);

            byte[] gtid = events.stream().filter(e -> type(e) == GTID_EVENT).reduce((a, b) -> b).orElseThrow();
            LittleEndianCursor body = new LittleEndianCursor(gtid, 19, gtid.length - 19);
            body.skip(1); // flags
            String uuid = uuidText(body.bytes(16));
            long gno = body.int64();
            assertThat(executed.contains(uuid, gno)).as("streamed %s:%d is new", uuid, gno).isFalse();
            assertThat(MysqlGtidSet.parse(db.variable("global.gtid_executed")).contains(uuid, gno)).isTrue();
        }
    }

    /**
     * Tagged GTIDs (MySQL 8.3+) stay in the server's executed set for good, so this runs only on a server that may
     * keep them: set {@value #ALLOW_TAGGED_GTIDS_ENV}=true for a private one.
     */
    @Test
    void taggedGtidSetsEncodeForTheDumpAndDecodeFromPreviousGtids(MySqlServer db) throws Exception {
        assumeFalse(db.isMariaDb(), "MySQL GTIDs");
        assumeTrue("true".equals(System.getenv(ALLOW_TAGGED_GTIDS_ENV)),
                "tagged GTIDs would stay on a shared server; set " + ALLOW_TAGGED_GTIDS_ENV + "=true to run");
        db.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".by_tagged_gtid (id INT PRIMARY KEY)",
                "SET gtid_next = 'AUTOMATIC:canal_it'",
                "INSERT INTO " + SCHEMA + ".by_tagged_gtid VALUES (1)",
                "SET gtid_next = 'AUTOMATIC'");
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        MysqlGtidSet executed = MysqlGtidSet.parse(replica.currentBinlogPosition().gtidSet());
        assertThat(executed.toString()).contains(":canal_it:");
        try (BinlogStream stream = replica.dump(executed)) {
            db.execute("INSERT INTO " + SCHEMA + ".by_tagged_gtid VALUES (2)");
            List<byte[]> events = readUntil(stream, e -> isTableMapOf(e, "by_tagged_gtid"));
            byte[] lastGtid = events.stream().filter(e -> type(e) == GTID_EVENT || type(e) == GTID_TAGGED_EVENT)
                    .reduce((a, b) -> b).orElseThrow();
            assertThat(type(lastGtid)).as("the tagged transaction in the sent set is skipped").isEqualTo(GTID_EVENT);

            db.execute("FLUSH BINARY LOGS");
            byte[] previous = readUntil(stream, e -> type(e) == PREVIOUS_GTIDS_EVENT).stream()
                    .reduce((a, b) -> b).orElseThrow();
            MysqlGtidSet decoded = MysqlGtidSet.decode(previous, 19, previous.length - 19 - stream.checksumLength());
            assertThat(decoded.toString()).contains(":canal_it:");
            MysqlGtidSet union = decoded.copy();
            union.addAll(executed);
            assertThat(union).as("the new file's PREVIOUS_GTIDS %s covers the set we started from", decoded)
                    .isEqualTo(decoded);
        }
    }

    @Test
    void mariadbDumpStartsAfterTheConnectState(MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb(), "MariaDB GTIDs");
        db.execute("INSERT INTO " + SCHEMA + ".by_mariadb_gtid VALUES (1, 'before')");
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        MariadbGtidList state = MariadbGtidList.parse(replica.currentBinlogPosition().gtidSet());
        assertThat(state.isEmpty()).isFalse();
        try (BinlogStream stream = replica.dump(state)) {
            db.execute("INSERT INTO " + SCHEMA + ".by_mariadb_gtid VALUES (2, 'after')");
            List<byte[]> events = readUntil(stream, e -> isTableMapOf(e, "by_mariadb_gtid"));
            assertOnlyTheNewRowFollows(stream);
            byte[] gtid = events.stream().filter(e -> type(e) == MARIADB_GTID_EVENT).reduce((a, b) -> b).orElseThrow();
            LittleEndianCursor body = new LittleEndianCursor(gtid, 19, gtid.length - 19);
            long sequence = body.int64();
            long domain = body.uint32();
            MariadbGtid before = state.get(domain);
            assertThat(before).as("domain %d in %s", domain, state).isNotNull();
            assertThat(sequence).isGreaterThan(before.sequence());
        }
    }

    /**
     * The server sends each file's events as written, whatever the session asked for, so verification must follow
     * each FORMAT_DESCRIPTION. Changing {@code binlog_checksum} rotates the binlog of everyone on the server, so this
     * runs only on the fixture's private server or where {@value #EXCLUSIVE_SERVER_ENV}=true.
     */
    @Test
    void filesWrittenUnderAnotherChecksumSettingStreamWithTheirOwn(MySqlServer db) throws Exception {
        assumeTrue(db.origin().startsWith("private") || "true".equals(System.getenv(EXCLUSIVE_SERVER_ENV)),
                "changes the global binlog_checksum; set " + EXCLUSIVE_SERVER_ENV + "=true on a private server");
        String original = db.variable("global.binlog_checksum");
        String table = SCHEMA + ".by_checksum";
        try {
            db.execute("CREATE TABLE IF NOT EXISTS " + table + " (id INT PRIMARY KEY)", "DELETE FROM " + table,
                    "SET GLOBAL binlog_checksum = 'NONE'");
            MySqlServer.BinlogCoordinates plainFile = db.currentBinlogPosition();
            db.execute("INSERT INTO " + table + " VALUES (1)", "SET GLOBAL binlog_checksum = 'CRC32'");
            MySqlServer.BinlogCoordinates crcFile = db.currentBinlogPosition();
            db.execute("INSERT INTO " + table + " VALUES (2)");
            assertThat(rowEventChecksumLengths(db, plainFile.file())).as("session CRC32, files NONE then CRC32")
                    .containsExactly(0, 4);

            db.execute("SET GLOBAL binlog_checksum = 'NONE'", "INSERT INTO " + table + " VALUES (3)");
            assertThat(rowEventChecksumLengths(db, crcFile.file())).as("session NONE, files CRC32 then NONE")
                    .containsExactly(4, 0);
        } finally {
            db.execute("SET GLOBAL binlog_checksum = '" + original + "'");
        }
    }

    /** Dumps from the start of {@code file} to the end; the checksum length of each rows event of by_checksum. */
    private static List<Integer> rowEventChecksumLengths(MySqlServer db, String file) throws IOException {
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        List<Integer> lengths = new java.util.ArrayList<>();
        try (BinlogStream stream = replica.dumpToEnd(file, 4)) {
            boolean ours = false;
            for (byte[] e; (e = stream.next()) != null; ) {
                if (type(e) == ReplicaTestSupport.TABLE_MAP_EVENT) {
                    ours = isTableMapOf(e, "by_checksum");
                } else if (isRowsInsert(e) && ours) {
                    lengths.add(stream.checksumLength());
                }
            }
        }
        return lengths;
    }

    @Test
    void missingBinlogFileFailsWith1236AndTheServersMessage(MySqlServer db) throws Exception {
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        try (BinlogStream stream = replica.dump("no-such-binlog.000999", 4)) {
            assertThatThrownBy(stream::next).isInstanceOfSatisfying(MysqlServerException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(MysqlServerException.FATAL_ERROR_READING_BINLOG);
                assertThat(e.serverMessage()).containsIgnoringCase("could not find first log file");
                assertThat(e.getMessage()).contains("no-such-binlog.000999:4");
            });
            assertThat(stream.next()).as("nothing follows a server error").isNull();
        }
    }

    @Test
    void killingTheDumpThreadFailsTheReaderPromptly(MySqlServer db) throws Exception {
        ReplicaSession replica = replica(replicationOptions(db), HEARTBEAT);
        BinlogFilePosition start = replica.currentBinlogPosition();
        long threadId = replica.connection().connectionId();
        try (BinlogStream stream = replica.dump(start.file(), start.position())) {
            readUntil(stream, e -> type(e) == FORMAT_DESCRIPTION_EVENT);
            db.execute("KILL " + threadId);
            assertTimeoutPreemptively(Duration.ofSeconds(15), () -> assertThatThrownBy(() -> {
                for (int i = 0; i < 1000 && stream.next() != null; i++) {
                    // events written before the kill may still arrive
                }
            }).isInstanceOfAny(ConnectionLostException.class, MysqlServerException.class)
                    .hasMessageContaining(db.host() + ":" + db.port())
                    .hasMessageContaining("reading the binlog dump from " + start.file()));
        }
    }

    @Test
    void closingTheStreamFromAnotherThreadUnblocksTheReader(MySqlServer db) throws Exception {
        assertCloseUnblocksTheReader(replicationOptions(db));
    }

    @Test
    void closingATlsStreamFromAnotherThreadUnblocksTheReader(MySqlServer db) throws Exception {
        ConnectionOptions tls = replicationOptions(db).withSsl(SslOptions.of(SslMode.PREFERRED));
        try (MysqlConnection probe = MysqlConnection.open(tls)) {
            assumeTrue(probe.isSecure(), "server offers no TLS");
        }
        assertCloseUnblocksTheReader(tls);
    }

    private static void assertCloseUnblocksTheReader(ConnectionOptions options) throws Exception {
        ReplicaSession replica = replica(options, HEARTBEAT);
        BinlogFilePosition start = replica.currentBinlogPosition();
        BinlogStream stream = replica.dump(start.file(), start.position());
        readUntil(stream, e -> type(e) == FORMAT_DESCRIPTION_EVENT);
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                while (stream.next() != null) {
                    // drain whatever the server still sends
                }
                return null;
            } catch (IOException | RuntimeException e) {
                return e;
            }
        });
        stream.close();
        await().atMost(Duration.ofSeconds(10)).until(reader::isDone);
        assertThat(reader.get()).isInstanceOf(ConnectionLostException.class).hasMessageContaining("closed locally");
    }

    /** Matches a rows insert into {@code table}, whose TABLE_MAP came just before (other suites may share the server). */
    private static java.util.function.Predicate<byte[]> rowsInsertInto(String table) {
        boolean[] mapped = {false};
        return e -> {
            if (type(e) == ReplicaTestSupport.TABLE_MAP_EVENT) {
                mapped[0] = isTableMapOf(e, table);
            }
            return mapped[0] && isRowsInsert(e);
        };
    }

    private static java.util.function.Predicate<byte[]> countingRowInserts(String table, int wanted) {
        java.util.function.Predicate<byte[]> ours = rowsInsertInto(table);
        int[] seen = {0};
        return e -> ours.test(e) && ++seen[0] == wanted;
    }

    /** The rows event after the table map just read inserts the row written after the dump started, not the one before. */
    private static void assertOnlyTheNewRowFollows(BinlogStream stream) throws IOException {
        byte[] rows = stream.next();
        assertThat(isRowsInsert(rows)).as("a rows insert follows its table map").isTrue();
        assertThat(new String(rows, StandardCharsets.ISO_8859_1)).contains("after").doesNotContain("before");
    }

    private static String uuidText(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                sb.append('-');
            }
            sb.append(String.format("%02x", b[i] & 0xFF));
        }
        return sb.toString();
    }
}
