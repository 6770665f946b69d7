package dev.canal.parse.convert;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.canal.parse.meta.BinlogTableMeta;
import dev.canal.parse.meta.CollationCatalog;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.TableMetaException;
import dev.canal.parse.meta.TableMapShape;
import dev.canal.parse.meta.TableMetaSource;
import dev.canal.binlog.event.AnnotateRowsEvent;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.HeartbeatEvent;
import dev.canal.binlog.event.QueryEvent;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.RowsQueryEvent;
import dev.canal.binlog.event.StatementText;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.XidEvent;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.ColumnFilter;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns decoded binlog events into the entries a Canal client receives: BEGIN and
 * COMMIT/XID become TRANSACTIONBEGIN/TRANSACTIONEND, rows events become ROWDATA with rendered columns, DDL and
 * statement DML become ROWDATA carrying their SQL. Filtered tables and switched-off kinds produce nothing.
 *
 * <p>Binlog-order thread only, except {@link #buildRows}: it follows GTIDs and invalidates table meta on DDL.
 */
public final class EntryConverter {

    private static final Logger log = LoggerFactory.getLogger(EntryConverter.class);
    private static final int MAX_BINLOG_DEFINITIONS = 10_000;
    /** small: with full binlog metadata every TABLE_MAP brings a new definition, so most entries go stale */
    private static final int MAX_COLUMN_HEADERS = 256;

    private final TableMetaSource metas;
    private final ColumnRenderer renderer;
    private final Supplier<SinkFilterConfig> filters;
    private final Function<Long, TableMapEvent> tableMaps;
    private final GtidTracker gtids;
    private final CollationCatalog collations;
    /** each table definition's constant column encodings, built once per definition (by identity) */
    private final Map<TableMeta, ColumnHeaders> columnHeaders = new IdentityHashMap<>();
    /** the definition built from the last TABLE_MAP of each table id that carried full metadata */
    private final Map<Long, BinlogDefinition> binlogDefinitions = new HashMap<>();
    /** Tables whose definition could not be had, not asked again before the next DDL (binlog-order thread). */
    private final Set<String> withoutKnownDefinition = new HashSet<>();

    private record BinlogDefinition(TableMapEvent map, TableMeta meta) {
    }

    /**
     * @param filters   the filter switches in force (read per event: a client's subscribe filter may replace them)
     * @param tableMaps the TABLE_MAP in force for a table id (the decoder context's)
     * @param gtids      the executed GTID set in GTID mode ({@link GtidTracker#off()} otherwise)
     * @param collations the source's collations, to read table definitions from TABLE_MAP optional metadata when
     *                   it is complete; null to always ask {@code metas}
     */
    public EntryConverter(TableMetaSource metas, ColumnRenderer renderer, Supplier<SinkFilterConfig> filters,
            Function<Long, TableMapEvent> tableMaps, GtidTracker gtids, CollationCatalog collations) {
        this.gtids = gtids;
        this.collations = collations;
        this.metas = metas;
        this.renderer = renderer;
        this.filters = filters;
        this.tableMaps = tableMaps;
    }

    /** The entries for one event, in order; usually zero or one. */
    public List<CanalEntry.Entry> convert(BinlogEvent event, EventPosition at) {
        // Java 17 has no pattern switch: an instanceof chain over the event kinds that produce entries
        if (event instanceof RowsEvent r) {
            RowsTask task = prepareRows(r, at);
            return task == null ? List.of() : List.of(buildRows(task));
        }
        if (event instanceof QueryEvent q) {
            return query(q, at);
        }
        if (event instanceof XidEvent x) {
            return List.of(transactionEnd(at, Long.toString(x.xid()), List.of()));
        }
        if (event instanceof HeartbeatEvent) {
            // internal only: the sink's handlers see it (traffic delay), the store never does
            return List.of(EntryFactory.entry(EntryFactory.header(at, "", "", EventType.MHEARTBEAT, null, List.of()),
                    EntryType.HEARTBEAT, com.google.protobuf.ByteString.EMPTY));
        }
        if (event instanceof AnnotateRowsEvent a) {
            return statementText(a.statement(), at);
        }
        if (event instanceof RowsQueryEvent q) {
            return statementText(q.statement(), at);
        }
        gtids.onEvent(event);
        return List.of();
    }

    private List<CanalEntry.Entry> query(QueryEvent q, EventPosition at) {
        StatementKind kind = StatementClassifier.classify(q.sql(), q.schema());
        return switch (kind.category()) {
            case BEGIN -> List.of(transactionBegin(at, q.threadId(), List.of()));
            case COMMIT -> List.of(transactionEnd(at, "0", List.of()));
            case XA_START -> List.of(transactionBegin(at, q.threadId(), xaProps("XA START", kind)));
            case XA_END -> List.of(transactionEnd(at, "0", xaProps("XA END", kind)));
            case XA_COMMIT, XA_ROLLBACK -> List.of(xaOutcome(q, kind, at));
            case DDL -> ddl(q, kind, at);
            case DML -> QueryEntryFilter.keeps(filters.get(), kind) ? List.of(sqlEntry(q.sql(), q.schema(), kind, false, at))
                    : List.of();
            case OTHER -> List.of();
        };
    }

    private List<CanalEntry.Entry> ddl(QueryEvent q, StatementKind kind, EventPosition at) {
        metas.applyDdl(q.schema(), kind.schema(), kind.table(), q.sql(), at.toEntryPosition());
        withoutKnownDefinition.clear();
        return QueryEntryFilter.keeps(filters.get(), kind) ? List.of(sqlEntry(q.sql(), q.schema(), kind, true, at))
                : List.of();
    }

    private CanalEntry.Entry sqlEntry(String sql, String sessionSchema, StatementKind kind, boolean isDdl,
            EventPosition at) {
        CanalEntry.RowChange.Builder rowChange = CanalEntry.RowChange.newBuilder()
                .setEventType(kind.eventType())
                .setIsDdl(isDdl)
                .setSql(sql);
        if (sessionSchema != null && !sessionSchema.isEmpty()) {
            rowChange.setDdlSchemaName(sessionSchema); // Canal leaves it unset when the session has no schema
        }
        return EntryFactory.entry(EntryFactory.header(at, kind.schema(), kind.headerTable(), kind.eventType(),
                gtids.executed(), gtidProps()), EntryType.ROWDATA, rowChange.build().toByteString());
    }

    /**
     * ROWS_QUERY / ANNOTATE_ROWS: the statement behind the rows that follow, as a QUERY entry. The text holds the
     * statement's literals and can be many MiB (docs/reliability.md, scenario 9), so it is neither decoded into a
     * String nor copied into a RowChange: the RowChange's bytes are those of {@code setSql(text)} (eventType, then
     * sql: fields in number order) joined to the text's UTF-8 bytes as they are.
     */
    private List<CanalEntry.Entry> statementText(StatementText sql, EventPosition at) {
        if (filters.get().filterQueryDml()) {
            return List.of();
        }
        ByteString text = sql.utf8();
        ByteString.Output head = ByteString.newOutput(16);
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(head, 16);
            CanalEntry.RowChange.newBuilder().setEventType(EventType.QUERY).build().writeTo(out);
            out.writeTag(CanalEntry.RowChange.SQL_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(text.size());
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return List.of(EntryFactory.entry(EntryFactory.header(at, "", "", EventType.QUERY, gtids.executed(), gtidProps()),
                EntryType.ROWDATA, head.toByteString().concat(text)));
    }

    private CanalEntry.Entry xaOutcome(QueryEvent q, StatementKind kind, EventPosition at) {
        CanalEntry.RowChange rowChange = CanalEntry.RowChange.newBuilder()
                .setEventType(kind.eventType())
                .setSql(q.sql())
                .addAllProps(xaProps(kind.category() == StatementKind.Category.XA_COMMIT ? "XA COMMIT" : "XA ROLLBACK", kind))
                .build();
        return EntryFactory.entry(EntryFactory.header(at, "", "", kind.eventType(), gtids.executed(), gtidProps()),
                EntryType.ROWDATA, rowChange.toByteString());
    }

    private CanalEntry.Entry transactionBegin(EventPosition at, long threadId, List<CanalEntry.Pair> props) {
        CanalEntry.TransactionBegin begin = CanalEntry.TransactionBegin.newBuilder()
                .setThreadId(threadId).addAllProps(props).build();
        return EntryFactory.entry(EntryFactory.header(at, "", "", null, gtids.executed(), gtidProps()), EntryType.TRANSACTIONBEGIN,
                begin.toByteString());
    }

    private CanalEntry.Entry transactionEnd(EventPosition at, String transactionId, List<CanalEntry.Pair> props) {
        CanalEntry.TransactionEnd end = CanalEntry.TransactionEnd.newBuilder()
                .setTransactionId(transactionId).addAllProps(props).build();
        return EntryFactory.entry(EntryFactory.header(at, "", "", null, gtids.executed(), gtidProps()), EntryType.TRANSACTIONEND,
                end.toByteString());
    }

    private static List<CanalEntry.Pair> xaProps(String type, StatementKind kind) {
        return List.of(EntryFactory.pair("XA_TYPE", type), EntryFactory.pair("XA_XID", kind.xaXid()));
    }

    private List<CanalEntry.Pair> gtidProps() {
        return gtids.currentProps();
    }

    /**
     * The part of a rows event's conversion that needs binlog order (filters, table meta): run on the ordering
     * thread. Null when the rows are dropped.
     */
    public RowsTask prepareRows(RowsEvent event, EventPosition at) {
        TableMapEvent map = tableMaps.apply(event.tableId());
        if (map == null) {
            throw new IllegalStateException("rows event at " + at.file() + ":" + at.offset() + " refers to table id "
                    + event.tableId() + " without a TABLE_MAP before it (the stream started inside a transaction?)");
        }
        EventType type = switch (event.kind()) {
            case WRITE -> EventType.INSERT;
            case UPDATE, PARTIAL_UPDATE -> EventType.UPDATE;
            case DELETE -> EventType.DELETE;
        };
        SinkFilterConfig options = filters.get();
        if (options.filterRows() || !options.tableFilter().accepts(map.schema(), map.table()) || droppedKind(options, type)) {
            return null;
        }
        TableMeta meta = collations != null && BinlogTableMeta.available(map) ? binlogDefinition(map)
                : metaFor(map, at, options.filterTableError());
        if (meta == null) {
            return null;
        }
        return new RowsTask(event, map, meta, headersOf(meta), options.columnFilter().forTable(map.schema(), map.table()),
                type, at, gtidProps(), gtids.executed());
    }

    /** Decodes the row images and builds the ROWDATA entry: the expensive part, safe on any thread. */
    public CanalEntry.Entry buildRows(RowsTask task) {
        List<RowChange> rows = RowsDecoder.decode(task.event(), task.map());
        RowChangeWriter writer = new RowChangeWriter(renderer, task.meta(), task.headers(), task.selection());
        com.google.protobuf.ByteString rowChange = writer.write(task.event().tableId(), task.type(),
                task.event().columnsBefore(), task.event().columnsAfter(), rows);
        List<CanalEntry.Pair> props = new ArrayList<>(task.props());
        props.add(EntryFactory.pair("rowsCount", Integer.toString(rows.size())));
        return EntryFactory.entry(EntryFactory.header(task.at(), task.map().schema(), task.map().table(), task.type(),
                task.gtid(), props), EntryType.ROWDATA, rowChange);
    }

    /** A rows event with everything decided in binlog order, waiting to be decoded. */
    public record RowsTask(RowsEvent event, TableMapEvent map, TableMeta meta, ColumnHeaders headers,
            ColumnFilter.Selection selection, EventType type, EventPosition at, List<CanalEntry.Pair> props,
            String gtid) {
    }

    private ColumnHeaders headersOf(TableMeta meta) {
        if (columnHeaders.size() > MAX_COLUMN_HEADERS) {
            columnHeaders.clear();
        }
        return columnHeaders.computeIfAbsent(meta, ColumnHeaders::of);
    }

    /** The definition carried by the TABLE_MAP itself: built once per TABLE_MAP event, not per rows event. */
    private TableMeta binlogDefinition(TableMapEvent map) {
        BinlogDefinition known = binlogDefinitions.get(map.tableId());
        if (known != null && known.map() == map) {
            return known.meta();
        }
        if (binlogDefinitions.size() > MAX_BINLOG_DEFINITIONS) {
            binlogDefinitions.clear();
        }
        TableMeta meta = BinlogTableMeta.withSourceTypes(BinlogTableMeta.from(map, collations), knownDefinition(map));
        binlogDefinitions.put(map.tableId(), new BinlogDefinition(map, meta));
        return meta;
    }

    /**
     * The table's definition from the schema history or the source, for the type text the TABLE_MAP cannot carry;
     * null when it cannot be had (the rows still go out, with the type text rebuilt from the binlog).
     */
    private TableMeta knownDefinition(TableMapEvent map) {
        String name = map.qualifiedName();
        if (withoutKnownDefinition.contains(name)) {
            return null;
        }
        try {
            return metas.find(map.schema(), map.table());
        } catch (TableMetaException e) {
            // every transaction brings a TABLE_MAP: asking again for each would stall the stream on a lost source
            log.warn("no definition of {} to take column types from until the next DDL; mysqlType as the binlog "
                    + "gives it: {}", name, e.getMessage());
            withoutKnownDefinition.add(name);
            return null;
        }
    }

    private static boolean droppedKind(SinkFilterConfig options, EventType type) {
        return switch (type) {
            case INSERT -> options.filterDmlInsert();
            case UPDATE -> options.filterDmlUpdate();
            case DELETE -> options.filterDmlDelete();
            default -> false;
        };
    }

    /**
     * The table's columns, checked against the row image's column count. A mismatch means the cached definition
     * is stale (Canal's "column size is not match"): re-read it once, then fail or skip as configured. After a DDL
     * of the table that the schema history could not read, the definition is the source's current one, taken only
     * where it fits the TABLE_MAP; else the rows carry the TABLE_MAP's own columns rather than wrong names or a
     * stalled stream (the history raised an ALARM naming the statement).
     */
    private TableMeta metaFor(TableMapEvent map, EventPosition at, boolean skipOnError) {
        Optional<String> unreadable = collations == null ? Optional.empty()
                : metas.unreadableStatement(map.schema(), map.table());
        try {
            TableMeta meta = metas.find(map.schema(), map.table());
            if (meta.columnCount() != map.columnCount()) {
                log.warn("table {} has {} columns in the binlog at {}:{} but {} in its cached definition; re-reading it",
                        map.qualifiedName(), map.columnCount(), at.file(), at.offset(), meta.columnCount());
                metas.invalidate(map.schema(), map.table());
                meta = metas.find(map.schema(), map.table());
            }
            if (unreadable.isPresent() && !TableMapShape.fits(meta, map)) {
                return tableMapColumns(map, at, meta.columnCount() + " columns");
            }
            if (meta.columnCount() != map.columnCount()) {
                throw new TableMetaException("table " + map.qualifiedName() + " has " + map.columnCount()
                        + " columns in the binlog at " + at.file() + ":" + at.offset() + " but " + meta.columnCount()
                        + " in the source's current definition");
            }
            return meta;
        } catch (TableMetaException e) {
            if (unreadable.isPresent()) {
                return tableMapColumns(map, at, e.getMessage());
            }
            if (skipOnError) {
                log.warn("skipping rows of {} at {}:{}: {}", map.qualifiedName(), at.file(), at.offset(), e.getMessage());
                return null;
            }
            throw e;
        }
    }

    /** The TABLE_MAP's own columns, for rows no known definition fits; said once per table until its next DDL. */
    private TableMeta tableMapColumns(TableMapEvent map, EventPosition at, String sourceDefinition) {
        if (withoutKnownDefinition.add(map.qualifiedName())) {
            log.warn("rows of {} at {}:{} do not fit the source's definition ({}) after a DDL the schema history could "
                    + "not read: they carry the TABLE_MAP's {} columns, named @1, @2, ..., until a DDL of the table it "
                    + "can read", map.qualifiedName(), at.file(), at.offset(), sourceDefinition, map.columnCount());
        }
        return binlogDefinition(map);
    }
}
