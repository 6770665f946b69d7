package dev.canal.binlog.net;

import dev.canal.binlog.event.EventHeader;
import dev.canal.binlog.gtid.MariadbGtidList;
import dev.canal.binlog.gtid.MysqlGtidSet;
import dev.canal.binlog.io.LittleEndianCursor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link MysqlConnection} into a replica: the session set-up a replica performs, COM_REGISTER_SLAVE, and
 * the dump command (by file and position, by MySQL GTID set, or by MariaDB GTID list) that starts a
 * {@link BinlogStream}. After a dump the connection belongs to the stream.
 *
 * <pre>{@code
 * MysqlConnection c = MysqlConnection.open(ConnectionOptions.of(host, port, "canal", "canal"));
 * ReplicaSession replica = new ReplicaSession(c, ReplicaOptions.of(1234));
 * BinlogFilePosition at = replica.currentBinlogPosition();
 * try (BinlogStream events = replica.dump(at.file(), at.position())) {
 *     for (byte[] event; (event = events.next()) != null; ) { ... }
 * }
 * }</pre>
 */
public final class ReplicaSession {

    private static final Logger log = LoggerFactory.getLogger(ReplicaSession.class);

    private static final byte COM_BINLOG_DUMP = 0x12;
    private static final byte COM_REGISTER_SLAVE = 0x15;
    private static final byte COM_BINLOG_DUMP_GTID = 0x1E;
    /** COM_BINLOG_DUMP_GTID flag: the GTID set in the packet decides where to start. */
    private static final int BINLOG_THROUGH_GTID = 0x04;
    /** COM_BINLOG_DUMP flag: end the stream with an EOF packet at the end of the binlog instead of waiting. */
    private static final int BINLOG_DUMP_NON_BLOCK = 0x01;
    /**
     * COM_BINLOG_DUMP flag asking MariaDB for ANNOTATE_ROWS events (the statement text before rows events), which
     * Canal turns into QUERY entries. MySQL gives this bit no such meaning.
     */
    private static final int BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02;
    /** MARIA_SLAVE_CAPABILITY_GTID: the replica understands GTID events (MariaDB 10.0+). */
    private static final int MARIADB_SLAVE_CAPABILITY_GTID = 4;
    private static final long FIRST_EVENT_POSITION = 4;
    /**
     * The server id of a dump that is not a replica's: the server neither counts it as a replica nor ends another
     * dump for it, which it does for a dump under an id already dumping (mysqlbinlog reads remote files so).
     */
    private static final long NOT_A_REPLICA = 0;
    private static final long MAX_DUMP_POSITION = 0xFFFF_FFFFL;
    private static final int MAX_SHORT_STRING = 255;

    private final MysqlConnection connection;
    private final ReplicaOptions options;
    private BinlogChecksumType checksum; // null until setUp

    public ReplicaSession(MysqlConnection connection, ReplicaOptions options) {
        this.connection = connection;
        this.options = options;
    }

    public MysqlConnection connection() {
        return connection;
    }

    /**
     * Runs the replica session set-up once (later calls return the first answer) and returns the checksum the
     * server will put on events.
     */
    public BinlogChecksumType setUp() throws IOException {
        if (checksum != null) {
            return checksum;
        }
        connection.execute("set wait_timeout=9999999");
        connection.execute("set net_write_timeout=7200");
        connection.execute("set net_read_timeout=7200");
        connection.execute("set names 'binary'");
        // tells the server we understand event checksums; without it a checksumming server refuses to dump
        connection.execute("set @master_binlog_checksum= @@global.binlog_checksum");
        connection.execute("set @slave_uuid=uuid()");
        if (connection.serverVersion().isMariaDb()) {
            connection.execute("SET @mariadb_slave_capability=" + MARIADB_SLAVE_CAPABILITY_GTID);
        }
        if (!options.heartbeatPeriod().isZero()) {
            connection.execute("SET @master_heartbeat_period=" + options.heartbeatPeriod().toNanos());
        }
        long soTimeoutMillis = connection.soTimeoutMillis();
        if (soTimeoutMillis > 0 && (options.heartbeatPeriod().isZero()
                || options.heartbeatPeriod().toMillis() >= soTimeoutMillis)) {
            log.warn("heartbeat period {} is not below the socket timeout of {} ms on {}: an idle binlog stream will "
                    + "time out", options.heartbeatPeriod(), soTimeoutMillis, connection.address());
        }
        checksum = BinlogChecksumType.parse(connection.query("select @@global.binlog_checksum").scalar());
        log.debug("replica session on {} ({}) set up; events carry checksum {}", connection.address(),
                connection.serverVersion(), checksum);
        return checksum;
    }

    /** The current end of the binlog, with the executed GTID set (MySQL) or gtid_binlog_pos (MariaDB). */
    public BinlogFilePosition currentBinlogPosition() throws IOException {
        String sql = connection.serverVersion().binlogStatusQuery();
        QueryResult status = connection.query(sql);
        if (status.rows().isEmpty()) {
            throw new IOException(sql + " on " + connection.address() + " returned no row: binary logging is off");
        }
        List<String> row = status.rows().get(0);
        String gtid;
        if (connection.serverVersion().isMariaDb()) {
            gtid = connection.query("SELECT @@global.gtid_binlog_pos").scalar();
        } else {
            gtid = status.columns().contains("Executed_Gtid_Set") ? status.firstValue("Executed_Gtid_Set") : "";
        }
        return new BinlogFilePosition(row.get(0), Long.parseLong(row.get(1)), gtid == null ? "" : gtid.trim());
    }

