package dev.canal.sink;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides, for one source's stream, which transaction boundaries reach the store, as Canal's sink does with the
 * flushes of its parser's transaction buffer. A handed-on list is first cut where Canal's buffer flushes: before a
 * BEGIN, after an END and after every ROWDATA entry that is not a row change (INSERT, UPDATE, DELETE), such as a
 * DDL, the statement text of a rows event or an XA COMMIT. Then a part with no ROWDATA (an empty BEGIN/END pair,
 * or the END after a transaction's statement text whose rows were all filtered out) is dropped unless more than
 * 5 s of event time passed since the last one let through or more than 8192 were dropped; with
 * {@code filter.transaction.entry} BEGIN/END entries are dropped, except every 5 s of event time or 8192
 * boundaries, so positions still advance.
 *
 * <p>Deliberate difference: a part without ROWDATA that ends a transaction which already delivered row changes in
 * an earlier part is not empty and keeps its TRANSACTIONEND. A DDL stands alone (MariaDB logs no BEGIN/COMMIT
 * around it), so it does not count for the next END.
 *
 * <p>A {@link HeartbeatTransaction} (ours) passes whatever these rules say, unless the last transaction end or DDL
 * let through names the same position: it is there to move cursors, which an ack of that position already did.
 */
final class TransactionBoundaryFilter {

    static final long INTERVAL_MILLIS = 5_000;
    static final long THRESHOLD = 8_192;

    private final boolean filterTransactionEntry;

    // guarded by this (one parser thread per source, but nothing forbids more)
    private long boundariesDropped;
    private long lastBoundaryTime;
    private long emptyDropped;
    private long lastEmptyTime;
    private boolean openTransactionHasRows;
    private String lastPassedFile;
    private long lastPassedOffset = -1;

    TransactionBoundaryFilter(boolean filterTransactionEntry) {
        this.filterTransactionEntry = filterTransactionEntry;
    }

    /** The events to store of this list; empty when all of it is dropped. */
    synchronized List<Event> admit(List<CanalEntry.Entry> entries, LogIdentity source, boolean raw) {
        List<Event> events = new ArrayList<>(entries.size());
        int from = 0;
        for (int i = 0; i < entries.size(); i++) {
            EntryType type = entries.get(i).getEntryType();
            if (type == EntryType.TRANSACTIONBEGIN && i > from) {
                events.addAll(admitFlush(entries.subList(from, i), source, raw));
                from = i;
            }
            if (type == EntryType.TRANSACTIONEND || type == EntryType.ROWDATA && !isRowChange(entries.get(i))) {
                events.addAll(admitFlush(entries.subList(from, i + 1), source, raw));
                from = i + 1;
            }
        }
        if (from < entries.size()) {
            events.addAll(admitFlush(entries.subList(from, entries.size()), source, raw));
        }
        return events;
    }

    /** The events to store of one of Canal's flushes, remembering the last boundary let through. */
    private List<Event> admitFlush(List<CanalEntry.Entry> entries, LogIdentity source, boolean raw) {
        if (HeartbeatTransaction.isMarked(entries.get(0))) {
            CanalEntry.Header last = entries.get(entries.size() - 1).getHeader();
            if (last.getLogfileOffset() == lastPassedOffset && last.getLogfileName().equals(lastPassedFile)) {
                return List.of();
            }
            List<Event> events = new ArrayList<>(entries.size());
            entries.forEach(entry -> events.add(Event.of(source, entry, raw)));
            rememberLastBoundary(events);
            return events;
        }
        List<Event> events = admitCanalFlush(entries, source, raw);
        rememberLastBoundary(events);
        return events;
    }

    private void rememberLastBoundary(List<Event> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            Event event = events.get(i);
            if (event.entryType() == EntryType.TRANSACTIONEND || event.isDdl()) {
                lastPassedFile = event.journalName();
                lastPassedOffset = event.logfileOffset();
                return;
            }
        }
    }

    /** Canal's rules for one of its flushes. */
    private List<Event> admitCanalFlush(List<CanalEntry.Entry> entries, LogIdentity source, boolean raw) {
        List<Event> events = new ArrayList<>(entries.size());
        boolean hasRowData = false;
        boolean hasHeartbeat = false;
        boolean endsRowTransaction = false;
        for (CanalEntry.Entry entry : entries) {
            EntryType type = entry.getEntryType();
            boolean endsRows = followTransaction(entry);
            boolean boundary = type == EntryType.TRANSACTIONBEGIN || type == EntryType.TRANSACTIONEND;
            if (boundary && filterTransactionEntry && !letBoundaryThrough(entry)) {
                continue;
            }
            endsRowTransaction |= endsRows;
            hasRowData |= type == EntryType.ROWDATA;
            hasHeartbeat |= type == EntryType.HEARTBEAT;
            events.add(Event.of(source, entry, raw));
        }
        if (hasRowData || hasHeartbeat || endsRowTransaction || events.isEmpty()) {
            return events;
        }
        return letEmptyTransactionThrough(events.get(0).executeTime()) ? events : List.of();
    }

    /** Tracks whether the open transaction delivered row changes; true for an END that closes such a one. */
    private boolean followTransaction(CanalEntry.Entry entry) {
        switch (entry.getEntryType()) {
            case ROWDATA -> {
                if (Event.isDdl(entry.getHeader().getEventType())) {
                    openTransactionHasRows = false;
                } else if (isRowChange(entry)) {
                    openTransactionHasRows = true;
                }
            }
            case TRANSACTIONBEGIN -> openTransactionHasRows = false;
            case TRANSACTIONEND -> {
                boolean endsRows = openTransactionHasRows;
                openTransactionHasRows = false;
                return endsRows;
            }
            default -> {
                // heartbeats and GTID entries do not change the transaction
            }
        }
        return false;
    }

    /** An INSERT, UPDATE or DELETE (rows or statement), which Canal's buffer keeps until the transaction ends. */
    private static boolean isRowChange(CanalEntry.Entry entry) {
        return switch (entry.getHeader().getEventType()) {
            case INSERT, UPDATE, DELETE -> true;
            default -> false;
        };
    }

    private boolean letEmptyTransactionThrough(long eventTime) {
        if (Math.abs(eventTime - lastEmptyTime) > INTERVAL_MILLIS || ++emptyDropped > THRESHOLD) {
            emptyDropped = 0;
            lastEmptyTime = eventTime;
            return true;
        }
        return false;
    }

    /**
     * Canal's rule: only an END resets the count, so once the interval or count
     * is reached a BEGIN passes and its END passes too, keeping them paired.
     */
    private boolean letBoundaryThrough(CanalEntry.Entry entry) {
        long eventTime = entry.getHeader().getExecuteTime();
        if (++boundariesDropped <= THRESHOLD && Math.abs(eventTime - lastBoundaryTime) <= INTERVAL_MILLIS) {
            return false;
        }
        if (entry.getEntryType() == EntryType.TRANSACTIONEND) {
            boundariesDropped = 0;
            lastBoundaryTime = eventTime;
        }
        return true;
    }
}
