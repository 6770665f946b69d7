package dev.canal.parse.mysql;

import dev.canal.parse.EventParser;
import dev.canal.parse.SourceFlavour;
import dev.canal.parse.SourceStatus;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.GtidTracker;
import dev.canal.parse.meta.CollationCatalog;
import dev.canal.parse.meta.JdbcTableMetaSource;
import dev.canal.parse.meta.history.SchemaHistoryTableMetaSource;
import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.parse.meta.TableMetaSource;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.RotateEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import dev.canal.binlog.net.BinlogFilePosition;
import dev.canal.binlog.net.BinlogStream;
import dev.canal.binlog.net.MysqlConnection;
import dev.canal.binlog.net.MysqlServerException;
import dev.canal.binlog.net.ReplicaOptions;
import dev.canal.binlog.net.ReplicaSession;
import dev.canal.parse.position.ConsumerCursors;
import dev.canal.parse.position.LogPositionManager;
import dev.canal.parse.retention.RetentionConfig;
import dev.canal.parse.retention.RetentionWatch;
import dev.canal.parse.snapshot.SnapshotConfig;
import dev.canal.parse.snapshot.SnapshotProgressStore;
import dev.canal.parse.snapshot.SnapshotService;
import dev.canal.parse.snapshot.SnapshotStats;
import dev.canal.parse.snapshot.StreamBoundaries;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.sink.EventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The parser of one destination: poses as a replica of the configured source, finds where to start
 *, streams the binlog, turns events into entries and hands them to the sink a transaction
 * at a time, remembering the last transaction end it delivered so a reconnect resumes from there.
 *
 * <p>A dropped connection or a server error reconnects with back-off from the last delivered position: a passing
 * failure (the source is down, the connection dropped) is a one-line warning, a lasting one (a wrong password, an
 * unknown host, a missing grant, binary logging off) one ALARM with its remedy and then quiet retries
 * ({@link SourceFailure}); {@link #sourceStatuses()} says where the parser stands. A binlog the source has purged
 * (error 1236) raises an alarm and stops the parser rather than skipping data, unless
 * {@code canal.instance.snapshot.mode=when_needed} has it read on from the source's current position and copy the
 * selected tables again (docs/operations.md, "A purged position"). With a
 * standby source and heartbeat HA configured, a source that fails its heartbeats is left for the other one
 * (docs/high-availability.md).
 */
public final class MysqlEventParser implements EventParser {

    private static final Logger log = LoggerFactory.getLogger(MysqlEventParser.class);

    /** "Could not find first log file name in binary log index file" and friends: the binlog we need is gone. */
    static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
    private static final long FIRST_BACKOFF_MILLIS = 1000;
    private static final long MAX_BACKOFF_MILLIS = 30_000;

    private final String destination;
    private final MysqlParserConfig config;
    private final EventSink sink;
    private final LogPositionManager positions;
    private final ActiveSource sources;
    private final TableMetaSource injectedMetas;
    private volatile TableMetaSource metas;
    private TableMetaSource preparedMetas; // guarded by this: built and loaded by prepare(), taken by start()
    private final CollationCatalog collations;
    private volatile SinkFilterConfig options;
    private volatile boolean running;
    private volatile Thread worker;
    private volatile BinlogStream stream;
    private volatile Throwable failure;
    private volatile SourceStatus status;
    /** The lasting failure last alarmed about, so that it is alarmed once; parser thread only. */
    private SourceFailure alarmed;
    private final LongAdder receivedBytes = new LongAdder();
    /** Set once the current connection has streamed events for a while: its failure is a new outage. */
    private volatile boolean streamed;
    private static final long HEALTHY_STREAM_NANOS = TimeUnit.SECONDS.toNanos(5);
    private volatile boolean resetToLatest; // canal.auto.reset.latest.pos.mode after a purged binlog
    private boolean recoverPurged; // parser thread only: when_needed after a purged binlog, copy once the start is set
    private boolean relocateByTimestamp; // parser thread only: the stored position belongs to another server
    private long sourceServerId = -1; // parser thread only: server_id of the source of the current connection
    private SourceDetector detector; // guarded by this
    private final LongAdder sourceSwitches = new LongAdder();
    /** A permit once the source was switched: the parser thread reconnects at once instead of backing off. */
    private final Semaphore sourceSwitched = new Semaphore(0);
    private final LongAdder publishBlockingNanos = new LongAdder();
    private SnapshotConfig snapshotConfig = SnapshotConfig.OFF;
    private SnapshotProgressStore snapshotStore = SnapshotProgressStore.inMemory();
    private volatile SnapshotService snapshots;
    private RetentionConfig retentionConfig;
    private ConsumerCursors consumerCursors;
    private volatile RetentionWatch retention;

    /**
     * A parser whose table meta comes from the schema history when {@code canal.instance.tsdb.enable} is on
     * (Canal's TSDB), else on demand from the source's information_schema.
     */
    public MysqlEventParser(String destination, MysqlParserConfig config, EventSink sink,
            LogPositionManager positions, SinkFilterConfig options) {
        this(destination, config, sink, positions, options, null);
    }

    /** @param metas where table definitions come from; null to choose by the configuration */
    public MysqlEventParser(String destination, MysqlParserConfig config, EventSink sink,
            LogPositionManager positions, SinkFilterConfig options, TableMetaSource metas) {
        this.destination = destination;
        this.config = config;
        this.sink = sink;
        this.positions = positions;
        this.options = options;
        this.sources = new ActiveSource(config);
        this.injectedMetas = metas;
        this.collations = new CollationCatalog(this::openMetadata);
    }

    /**
     * Replaces the table white list with a client's subscribe filter; takes effect from the
     * next event on.
     */
    public void setTableWhiteList(String patterns) {
        options = options.withTableWhiteList(patterns);
    }

    @Override
    public boolean replaceTableWhiteList(String regex) {
        setTableWhiteList(regex);
        return true;
    }

    /** Initial and run-time snapshots ({@code canal.instance.snapshot.*}, docs/snapshots.md); set before start. */
    public void setSnapshotConfig(SnapshotConfig snapshotConfig) {
        this.snapshotConfig = snapshotConfig;
    }

    /** Where the snapshot progress is kept beside the meta; in memory unless set before start. */
    public void setSnapshotProgressStore(SnapshotProgressStore snapshotStore) {
        this.snapshotStore = snapshotStore;
    }

    /** How the binlog retention left to each consumer is watched ({@code canal.instance.binlog.retention.*}). */
    public void setRetentionConfig(RetentionConfig retentionConfig) {
        this.retentionConfig = retentionConfig;
    }

    /** Where the consumers stand, for the binlog retention watch; without them (or a config) there is none. */
    public void setConsumerCursors(ConsumerCursors consumerCursors) {
        this.consumerCursors = consumerCursors;
    }

    /**
     * Seconds until the source's binlog expiry would purge the file each consumer's cursor names, by subscribed name,
     * as last checked (infinite when the source never expires binlogs); empty without a retention watch.
     */
    public Map<String, Double> binlogRetentionSeconds() {
        RetentionWatch watch = retention;
        return watch == null ? Map.of() : watch.secondsLeft();
    }

    /** What the snapshots did since start; null when none are configured. */
    public SnapshotStats snapshotStats() {
        SnapshotService s = snapshots;
        return s == null ? null : s.stats();
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        failure = null;
        status = SourceStatus.connecting(sources.current().toString());
        metas = injectedMetas != null ? injectedMetas : preparedMetas != null ? preparedMetas : configuredMetaSource();
        preparedMetas = null;
        detector = SourceDetector.startIfEnabled(destination, config, this::openMetadata,
                config.standby().switchOnFailedHeartbeat() ? this::switchSource : null);
        LogPosition cursor = positions.latest(destination);
        snapshots = SnapshotService.startIfEnabled(destination, snapshotConfig, snapshotStore,
                this::openMetadata, () -> options, cursor == null ? null : cursor.position(), config.timestampZone());
        if (retentionConfig != null && consumerCursors != null) {
            retention = RetentionWatch.start(destination, retentionConfig, consumerCursors, this::openMetadata,
                    this::binlogFileStartSeconds);
        }
        Thread t = new Thread(this::run, "parser-" + destination);
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /**
     * Loads the schema history and rebuilds its latest model ahead of the start, which then only rewinds it to the
     * start position. Connects to the source for the definitions only, never for the binlog.
     */
    @Override
    public synchronized void prepare() {
        if (running || injectedMetas != null || preparedMetas != null) {
            return;
        }
        TableMetaSource prepared = configuredMetaSource();
        try {
            prepared.prepare();
        } catch (RuntimeException e) {
            closeQuietly(prepared);
            throw e;
        }
        preparedMetas = prepared;
    }

    @Override
    public synchronized void stop() {
        if (preparedMetas != null) {
            closeQuietly(preparedMetas); // prepared, never started
            preparedMetas = null;
        }
        running = false;
        if (retention != null) {
            retention.close();
            retention = null;
        }
        if (snapshots != null) {
            snapshots.close(); // first: a chunk being emitted holds the ordered stage's lock
            snapshots = null;
        }
        Thread t = worker;
        if (t == null) {
            return;
        }
        BinlogStream s = stream;
        if (s != null) {
            s.close(); // unblocks a reader waiting on the socket
        }
        t.interrupt();
        try {
            t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker = null;
        if (detector != null) {
            detector.close();
            detector = null;
        }
        if (injectedMetas == null) {
            closeQuietly(metas);
        }
    }

    private void closeQuietly(TableMetaSource source) {
        if (source instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                log.warn("destination {}: closing the schema history failed: {}", destination, e.toString());
            }
        }
    }

    private TableMetaSource configuredMetaSource() {
        if (config.tsdb().enable()) {
            return new SchemaHistoryTableMetaSource(destination, config.tsdb(), this::openMetadata,
                    (schema, table) -> options.tableFilter().accepts(schema, table));
        }
        return new JdbcTableMetaSource(this::openMetadata);
    }

    /** A metadata connection to the source being read now. */
    private java.sql.Connection openMetadata() {
        return sources.current().connector().openMetadata();
    }

    /**
     * The heartbeat found the source down ({@code canal.instance.detecting.heartbeatHaEnable}): as Canal does,
     * the parser leaves it for the other configured source, master or standby, raising an alarm, and locates its
     * start there by the last delivered event's time (by its GTID set in GTID mode), the rule for a stored position
     * read from another source. Without a standby it only alarms, and keeps retrying the source it has.
     */
    void switchSource() {
        ActiveSource.Source from = sources.current();
        ActiveSource.Source to = sources.swap();
        if (to == null) {
            log.error("destination {}: ALARM: the source {} is down and no {} is configured to switch to; retrying it",
                    destination, from, StandbySource.ADDRESS.name());
            return;
        }
        sourceSwitches.increment();
        log.error("destination {}: ALARM: the source {} failed the detecting SQL more than {} times in a row; "
                + "switching to {}", destination, from, config.detectingRetryThreshold(), to);
        BinlogStream s = stream;
        if (s != null) {
            s.close(); // a stream from the failed source may hang until its socket times out
        }
        sourceSwitched.release();
    }

    /** The address the parser reads from now: the master, or the standby after a switch. */
    public String currentSource() {
        return sources.current().toString();
    }

    /** Switches between master and standby since this parser was created. */
    public long sourceSwitches() {
        return sourceSwitches.sum();
    }

    @Override
    public boolean isStart() {
        return running;
    }

    /** Whether and where this parser keeps its schema history ({@code canal.instance.tsdb.*}). */
    public TsdbConfig schemaHistoryConfig() {
        return config.tsdb();
    }

    /** Whether rows are decoded on parallel workers ({@code canal.instance.parser.parallel}). */
    public boolean isParallel() {
        return config.parallel();
    }

    /** Binlog bytes read from the source since this parser was created, across reconnects. */
    public long receivedBinlogBytes() {
        return receivedBytes.sum();
    }

    /** Time the reader spent waiting for room in the pipeline's ring, in nanoseconds. */
    public long publishBlockingNanos() {
        return publishBlockingNanos.sum();
    }

    /** Consecutive failures of the detecting SQL ({@code canal.instance.detecting.*}); 0 when off or healthy. */
    public synchronized int detectingFailures() {
        return detector == null ? 0 : detector.failures();
    }

    /** Connecting, streaming from a position, or failing and why; none before the first start. */
    @Override
    public List<SourceStatus> sourceStatuses() {
        SourceStatus now = status;
        return now == null ? List.of() : List.of(now);
    }

    /** Why the parser stopped by itself (e.g. the binlog it needs was purged); null while healthy. */
    public Throwable failure() {
        return failure;
    }

    private void run() {
        MDC.put("destination", destination);
        long backoff = FIRST_BACKOFF_MILLIS;
        try {
            while (running) {
                try {
                    dumpOnce();
                    backoff = FIRST_BACKOFF_MILLIS;
                } catch (MysqlServerException e) {
                    backoff = streamed ? FIRST_BACKOFF_MILLIS : backoff;
                    if (e.errorCode() == ER_MASTER_FATAL_ERROR_READING_BINLOG && !planRetryAfterMissingBinlog(e)) {
                        return;
                    }
                    backoff = retryAfter(e, backoff);
                } catch (IOException | RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    // a stream that delivered events was healthy: a new outage starts its back-off afresh
                    backoff = retryAfter(e, streamed ? FIRST_BACKOFF_MILLIS : backoff);
                } catch (InterruptedException e) {
                    return;
                } catch (Error e) {
                    // a broken installation (a missing class) or exhausted memory: retrying will not help
                    alarm("the parser failed with " + e, e);
                    return;
                }
            }
        } finally {
            MDC.remove("destination");
        }
    }

    /**
     * Error 1236, the binlog we asked for is not on the source: when the stored position was written by another
     * server (a different server_id now answers at the address) the start is located by time, as in Canal; else
     * with {@code canal.instance.snapshot.mode=when_needed} reading goes on from the source's current position and
     * the selected tables are copied again; else with {@code canal.auto.reset.latest.pos.mode} reading skips to the
     * source's current position; else an alarm stops the parser.
     *
     * @return whether to reconnect (false: the parser stopped)
     */
    private boolean planRetryAfterMissingBinlog(MysqlServerException e) {
        EntryPosition stored = storedPositionOfAnotherServer();
        if (stored != null) {
            log.warn("destination {}: the source cannot serve the binlog we need ({}) and its server_id {} is not "
                    + "the {} of the stored position {}: locating the start by time instead", destination,
                    e.getMessage(), sourceServerId, stored.serverId(), stored);
            relocateByTimestamp = true;
            return true;
        }
        if (snapshots != null && snapshotConfig.recoversPurgedPosition()) {
            log.error("destination {}: ALARM: the source cannot serve the binlog we need ({}); {} is when_needed, so "
                    + "reading goes on from the source's current position and every selected table is copied again, "
                    + "each after a reset", destination, e.getMessage(), SnapshotConfig.MODE.name());
            resetToLatest = true;
            recoverPurged = true;
            return true;
        }
        if (!config.autoResetLatestPosMode()) {
            alarm("the source cannot serve the binlog we need (" + e.getMessage()
                    + "); stopping instead of skipping data", e);
            return false;
        }
        log.warn("destination {}: the source cannot serve the binlog we need ({}); {} is on, so reading goes on "
                + "from the source's current position and the rows between are SKIPPED", destination,
                e.getMessage(), MysqlParserConfig.AUTO_RESET_LATEST.name());
        resetToLatest = true;
        return true;
    }

    private long retryAfter(Exception e, long backoff) {
        if (!running) {
            return backoff;
        }
        long wait = backoff + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
        report(e, wait);
        try {
            // back-off before reconnecting; stop() interrupts it, a switch to the other source ends it
            if (sourceSwitched.tryAcquire(wait, TimeUnit.MILLISECONDS)) {
                return FIRST_BACKOFF_MILLIS;
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            running = false;
        }
        return Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
    }

    /** The source sent its first event: the dump is under way. */
    private void streamingFrom(ActiveSource.Source source, StartPoint start) {
        if (alarmed != null) {
            log.info("destination {}: the source {} is readable again", destination, source);
            alarmed = null;
        }
        status = SourceStatus.streaming(source.toString(), start.toString());
    }

    /**
     * A lasting failure is alarmed once with its remedy, then retried quietly; a passing one is a warning line, with
     * the stack trace only for what is neither an I/O failure nor the source's error (a defect here).
     */
    private void report(Exception e, long waitMillis) {
        String source = sources.current().toString();
        SourceFailure cause = SourceFailure.of(e, source, config.username());
        status = SourceStatus.failing(source, cause);
        if (cause.permanent()) {
            if (!cause.equals(alarmed)) {
                log.error("destination {}: ALARM: cannot read the source {}: {}. To fix: {}. Retrying quietly.",
                        destination, source, cause.reason(), cause.remedy());
                alarmed = cause;
            } else {
                log.debug("destination {}: still cannot read the source {}: {}", destination, source, cause.reason());
            }
        } else if (e instanceof IOException) {
            log.warn("destination {}: binlog dump from {} failed ({}); reconnecting in {} ms", destination, source,
                    cause.reason(), waitMillis);
        } else {
            log.warn("destination {}: binlog dump from {} failed ({}); reconnecting in {} ms", destination, source,
                    cause.reason(), waitMillis, e);
        }
    }

    private void alarm(String message, Throwable cause) {
        log.error("destination {}: ALARM: {}", destination, message, cause);
        failure = cause;
        running = false;
    }

    private void dumpOnce() throws IOException, InterruptedException {
        streamed = false;
        sourceSwitched.drainPermits(); // the source is chosen here, after any switch so far
        ActiveSource.Source source = sources.current();
        try (MysqlConnection conn = source.connector().openReplication()) {
            ReplicaSession session = new ReplicaSession(conn, replicaOptions());
            session.setUp();
            sourceServerId = Long.parseLong(conn.query("SELECT @@server_id").scalar());
            SourceSettingsCheck.verify(conn, config);
            StartPoint start = findStart(session, source);
            if (recoverPurged) {
                recoverPurged = false;
                snapshots.recoverPurgedPosition(); // after the new start is set, before streaming from it
            }
            SourceFlavour flavour = SourceFlavour.of(conn.serverVersion());
            GtidTracker gtids = config.gtidMode() ? flavour.gtidTracker(start.gtid()) : GtidTracker.off();
            log.info("destination {}: dumping binlog of {} from {}{}", destination, source, start,
                    start.skipUpTo() >= 0 ? " (resuming after the last delivered event)" : "");

            if (start.file() != null) {
                metas.rewindTo(EntryPosition.of(start.file(), start.position()));
            }
            BinlogStream s = start.gtid() != null
                    ? flavour.dump(session, start.gtid())
                    : session.dump(start.file(), start.position());
            stream = s;
            try {
                stream(s, start, gtids, flavour, source);
            } finally {
                stream = null;
                s.close();
            }
        }
    }

    private ReplicaOptions replicaOptions() throws IOException {
        return new ReplicaOptions(config.effectiveSlaveId(destination, InetAddress.getLocalHost().getAddress()),
                config.heartbeatPeriod());
    }

    /** When the binlog {@code file} of the source read now began. */
    private long binlogFileStartSeconds(String file) throws IOException {
        try (MysqlConnection conn = sources.current().connector().openReplication()) {
            return new ReplicaSession(conn, replicaOptions()).fileStartSeconds(file);
        }
    }

    /** A short-lived replica session for scanning binlog files while looking for the start. */
    private ReplicaSession scanSession(ActiveSource.Source source) throws IOException {
        MysqlConnection conn = source.connector().openReplication();
        ReplicaSession session = new ReplicaSession(conn, replicaOptions());
        session.setUp();
        return session;
    }

    /**
     * Where to start on {@code source}, by Canal's rules: a position stored while reading another source (the
     * other address, or a switch between master and standby) is located by its time on this one.
     */
    private StartPoint findStart(ReplicaSession session, ActiveSource.Source source) throws IOException {
        if (resetToLatest) {
            resetToLatest = false;
            BinlogFilePosition current = session.currentBinlogPosition();
            if (config.gtidMode() && !current.gtidSet().isEmpty()) {
                return StartPoint.gtid(current.gtidSet()); // later cursors then carry the whole executed set
            }
            return new StartPoint(current.file(), current.position(), -1, null);
        }
        LogPosition remembered = positions.latest(destination);
        EntryPosition last = remembered == null ? null : remembered.position();
        MysqlParserConfig.StartPosition configured = source.endpoint().start();
        if (config.gtidMode()) {
            String gtid = last != null && last.hasGtid() ? last.gtid() : configured.gtid();
            if (gtid != null && !gtid.isBlank()) {
                return StartPoint.gtid(gtid.trim());
            }
        }
        StartPositionLocator locator = new StartPositionLocator(() -> scanSession(source));
        boolean otherServer = relocateByTimestamp
                || remembered != null && !SourceAddress.same(remembered.identity(), source.identity());
        relocateByTimestamp = false;
        if (last != null && last.hasTimestamp() && otherServer) {
            long target = last.timestamp() - config.fallbackIntervalSeconds() * 1000L;
            log.warn("destination {}: the stored position {} was read from {}, not from the source {} now; "
                    + "locating the start by its time less {} s", destination, last, remembered.identity(),
                    source, config.fallbackIntervalSeconds());
            return located(locator.byTimestamp(target));
        }
        if (last != null && last.hasJournal()) {
            return new StartPoint(last.journalName(), last.position(), last.position(), null);
        }
        if (last != null && last.hasTimestamp()) {
            return located(locator.byTimestamp(last.timestamp() - config.fallbackIntervalSeconds() * 1000L));
        }
        if (configured.journalName() != null) {
            long offset = configured.position() == null ? 4 : configured.position();
            if (configured.position() == null && configured.timestamp() != null) {
                return located(locator.byTimestamp(configured.timestamp()));
            }
            return located(locator.alignToTransaction(configured.journalName(), offset));
        }
        if (configured.timestamp() != null) {
            return located(locator.byTimestamp(configured.timestamp()));
        }
        BinlogFilePosition current = session.currentBinlogPosition();
        return new StartPoint(current.file(), current.position(), -1, null);
    }

    /**
     * The stored position when another server wrote it (its server_id is not the source's) and it carries a
     * time to locate by; null otherwise. Asked after error 1236, as Canal does.
     */
    private EntryPosition storedPositionOfAnotherServer() {
        LogPosition remembered = positions.latest(destination);
        EntryPosition last = remembered == null ? null : remembered.position();
        if (last == null || last.serverId() == null || sourceServerId < 0 || !last.hasTimestamp()) {
            return null;
        }
        return last.serverId() != sourceServerId ? last : null;
    }

    private static StartPoint located(StartPositionLocator.Found found) {
        return new StartPoint(found.file(), found.offset(), -1, null);
    }

    /**
     * @param skipUpTo when resuming from a delivered position: events of the start file at or before this offset
     *                 were delivered already (-1: deliver everything)
     * @param gtid     in GTID mode, the executed set to dump after (file and position unused)
     */
    private record StartPoint(String file, long position, long skipUpTo, String gtid) {

        static StartPoint gtid(String executed) {
            return new StartPoint(null, 0, -1, executed);
        }

        @Override
        public String toString() {
            return gtid != null ? "GTID set " + gtid : file + ":" + position;
        }
    }

    /** Streams from {@code source} until it ends, the parser stops, or the parser switched to the other source. */
    private void stream(BinlogStream s, StartPoint start, GtidTracker gtids, SourceFlavour flavour,
            ActiveSource.Source source) throws IOException, InterruptedException {
        LogIdentity identity = source.identity();
        DecoderContext context = new DecoderContext();
        EntryConverter converter = new EntryConverter(metas, new ColumnRenderer(config.timestampZone(), flavour),
                () -> options, context::tableMap, gtids, collations);
        TransactionBuffer buffer = new TransactionBuffer();
        EntryPipeline.Output output = entries -> {
            buffer.add(entries);
            if (buffer.shouldFlush(config.transactionSize())) {
                flush(buffer, identity);
            }
        };
        SnapshotService snapshot = snapshots;
        if (snapshot != null) {
            EntryPipeline.Output direct = output;
            snapshot.attach(direct::accept);
            output = snapshot::accept; // snapshot chunks join the stream here (docs/snapshots.md)
        }
        int workers = config.parallel() ? config.parallelThreadSize() : 0;
        try (EntryPipeline pipeline = new EntryPipeline("parser-" + destination, context, converter, output,
                start.file(), start.skipUpTo(), workers, config.parallelBufferSize(),
                config.parallelBufferBytes(), publishBlockingNanos)) {
            s.gateLargeEvents(EntryPipeline.LARGE_EVENT_BYTES, pipeline::awaitRoomToRead);
            byte[] bytes;
            long since = System.nanoTime();
            boolean first = true;
            while (running && sources.current() == source && (bytes = s.next()) != null) {
                if (first) {
                    first = false;
                    streamingFrom(source, start);
                }
                streamed = streamed || System.nanoTime() - since >= HEALTHY_STREAM_NANOS;
                receivedBytes.add(bytes.length);
                pipeline.publish(bytes, s.currentFile());
            }
            pipeline.drain();
        } finally {
            if (snapshot != null) {
                snapshot.detach();
            }
        }
        flush(buffer, identity);
    }

    /**
     * Hands the buffered entries to the sink and remembers the last transaction end among them, as read from the
     * source {@code identity}.
     */
    private void flush(TransactionBuffer buffer, LogIdentity identity) throws InterruptedException {
        if (buffer.isEmpty()) {
            return;
        }
        List<CanalEntry.Entry> entries = buffer.drain();
        if (!sink.sink(entries, identity, destination)) {
            throw new IllegalStateException("sink refused entries of destination " + destination);
        }
        CanalEntry.Header end = TransactionBuffer.lastBoundary(entries);
        if (end != null) {
            String gtid = end.getGtid().isEmpty() ? null : end.getGtid();
            positions.persist(destination, new LogPosition(identity, new EntryPosition(end.getLogfileName(),
                    end.getLogfileOffset(), end.getServerId(), end.getExecuteTime(), gtid, false)));
        }
    }

    /** Entries of the current transaction, flushed at its end, at a DDL, or when it grows past the size. */
    static final class TransactionBuffer {

        private List<CanalEntry.Entry> entries = new ArrayList<>();
        private boolean flushNow;

        void add(List<CanalEntry.Entry> more) {
            for (CanalEntry.Entry e : more) {
                entries.add(e);
                // a heartbeat is handed on at once so the sink sees a live source while the binlog is idle
                flushNow |= isBoundary(e) || e.getEntryType() == CanalEntry.EntryType.HEARTBEAT;
            }
        }

        boolean shouldFlush(int transactionSize) {
            return flushNow || entries.size() >= transactionSize;
        }

        boolean isEmpty() {
            return entries.isEmpty();
        }

        List<CanalEntry.Entry> drain() {
            List<CanalEntry.Entry> out = entries;
            entries = new ArrayList<>();
            flushNow = false;
            return out;
        }

        /** The header of the last transaction end or DDL: where a restart may resume after. */
        static CanalEntry.Header lastBoundary(List<CanalEntry.Entry> entries) {
            for (int i = entries.size() - 1; i >= 0; i--) {
                if (isBoundary(entries.get(i))) {
                    return entries.get(i).getHeader();
                }
            }
            return null;
        }

        private static boolean isBoundary(CanalEntry.Entry e) {
            return StreamBoundaries.isBoundary(e);
        }
    }
}
