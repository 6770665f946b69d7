package dev.canal.parse.snapshot;

import dev.canal.parse.SourceFlavour;
import dev.canal.parse.meta.JdbcTableMetaSource;
import dev.canal.parse.meta.TableMeta;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.sink.filter.SinkFilterConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The snapshots of one destination (docs/snapshots.md): a thread that copies the requested tables in primary-key
 * chunks and puts each chunk into the parser's stream through a {@link StreamInterleaver}, polls the signal table
 * for run-time requests, keeps the progress with the meta, and throttles to the configured rate.
 *
 * <p>The parser attaches each dump's ordered output ({@link #attach}), sends every event's entries through
 * {@link #accept}, and detaches when the dump ends. When the source purged the position the parser needed and it
 * reads on from the source's current position, it asks for a recovery ({@link #recoverPurgedPosition}): every
 * selected table is copied again, each copy beginning with a reset entry (docs/snapshots.md).
 */
public final class SnapshotService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SnapshotService.class);
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema", "performance_schema",
            "sys");
    private static final long PROGRESS_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long RETRY_MILLIS = 2000;

    private final String destination;
    private final SnapshotConfig config;
    private final SnapshotProgressStore store;
    private final Supplier<Connection> connections;
    private final Supplier<SinkFilterConfig> filters;
    private final ZoneId timestampZone;
    private final boolean hasCursor;
    private final StreamInterleaver interleaver = new StreamInterleaver();
    private final SnapshotProgress progress;
    private final Thread thread;
    private volatile boolean running = true;
    private final LongAdder rowsRead = new LongAdder();
    private final LongAdder rowsEmitted = new LongAdder();
    private final LongAdder chunks = new LongAdder();
    private final LongAdder tablesDone = new LongAdder();
    private final AtomicInteger tablesPending = new AtomicInteger();
    private final LongAdder recoveries = new LongAdder();
    /** Set by the parser thread, taken by the snapshot thread: copy the selected tables again, with resets. */
    private volatile boolean recoveryRequested;

    private SnapshotService(String destination, SnapshotConfig config, SnapshotProgressStore store,
            Supplier<Connection> connections, Supplier<SinkFilterConfig> filters, EntryPosition cursor,
            ZoneId timestampZone) {
        this.destination = destination;
        this.config = config;
        this.store = store;
        this.connections = connections;
        this.filters = filters;
        this.timestampZone = timestampZone;
        this.hasCursor = cursor != null;
        String saved = store.load();
        this.progress = saved == null ? new SnapshotProgress() : SnapshotProgress.decode(saved);
        progress.resumeAt(cursor);
        this.thread = new Thread(this::run, "snapshot-" + destination);
        thread.setDaemon(true);
    }

    /**
     * Starts the snapshots {@code config} asks for; null when it asks for none.
     *
     * @param filters  the destination's filters in force: the tables an initial snapshot copies, and the columns
     *                 of the rows it emits
     * @param cursor   where the clients' acknowledged stream stands (null: nothing acknowledged yet)
     * @param timestampZone the zone TIMESTAMP values are rendered in, as in the parser's binlog rows
     */
    public static SnapshotService startIfEnabled(String destination, SnapshotConfig config,
            SnapshotProgressStore store, Supplier<Connection> connections, Supplier<SinkFilterConfig> filters,
            EntryPosition cursor, ZoneId timestampZone) {
        if (!config.enabled()) {
            return null;
        }
        SnapshotService service = new SnapshotService(destination, config, store, connections, filters, cursor,
                timestampZone);
        service.thread.start();
        return service;
    }

    /** A dump begins; its ordered stage's entries go on to {@code downstream}. */
    public void attach(EntryDownstream downstream) {
        interleaver.attach(downstream);
    }

    /** The ordered stage: one event's entries, in binlog order. */
    public void accept(List<CanalEntry.Entry> entries) throws InterruptedException {
        interleaver.accept(entries);
    }

    /** The dump ended. */
    public void detach() {
        interleaver.detach();
    }

    /**
     * The source purged what the parser needed, and the parser now reads on from the source's current position: the
     * changes between are lost, so every selected table is copied again, each copy beginning with a reset entry.
     * Called by the parser thread once the new start is fixed and before it streams from there, so no chunk is read
     * before the stream's new start.
     */
    public void recoverPurgedPosition() {
        recoveries.increment();
        recoveryRequested = true; // a chunk of the old stream still waiting goes in at the new stream's first boundary
    }

    public SnapshotStats stats() {
        return new SnapshotStats(rowsRead.sum(), rowsEmitted.sum(), chunks.sum(), tablesDone.sum(),
                tablesPending.get(), recoveries.sum());
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        MDC.put("destination", destination);
        try {
            while (running) {
                try (Connection connection = connections.get()) {
                    work(connection);
                } catch (SQLException | RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    log.warn("destination {}: snapshot failed ({}); retrying in {} ms from the last chunk",
                            destination, e.toString(), RETRY_MILLIS, e);
                    Thread.sleep(RETRY_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            MDC.remove("destination");
        }
    }

    private void work(Connection connection) throws SQLException, InterruptedException {
        String statusQuery = Watermark.statusQuery(connection);
        if (config.copiesAtFirstStart(hasCursor) && !progress.initialRequested()) {
            for (SnapshotTable table : selectedTables(connection)) {
                progress.request(table);
            }
            progress.initialRequested(true);
            save();
            log.info("destination {}: initial snapshot of {} tables requested", destination,
                    progress.tables().size());
        }
        long nextPoll = 0;
        while (running) {
            if (recoveryRequested) {
                progress.recover(selectedTables(connection));
                save();
                recoveryRequested = false;
                log.warn("destination {}: copying {} selected tables again, each after a reset, to recover from the "
                        + "purged position", destination, progress.tables().size());
            }
            if (config.signalTable() != null && System.nanoTime() - nextPoll >= 0) {
                readSignals(connection);
                nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.signalPollMillis());
            }
            SnapshotProgress.TableProgress next = progress.next();
            tablesPending.set((int) progress.tables().stream().filter(t -> t.doneAt == null).count());
            if (next == null) {
                Thread.sleep(config.signalPollMillis()); // nothing to copy until a signal requests a table
                continue;
            }
            copy(connection, statusQuery, next);
        }
    }

    private List<SnapshotTable> selectedTables(Connection connection) throws SQLException {
        List<SnapshotTable> tables = new ArrayList<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' "
                        + "ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                SnapshotTable table = new SnapshotTable(rs.getString(1), rs.getString(2));
                if (!SYSTEM_SCHEMAS.contains(table.schema().toLowerCase(java.util.Locale.ROOT))
                        && !table.equals(config.signalTable()) && filters.get().tableFilter().accepts(table.schema(), table.table())) {
                    tables.add(table);
                }
            }
        }
        return tables;
    }

    private void readSignals(Connection connection) throws SQLException {
        SnapshotTable signal = config.signalTable();
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT id, tables FROM " + signal.quoted() + " WHERE id > ? ORDER BY id")) {
            st.setLong(1, progress.lastSignalId());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    for (String name : rs.getString(2).split(",")) {
                        if (!name.isBlank()) {
                            request(id, name);
                        }
                    }
                    progress.lastSignalId(id);
                    save();
                }
            }
        }
    }

    private void request(long signalId, String name) {
        SnapshotTable table;
        try {
            table = SnapshotTable.parse(name);
        } catch (IllegalArgumentException e) {
            log.warn("destination {}: snapshot signal {} of {} ignored: {}", destination, signalId,
                    config.signalTable(), e.getMessage());
            return;
        }
        progress.request(table);
        log.info("destination {}: snapshot of {} requested by signal {}", destination, table, signalId);
    }

    private void copy(Connection connection, String statusQuery, SnapshotProgress.TableProgress target)
            throws SQLException, InterruptedException {
        SnapshotTable table = target.table;
        TableMeta meta = new JdbcTableMetaSource(() -> connection).find(table.schema(), table.table());
        List<String> keys = primaryKey(connection, table);
        if (keys.isEmpty()) {
            log.warn("destination {}: {} has no primary key and is not snapshotted", destination, table);
            progress.tables().remove(target);
            save();
            return;
        }
        if (target.resetDue()) {
            interleaver.emitReset(table, Watermark.read(connection, statusQuery));
            log.info("destination {}: {} reset ahead of its copy", destination, table);
        }
        SourceFlavour flavour = SourceFlavour.ofProductVersion(connection.getMetaData().getDatabaseProductVersion());
        TableChunks chunker = new TableChunks(table, meta, keys, config.chunkSize(), flavour, timestampZone,
                () -> filters.get().columnFilter().forTable(table.schema(), table.table()));
        PrimaryKey after = target.resumeKey();
        log.info("destination {}: snapshot of {} {} in chunks of {} rows", destination, table,
                after == null ? "begins" : "resumes after key " + after.values(), config.chunkSize());
        interleaver.track(table, keys);
        // the first chunk gets a previous window, as every later chunk has (docs/snapshots.md, "How a chunk joins
        // the stream")
        interleaver.awaitWindow(Watermark.read(connection, statusQuery));
        long started = System.nanoTime();
        long lastLog = started;
        long tableRows = 0;
        try {
            while (running && !recoveryRequested) {
                long chunkStart = System.nanoTime();
                TableChunks.Chunk chunk = chunker.read(connection, after);
                Watermark high = Watermark.read(connection, statusQuery);
                StreamInterleaver.Emitted emitted = interleaver.emit(
                        new StreamInterleaver.SnapshotChunk(meta, chunk.rows(), chunk.keys()), high);
                Watermark at = new Watermark(emitted.at().getLogfileName(), emitted.at().getLogfileOffset());
                rowsRead.add(chunk.rows().size());
                rowsEmitted.add(emitted.rows());
                chunks.increment();
                tableRows += chunk.rows().size();
                if (chunk.rows().size() < config.chunkSize()) {
                    target.doneAt = at;
                    save();
                    tablesDone.increment();
                    long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                    log.info("destination {}: snapshot of {} done: {} rows in {} ms ({} rows/s)", destination,
                            table, tableRows, millis, tableRows * 1000 / millis);
                    return;
                }
                target.mark(chunk.lastKey(), at);
                save();
                after = chunk.lastKey();
                if (System.nanoTime() - lastLog >= PROGRESS_LOG_NANOS) {
                    lastLog = System.nanoTime();
                    log.info("destination {}: snapshot of {}: {} rows so far, at key {}", destination, table,
                            tableRows, after.values());
                }
                throttle(chunk.rows().size(), chunkStart);
            }
        } finally {
            interleaver.untrack();
        }
    }

    private static List<String> primaryKey(Connection connection, SnapshotTable table) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT COLUMN_NAME FROM information_schema.STATISTICS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX")) {
            st.setString(1, table.schema());
            st.setString(2, table.table());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
        }
        return keys;
    }

    /** Sleeps so that {@code rows} read since {@code startNanos} keep to the configured rate. */
    private void throttle(int rows, long startNanos) throws InterruptedException {
        if (config.rowsPerSecond() <= 0) {
            return;
        }
        long due = startNanos + rows * TimeUnit.SECONDS.toNanos(1) / config.rowsPerSecond();
        long wait = due - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private void save() {
        store.save(progress.encode());
    }
}
