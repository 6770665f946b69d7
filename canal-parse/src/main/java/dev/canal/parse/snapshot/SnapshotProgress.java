package dev.canal.parse.snapshot;

import dev.canal.protocol.position.EntryPosition;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;

/**
 * The snapshots of one destination still to finish, kept with its meta so that a restarted or failed-over server
 * resumes each table from its last chunk a client acknowledged (docs/snapshots.md, "Resuming").
 *
 * <p>Each chunk put into the stream is recorded with the binlog position its entries carry. A chunk counts as
 * delivered once the clients' restart cursor lies beyond that position; on a start the tables resume after their
 * last delivered chunk, and a table whose completion was delivered is dropped.
 *
 * <p>Used by the snapshot thread only.
 */
final class SnapshotProgress {

    /** Chunk marks kept per table; a cursor older than all of them restarts the table from its first row. */
    static final int MARKS_KEPT = 256;

    /** A chunk in the stream: the key of its last row and the position its entries carry. */
    record Mark(PrimaryKey lastKey, Watermark at) {
    }

    /** One table to copy, in request order. */
    static final class TableProgress {
        final SnapshotTable table;
        /** the copy replaces what clients hold of the table: it begins with a reset entry (a recovery copy) */
        final boolean reset;
        final List<Mark> marks = new ArrayList<>();
        Watermark doneAt;

        TableProgress(SnapshotTable table, boolean reset) {
            this.table = table;
            this.reset = reset;
        }

        /**
         * Whether the copy must begin with its reset entry now: a reset copy no chunk of which a client acknowledged
         * (a reset entry acknowledged before lies before those chunks in the stream; one not acknowledged is sent
         * again, which only repeats it).
         */
        boolean resetDue() {
            return reset && marks.isEmpty();
        }

        /** The key of the last chunk in the stream (null: from the first row). */
        PrimaryKey resumeKey() {
            return marks.isEmpty() ? null : marks.get(marks.size() - 1).lastKey();
        }

        void mark(PrimaryKey lastKey, Watermark at) {
            marks.add(new Mark(lastKey, at));
            if (marks.size() > MARKS_KEPT) {
                marks.remove(0);
            }
        }
    }

    private long lastSignalId;
    private boolean initialRequested;
    private final List<TableProgress> tables = new ArrayList<>();

    long lastSignalId() {
        return lastSignalId;
    }

    void lastSignalId(long id) {
        lastSignalId = id;
    }

    boolean initialRequested() {
        return initialRequested;
    }

    void initialRequested(boolean requested) {
        initialRequested = requested;
    }

    /** Queues a copy of {@code table} from its first row, after the copies already queued. */
    void request(SnapshotTable table) {
        tables.add(new TableProgress(table, false));
    }

    /**
     * Replaces every queued copy with reset copies of {@code selected}: the stream lost changes (the source purged
     * them), so what clients hold of those tables is replaced, not completed.
     */
    void recover(List<SnapshotTable> selected) {
        tables.clear();
        for (SnapshotTable table : selected) {
            tables.add(new TableProgress(table, true));
        }
        initialRequested = true;
    }

    /** The first table not finished yet, null when none. */
    TableProgress next() {
        for (TableProgress t : tables) {
            if (t.doneAt == null) {
                return t;
            }
        }
        return null;
    }

    List<TableProgress> tables() {
        return tables;
    }

    /**
     * Keeps only what a client acknowledged: chunks and completions at or after {@code cursor} are forgotten (their
     * rows were not acknowledged and are read again); completed tables before it are dropped. A null cursor (no
     * client ever acknowledged) restarts every table.
     */
    void resumeAt(EntryPosition cursor) {
        Iterator<TableProgress> it = tables.iterator();
        while (it.hasNext()) {
            TableProgress t = it.next();
            if (t.doneAt != null && delivered(t.doneAt, cursor)) {
                it.remove();
                continue;
            }
            t.doneAt = null;
            t.marks.removeIf(m -> !delivered(m.at(), cursor));
        }
    }

    /** Drops the finished tables whose completion a client acknowledged. */
    private static boolean delivered(Watermark at, EntryPosition cursor) {
        return cursor != null && cursor.hasJournal()
                && at.compareTo(new Watermark(cursor.journalName(), cursor.position())) < 0;
    }

    String encode() {
        Properties p = new Properties();
        p.setProperty("signal.last", Long.toString(lastSignalId));
        p.setProperty("initial.requested", Boolean.toString(initialRequested));
        p.setProperty("tables", Integer.toString(tables.size()));
        for (int i = 0; i < tables.size(); i++) {
            TableProgress t = tables.get(i);
            String prefix = "table." + i;
            p.setProperty(prefix, t.table.toString());
            if (t.reset) {
                p.setProperty(prefix + ".reset", "true");
            }
            if (t.doneAt != null) {
                p.setProperty(prefix + ".done", t.doneAt.file() + ":" + t.doneAt.offset());
            }
            p.setProperty(prefix + ".marks", Integer.toString(t.marks.size()));
            for (int m = 0; m < t.marks.size(); m++) {
                Mark mark = t.marks.get(m);
                p.setProperty(prefix + ".mark." + m + ".at", mark.at().file() + ":" + mark.at().offset());
                p.setProperty(prefix + ".mark." + m + ".key", mark.lastKey().encode());
            }
        }
        StringWriter out = new StringWriter();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** @throws IllegalArgumentException naming what is wrong when {@code text} is not progress this class wrote */
    static SnapshotProgress decode(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SnapshotProgress progress = new SnapshotProgress();
        progress.lastSignalId = Long.parseLong(required(p, "signal.last"));
        progress.initialRequested = Boolean.parseBoolean(required(p, "initial.requested"));
        int count = Integer.parseInt(required(p, "tables"));
        for (int i = 0; i < count; i++) {
            String prefix = "table." + i;
            TableProgress t = new TableProgress(SnapshotTable.parse(required(p, prefix)),
                    Boolean.parseBoolean(p.getProperty(prefix + ".reset")));
            String done = p.getProperty(prefix + ".done");
            t.doneAt = done == null ? null : position(done);
            int marks = Integer.parseInt(required(p, prefix + ".marks"));
            for (int m = 0; m < marks; m++) {
                t.marks.add(new Mark(PrimaryKey.decode(required(p, prefix + ".mark." + m + ".key")),
                        position(required(p, prefix + ".mark." + m + ".at"))));
            }
            progress.tables.add(t);
        }
        return progress;
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("snapshot progress lacks " + key);
        }
        return value;
    }

    private static Watermark position(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("snapshot progress has a bad position '" + text + "'");
        }
        return new Watermark(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
    }
}