    /** Starts streaming from {@code file} at {@code position} (4 for the file's start); waits for new events. */
    public BinlogStream dump(String file, long position) throws IOException {
        return dumpFrom(file, position, 0);
    }

    /**
     * Streams from {@code file} at {@code position} up to the end of the binlog as it is now; then
     * {@link BinlogStream#next()} returns null. For scanning files (start-position search).
     */
    public BinlogStream dumpToEnd(String file, long position) throws IOException {
        return dumpFrom(file, position, BINLOG_DUMP_NON_BLOCK);
    }

    private BinlogStream dumpFrom(String file, long position, int flags) throws IOException {
        if (position < FIRST_EVENT_POSITION || position > MAX_DUMP_POSITION) {
            throw new IllegalArgumentException("binlog position " + position + " of " + file + " outside 4.."
                    + MAX_DUMP_POSITION + " (COM_BINLOG_DUMP carries 4 bytes)");
        }
        prepare();
        sendBinlogDump(file, position, flags, options.serverId());
        return startStream(file, file + ":" + position);
    }

    /**
     * When the server began writing {@code file}: the time of the file's first event, which is also when the file
     * before it was last written. Read with a non-blocking dump of the file's start that is not a replica's, so it
     * leaves a dump of this replica's server id running; the connection belongs to that dump afterwards.
     *
     * @throws MysqlServerException the server has no such file (1236)
     */
    public long fileStartSeconds(String file) throws IOException {
        setUp();
        sendBinlogDump(file, FIRST_EVENT_POSITION, BINLOG_DUMP_NON_BLOCK, NOT_A_REPLICA);
        try (BinlogStream events = startStream(file, file + ":" + FIRST_EVENT_POSITION)) {
            for (byte[] event; (event = events.next()) != null; ) {
                EventHeader header = EventHeader.read(new LittleEndianCursor(event));
                if (header.nextPosition() != 0) { // not the artificial ROTATE the dump begins with
                    return header.timestamp();
                }
            }
        }
        throw new IOException("the binlog " + file + " on " + connection.address() + " has no event");
    }

    /** Starts streaming every transaction not in {@code executed} (MySQL 5.6+, COM_BINLOG_DUMP_GTID). */
    public BinlogStream dump(MysqlGtidSet executed) throws IOException {
        if (connection.serverVersion().isMariaDb()) {
            throw new IllegalStateException("MySQL GTID sets do not apply to MariaDB " + connection.serverVersion()
                    + "; use a MariadbGtidList");
        }
        prepare();
        byte[] gtids = executed.encode();
        ByteArrayOutputStream out = new ByteArrayOutputStream(23 + gtids.length);
        out.write(COM_BINLOG_DUMP_GTID);
        writeInt(out, BINLOG_THROUGH_GTID, 2);
        writeInt(out, options.serverId(), 4);
        writeInt(out, 0, 4); // no file name: the GTID set decides
        writeInt(out, FIRST_EVENT_POSITION, 8);
        writeInt(out, gtids.length, 4);
        out.writeBytes(gtids);
        connection.sendCommand(out.toByteArray());
        return startStream(null, "GTID set " + executed);
    }

    /** Starts streaming after the GTIDs of {@code state} (MariaDB 10.0+, via {@code @slave_connect_state}). */
    public BinlogStream dump(MariadbGtidList state) throws IOException {
        if (!connection.serverVersion().isMariaDb()) {
            throw new IllegalStateException("a MariaDB GTID list does not apply to " + connection.serverVersion()
                    + "; use a MysqlGtidSet");
        }
        prepare();
        connection.execute("SET @slave_connect_state='" + state + "'"); // digits, dashes and commas only
        connection.execute("SET @slave_gtid_strict_mode=0");
        connection.execute("SET @slave_gtid_ignore_duplicates=0");
        sendBinlogDump("", FIRST_EVENT_POSITION, 0, options.serverId()); // the server ignores file and position when a connect state is set
        return startStream(null, "MariaDB GTID " + state);
    }

    private void prepare() throws IOException {
        setUp();
        registerReplica();
    }

    private void registerReplica() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(COM_REGISTER_SLAVE);
        writeInt(out, options.serverId(), 4);
        String host = connection.localHostAddress();
        writeShortString(out, host);
        writeShortString(out, ""); // report user: not needed by the source
        writeShortString(out, ""); // report password: never sent
        writeInt(out, connection.localPort(), 2);
        writeInt(out, 0, 4); // replication rank, unused
        writeInt(out, 0, 4); // master id, filled in by the server
        connection.sendCommand(out.toByteArray());
        connection.readResponse("COM_REGISTER_SLAVE as server id " + options.serverId());
    }

    private void sendBinlogDump(String file, long position, int flags, long serverId) throws IOException {
        byte[] name = file.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(11 + name.length);
        out.write(COM_BINLOG_DUMP);
        writeInt(out, position, 4);
        writeInt(out, flags | (connection.serverVersion().isMariaDb() ? BINLOG_SEND_ANNOTATE_ROWS_EVENT : 0), 2);
        writeInt(out, serverId, 4);
        out.writeBytes(name);
        connection.sendCommand(out.toByteArray());
    }

    private BinlogStream startStream(String file, String start) {
        log.info("binlog dump from {} on {} as server id {}", start, connection.address(), options.serverId());
        return new BinlogStream(connection.startStreaming(), checksum, file, start);
    }

    private static void writeShortString(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(b.length, MAX_SHORT_STRING);
        out.write(n);
        out.write(b, 0, n);
    }

    private static void writeInt(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }
}
