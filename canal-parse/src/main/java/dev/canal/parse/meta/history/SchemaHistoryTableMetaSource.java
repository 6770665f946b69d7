package dev.canal.parse.meta.history;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.TableMetaException;
import dev.canal.parse.meta.TableMetaSource;
import dev.canal.protocol.position.EntryPosition;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canal's table-meta TSDB, our way: an in-memory schema model that every DDL of the binlog
 * is applied to with a real MySQL DDL parser ({@link SchemaModel}), a per-destination log of those DDL and
 * periodic snapshots of the model ({@link SchemaHistoryStore}: local files, or Canal's tables in a database the
 * servers of a cluster share), so that a parser starting at any position gets the tables as they were there, and
 * every row gets the columns true at its own position.
 *
 * <ul>
 * <li>No snapshot yet: the accepted tables' {@code SHOW CREATE TABLE} become the initial snapshot at Canal's
 * position file "0", offset 0, timestamp -2.</li>
 * <li>{@link #rewindTo}: the latest snapshot in effect at the start, then the logged DDL after it up to the start.
 * A DDL the parser then reads again is recognised by its position and not applied twice.</li>
 * <li>A table the model does not know (never snapshotted, or its DDL could not be parsed) is read from the
 * source on first use and added to the model; {@link #invalidate} (a row image that does not fit) replaces the
 * model's definition with the source's current one.</li>
 * <li>After a DDL, once {@code snapshot.interval} hours have passed since the last snapshot, the model is checked
 * against the source's tables and, if they agree, stored as a snapshot; snapshots older than
 * {@code snapshot.expire} hours (binlog time) are deleted, the newest always kept.</li>
 * </ul>
 *
 * <p>Called from the parser's binlog-order thread; the methods are synchronized because a reconnect rewinds from
 * the parser's own thread, not the pipeline's.
 */
public final class SchemaHistoryTableMetaSource implements TableMetaSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaHistoryTableMetaSource.class);
    private static final Set<String> INTEGER_TYPES = Set.of("tinyint", "smallint", "mediumint",
            "int", "bigint");
    private static final int MAX_LOGGED_SQL = 1000;
    private static final EntryPosition LATEST = new EntryPosition(null, null, null, null, null, false);

    private final String destination;
    private final TsdbConfig config;
    private final DefinitionSource source;
    private final BiPredicate<String, String> tableFilter;
    private final Clock clock;
    private final SchemaHistoryStore store;
    private final Map<String, TableMeta> cache = new HashMap<>();
    /** table key -> the last DDL of the table the model could not read, until one it can read */
    private final Map<String, String> unreadable = new HashMap<>();
    private SchemaModel model; // null until the first rewind
    private HistoryPosition appliedUpTo; // the last DDL (or snapshot) position the model reflects
    private long lastSnapshotMillis;

    /**
     * @param config      where the history lives (files in {@link TsdbConfig#dir()}, or its database) and the
     *                    snapshot interval/expiry
     * @param connections opens a JDBC connection to the source, for the initial snapshot and unknown tables
     * @param tableFilter the tables whose definitions go into the initial snapshot (schema, table)
     */
    public SchemaHistoryTableMetaSource(String destination, TsdbConfig config, Supplier<Connection> connections,
            BiPredicate<String, String> tableFilter) {
        this(destination, config, new JdbcDefinitionSource(connections), tableFilter, Clock.systemUTC());
    }

    public SchemaHistoryTableMetaSource(String destination, TsdbConfig config, DefinitionSource source,
            BiPredicate<String, String> tableFilter, Clock clock) {
        this.destination = Objects.requireNonNull(destination, "destination");
        this.config = Objects.requireNonNull(config, "config");
        this.source = Objects.requireNonNull(source, "source");
        this.tableFilter = Objects.requireNonNull(tableFilter, "tableFilter");
        this.clock = clock;
        this.store = openStore(destination, config);
        log.info("destination {}: schema history in {}", destination, store.describe());
    }

    private static SchemaHistoryStore openStore(String destination, TsdbConfig config) {
        return config.shared() ? new JdbcHistoryStore(destination, config.database())
                : new JsonLinesHistoryStore(config.dir());
    }

    @Override
    public synchronized TableMeta find(String schema, String table) {
        ensureModel();
        String key = key(schema, table);
        TableMeta cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        TableMeta meta = model.table(schema, table).orElseGet(() -> {
            log.info("destination {}: {}.{} is not in the schema history; reading its definition from the source",
                    destination, schema, table);
            return reloadFromSource(schema, table).orElseThrow(() -> new TableMetaException("table " + schema + "."
                    + table + " is unknown to the schema history of " + destination + " and does not exist on the source"));
        });
        cache.put(key, meta);
        return meta;
    }

    /** The model's definition does not fit a row image: take the source's current definition instead. */
    @Override
    public synchronized void invalidate(String schema, String table) {
        ensureModel();
        cache.remove(key(schema, table));
        String before = model.table(schema, table).map(t -> Integer.toString(t.columnCount())).orElse("no");
        Optional<TableMeta> fresh = reloadFromSource(schema, table);
        log.info("destination {}: replaced the schema history's definition of {}.{} ({} columns) with the source's "
                + "current one ({})", destination, schema, table, before,
                fresh.map(t -> t.columnCount() + " columns").orElse("table gone"));
    }

    @Override
    public synchronized void applyDdl(String sessionSchema, String schema, String table, String sql, EntryPosition position) {
        if (!position.hasJournal()) {
            throw new IllegalArgumentException("destination " + destination + ": a DDL without a binlog position: " + sql);
        }
        ensureModel();
        HistoryPosition at = HistoryPosition.of(position);
        if (at.compareTo(appliedUpTo) <= 0 && store.contains(at)) {
            log.debug("destination {}: DDL at {} is already in the rebuilt schema model", destination, at);
            return;
        }
        DdlRecord ddl = new DdlRecord(destination, at, sessionSchema, schema, table, sql, clock.millis());
        applyToModel(ddl, true);
        store.append(ddl);
        appliedUpTo = at;
        cache.clear();
        snapshotIfDue(at);
    }

    @Override
    public synchronized void rewindTo(EntryPosition start) {
        if (store.snapshots().isEmpty()) {
            takeInitialSnapshot();
        }
        SchemaSnapshot base = store.snapshots().stream()
                .filter(s -> s.position().inEffectAt(start))
                .max((a, b) -> a.position().compareTo(b.position()))
                .orElseThrow(() -> new IllegalStateException("destination " + destination + ": no schema snapshot at or "
                        + "before " + start + " in " + store.describe()));
        model = SchemaModel.restore(base.data());
        unreadable.clear();
        appliedUpTo = base.position();
        int replayed = 0;
        for (DdlRecord ddl : store.history()) {
            if (ddl.position().compareTo(base.position()) > 0 && ddl.position().inEffectAt(start)) {
                applyToModel(ddl, false);
                appliedUpTo = ddl.position();
                replayed++;
            }
        }
        cache.clear();
        lastSnapshotMillis = clock.millis();
        log.info("destination {}: schema model rebuilt for {}:{} from the snapshot at {} plus {} DDL", destination,
                start.journalName(), start.position(), base.position(), replayed);
    }

    /** Loads the history (taking the initial snapshot if there is none) and rebuilds the latest model. */
    @Override
    public synchronized void prepare() {
        ensureModel();
    }

    @Override
    public synchronized void close() {
        store.close();
    }

    private void ensureModel() {
        if (model == null) {
            rewindTo(LATEST);
        }
    }

    private void takeInitialSnapshot() {
        Map<String, String> data = source.allDefinitions(tableFilter);
        store.addSnapshot(new SchemaSnapshot(destination, HistoryPosition.INITIAL, data, clock.millis()));
        log.info("destination {}: no schema history yet; stored the source's definitions of {} schema(s) as the "
                + "initial snapshot", destination, data.size());
    }

    /**
     * A statement the model cannot read must neither stall the stream nor be applied wrongly: the table it names
     * leaves the model, so its next use reads the source's definition, and the statement is kept as the table's
     * {@link #unreadableStatement}, so that the rows until the table's next readable DDL are checked against their
     * TABLE_MAP (docs/compatibility.md, "Schema history"). Raised as an ALARM when first read from the binlog, not
     * again when a rewind replays it.
     */
    private void applyToModel(DdlRecord ddl, boolean firstRead) {
        String defaultSchema = ddl.useSchema() == null || ddl.useSchema().isEmpty() ? ddl.sqlSchema() : ddl.useSchema();
        boolean namesTable = ddl.sqlTable() != null && !ddl.sqlTable().isEmpty();
        try {
            model.apply(defaultSchema, ddl.sql());
            if (namesTable) {
                unreadable.remove(key(ddl.sqlSchema(), ddl.sqlTable()));
            }
        } catch (RuntimeException e) {
            String what = "the schema history cannot read the DDL at " + ddl.position() + " (" + e.getMessage()
                    + "); the rows of " + ddl.sqlSchema() + "." + ddl.sqlTable() + " take the source's definition where "
                    + "it fits their TABLE_MAP, else the TABLE_MAP's own columns, until a DDL of the table it can read."
                    + " DDL: " + shortened(ddl.sql());
            if (firstRead) {
                log.error("destination {}: ALARM: {}", destination, what);
            } else {
                log.warn("destination {}: {}", destination, what);
            }
            if (namesTable) {
                model.drop(ddl.sqlSchema(), ddl.sqlTable());
                unreadable.put(key(ddl.sqlSchema(), ddl.sqlTable()), ddl.sql());
            }
        }
    }

    @Override
    public synchronized Optional<String> unreadableStatement(String schema, String table) {
        return Optional.ofNullable(unreadable.get(key(schema, table)));
    }

    /** A statement for a log line: its start, and its length when that is cut. */
    private static String shortened(String sql) {
        return sql.length() <= MAX_LOGGED_SQL ? sql
                : sql.substring(0, MAX_LOGGED_SQL) + "... (" + sql.length() + " characters)";
    }

    /**
     * The source's current definition, put into the model. One the DDL parser cannot read is taken from
     * information_schema instead and stays out of the model: cached until the next DDL, then read again.
     */
    private Optional<TableMeta> reloadFromSource(String schema, String table) {
        Optional<String> ddl = source.showCreateTable(schema, table);
        if (ddl.isEmpty()) {
            model.drop(schema, table);
            return Optional.empty();
        }
        try {
            model.replace(schema, table, ddl.get());
            return model.table(schema, table);
        } catch (RuntimeException e) {
            log.warn("destination {}: cannot parse the source's definition of {}.{} ({}); using information_schema",
                    destination, schema, table, e.getMessage());
            model.drop(schema, table);
            return Optional.of(source.columns(schema, table));
        }
    }

    private void snapshotIfDue(HistoryPosition at) {
        Duration interval = config.snapshotInterval();
        long now = clock.millis();
        if (interval == null || now - lastSnapshotMillis < interval.toMillis()) {
            return;
        }
        lastSnapshotMillis = now;
        String mismatch;
        try {
            mismatch = firstMismatchWithSource();
        } catch (RuntimeException e) {
            // the source unreachable, or a definition the parser cannot read: no snapshot this time, no stall
            log.warn("destination {}: schema snapshot at {} skipped: {}", destination, at, e.toString());
            return;
        }
        if (mismatch != null) {
            log.warn("destination {}: schema snapshot at {} skipped: the model disagrees with the source on {}",
                    destination, at, mismatch);
            return;
        }
        store.addSnapshot(new SchemaSnapshot(destination, at, model.dump(), now));
        long cutoff = now - config.snapshotExpiry().toMillis();
        int removed = store.removeSnapshots(s -> s.position().timestamp() > 0 && s.position().timestamp() < cutoff
                && !s.position().key().equals(at.key()));
        log.info("destination {}: schema snapshot stored at {}; {} expired snapshot(s) deleted", destination, at, removed);
    }

    /** Canal checks a snapshot against the live tables before storing it; null when every accepted table agrees. */
    private String firstMismatchWithSource() {
        for (Map.Entry<String, List<String>> schema : model.tableNames().entrySet()) {
            for (String table : schema.getValue()) {
                if (!tableFilter.test(schema.getKey(), table)) {
                    continue;
                }
                TableMeta modelled = model.table(schema.getKey(), table).orElseThrow();
                Optional<TableMeta> live = source.showCreateTable(schema.getKey(), table).map(ddl -> {
                    SchemaModel one = new SchemaModel();
                    one.replace(schema.getKey(), table, ddl);
                    return one.table(schema.getKey(), table).orElseThrow();
                });
                if (live.isEmpty() || !sameColumns(modelled, live.get())) {
                    return schema.getKey() + "." + table;
                }
            }
        }
        return null;
    }

    /**
     * The column facts decoding depends on must agree; the type text may differ in spelling between a written DDL
     * and SHOW CREATE TABLE ({@code NUMERIC(5,2)} / {@code decimal(5,2)}, {@code INT} / {@code int(11)}).
     */
    private static boolean sameColumns(TableMeta a, TableMeta b) {
        if (a.columnCount() != b.columnCount()) {
            return false;
        }
        for (int i = 0; i < a.columnCount(); i++) {
            ColumnMeta x = a.column(i);
            ColumnMeta y = b.column(i);
            if (!x.name().equalsIgnoreCase(y.name()) || x.key() != y.key() || x.unsigned() != y.unsigned()
                    || !Objects.equals(x.charset(), y.charset()) || !typeShape(x).equals(typeShape(y))) {
                return false;
            }
        }
        return true;
    }

    /** The stored type and its arguments; an integer's display width is cosmetic (and gone in MySQL 8). */
    private static String typeShape(ColumnMeta column) {
        if (INTEGER_TYPES.contains(column.dataType())) {
            return column.dataType();
        }
        String text = column.mysqlType().toLowerCase(Locale.ROOT);
        int open = text.indexOf('(');
        int close = text.lastIndexOf(')');
        return column.dataType() + (open < 0 || close < open ? "" : text.substring(open, close + 1));
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }
}
