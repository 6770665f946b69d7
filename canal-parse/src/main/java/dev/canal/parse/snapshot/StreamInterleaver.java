package dev.canal.parse.snapshot;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Puts snapshot chunks into the change stream where they are consistent with it: the watermark technique of
 * DBLog (docs/snapshots.md, "How a chunk joins the stream").
 *
 * <p>While a table is being copied, the keys of its rows that the stream carries are noted. A chunk read by
 * SELECT is followed by a high watermark, the source's binlog position just after it. The chunk is put into the
 * stream at the first transaction boundary at or after that watermark, without the rows whose key the stream
 * carried since the chunk's reading began: for those the stream already holds a change at least as new as the
 * chunk's copy. Every other chunk row is exactly the table's state at the watermark, and all later changes
 * follow it. The keys noted during the previous chunk's window are also checked, for a transaction the stream
 * carried before the chunk's reading began but that the source made visible only after its SELECT. The first chunk
 * of a table gets such a previous window too: the snapshot thread waits one window ({@link #awaitWindow}) between
 * tracking the table and reading its first chunk.
 *
 * <p>The stream's entries arrive on the parser's ordered stage; a chunk is handed in by the snapshot thread,
 * which waits until it is in the stream (one chunk in memory at a time). Both go through one lock, so a chunk
 * is emitted by whichever thread sees its watermark passed first: the stage, or the snapshot thread when the
 * stream is already past it (an idle source).
 */
final class StreamInterleaver {

    /**
     * A chunk, or the reset entry of a table, waiting for the stream to pass its watermark; with neither, the end of
     * a window that emits nothing.
     */
    private record Pending(SnapshotChunk chunk, SnapshotTable reset, Watermark high) {
    }

    /** What a chunk needs to go into the stream: its rows and, in the same order, their keys. */
    record SnapshotChunk(dev.canal.parse.meta.TableMeta meta, List<CanalEntry.RowData> rows, List<PrimaryKey> keys) {
    }

    /** Where and how a chunk went into the stream. */
    record Emitted(CanalEntry.Header at, int rows, int dropped) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition emittedCondition = lock.newCondition();
    // all below guarded by lock
    private EntryDownstream downstream;
    private Watermark streamEnd;
    private boolean atBoundary = true;
    private CanalEntry.Header lastBoundary;
    private SnapshotTable tracked;
    private List<String> keyColumns = List.of();
    private Set<PrimaryKey> changed = new HashSet<>();
    private Set<PrimaryKey> changedBefore = new HashSet<>();
    private Pending pending;
    private Emitted emitted;

    /** A new dump begins: entries from it go to {@code next}; what was known of the old stream is forgotten. */
    void attach(EntryDownstream next) {
        lock.lock();
        try {
            downstream = next;
            streamEnd = null;
            atBoundary = true;
            lastBoundary = null;
        } finally {
            lock.unlock();
        }
    }

    /** The dump ended; a waiting chunk waits for the next one. */
    void detach() {
        attach(null);
    }

    /** Starts noting the keys the stream carries for {@code table}, before its first chunk is read. */
    void track(SnapshotTable table, List<String> keys) {
        lock.lock();
        try {
            tracked = table;
            keyColumns = List.copyOf(keys);
            changed = new HashSet<>();
            changedBefore = new HashSet<>();
        } finally {
            lock.unlock();
        }
    }

    void untrack() {
        track(null, List.of());
    }

    /** The parser's ordered stage: one event's entries, in binlog order. */
    void accept(List<CanalEntry.Entry> entries) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (downstream == null) {
                throw new IllegalStateException("entries arrived after their dump ended");
            }
            for (CanalEntry.Entry e : entries) {
                observe(e);
            }
            downstream.accept(entries);
            emitIfDue();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands a chunk in and waits until it is in the stream, behind the high watermark {@code high}.
     *
     * @return where it went and how many rows it kept
     */
    Emitted emit(SnapshotChunk chunk, Watermark high) throws InterruptedException {
        return emit(new Pending(chunk, null, high));
    }

    /**
     * Hands in the reset entry of {@code table} and waits until it is in the stream, behind {@code high}: before
     * the keys of the table are noted for its first chunk, so every change the stream carries after it is kept.
     */
    Emitted emitReset(SnapshotTable table, Watermark high) throws InterruptedException {
        return emit(new Pending(null, table, high));
    }

    /**
     * Waits until the stream passes {@code high} at a transaction boundary, emitting nothing, and begins a new window:
     * the keys noted so far then count as the previous window of the next chunk.
     */
    void awaitWindow(Watermark high) throws InterruptedException {
        emit(new Pending(null, null, high));
    }

    private Emitted emit(Pending next) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            pending = next;
            emitted = null;
            emitIfDue();
            while (emitted == null) {
                emittedCondition.await();
            }
            return emitted;
        } finally {
            pending = null;
            lock.unlock();
        }
    }

    private void observe(CanalEntry.Entry e) {
        CanalEntry.Header h = e.getHeader();
        if (h.getLogfileName().isEmpty()) {
            return;
        }
        Watermark end = new Watermark(h.getLogfileName(), h.getLogfileOffset() + h.getEventLength());
        if (e.getEntryType() == CanalEntry.EntryType.HEARTBEAT) {
            return; // a heartbeat's position is the binlog's end, not an event of it
        }
        if (streamEnd == null || end.compareTo(streamEnd) > 0) {
            streamEnd = end;
        }
        switch (e.getEntryType()) {
            case TRANSACTIONBEGIN -> atBoundary = false;
            case TRANSACTIONEND -> {
                atBoundary = true;
                lastBoundary = h;
            }
            case ROWDATA -> {
                if (StreamBoundaries.isDdl(h.getEventType())) {
                    atBoundary = true;
                    lastBoundary = h;
                } else if (tracked != null && tracked.schema().equals(h.getSchemaName())
                        && tracked.table().equals(h.getTableName())) {
                    noteKeys(e);
                }
            }
            default -> {
            }
        }
    }

    private void noteKeys(CanalEntry.Entry e) {
        CanalEntry.RowChange change;
        try {
            change = CanalEntry.RowChange.parseFrom(e.getStoreValue());
        } catch (InvalidProtocolBufferException ex) {
            throw new IllegalStateException("a row entry of " + tracked + " at " + e.getHeader().getLogfileName()
                    + ":" + e.getHeader().getLogfileOffset() + " cannot be read back", ex);
        }
        for (CanalEntry.RowData row : change.getRowDatasList()) {
            noteKey(row.getBeforeColumnsList());
            noteKey(row.getAfterColumnsList());
        }
    }

    private void noteKey(List<CanalEntry.Column> columns) {
        if (columns.isEmpty()) {
            return;
        }
        List<String> values = new ArrayList<>(keyColumns.size());
        for (String key : keyColumns) {
            for (CanalEntry.Column c : columns) {
                if (c.getName().equalsIgnoreCase(key)) {
                    values.add(c.getValue());
                    break;
                }
            }
        }
        if (values.size() == keyColumns.size()) {
            changed.add(new PrimaryKey(values));
        }
    }

    private void emitIfDue() throws InterruptedException {
        if (pending == null || downstream == null || !atBoundary || lastBoundary == null || streamEnd == null
                || streamEnd.compareTo(pending.high()) < 0) {
            return;
        }
        if (pending.reset() != null) {
            downstream.accept(List.of(SnapshotEntries.reset(pending.reset(), lastBoundary)));
            emitted(new Emitted(lastBoundary, 0, 0));
            return;
        }
        SnapshotChunk chunk = pending.chunk();
        if (chunk == null) {
            nextWindow();
            emitted(new Emitted(lastBoundary, 0, 0));
            return;
        }
        List<CanalEntry.RowData> kept = new ArrayList<>(chunk.rows().size());
        for (int i = 0; i < chunk.rows().size(); i++) {
            PrimaryKey key = chunk.keys().get(i);
            if (!changed.contains(key) && !changedBefore.contains(key)) {
                kept.add(chunk.rows().get(i));
            }
        }
        downstream.accept(SnapshotEntries.of(chunk.meta(), kept, lastBoundary));
        nextWindow();
        emitted(new Emitted(lastBoundary, kept.size(), chunk.rows().size() - kept.size()));
    }

    private void nextWindow() {
        changedBefore = changed;
        changed = new HashSet<>();
    }

    private void emitted(Emitted what) {
        emitted = what;
        pending = null;
        emittedCondition.signalAll();
    }
}
