package dev.canal.parse.mysql;

import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.EventHeader;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.FormatDescriptionEvent;
import dev.canal.binlog.event.GtidEvent;
import dev.canal.binlog.event.MariaGtidEvent;
import dev.canal.binlog.event.QueryEvent;
import dev.canal.binlog.event.XidEvent;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.net.BinlogStream;
import dev.canal.binlog.net.QueryResult;
import dev.canal.binlog.net.ReplicaSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Finds where to start reading when no delivered position is known: by timestamp, with
 * a binary search over the binlog files' start times and one scan inside the chosen file; and, for a configured
 * file and offset, the start of the transaction that offset falls in, so reading never starts mid-transaction.
 *
 * <p>Each scan opens its own replica session through the given factory and reads without waiting at the end of
 * the binlog ({@code dumpToEnd}).
 */
final class StartPositionLocator {

    /** Opens a fresh, set-up replica session on the source. */
    interface Sessions {
        ReplicaSession open() throws IOException;
    }

    record BinlogFile(String name, long size) {
    }

    record Found(String file, long offset) {
    }

    private final Sessions sessions;

    StartPositionLocator(Sessions sessions) {
        this.sessions = sessions;
    }

    /**
     * The first transaction boundary at or before the last event older than {@code timestampMillis}: the file
     * whose first event is the newest one not after the target, then the last BEGIN start or COMMIT end before
     * the first event at or after the target. A target before every file gives the oldest file's start.
     */
    Found byTimestamp(long timestampMillis) throws IOException {
        List<BinlogFile> files = binaryLogs();
        int lo = 0;
        int hi = files.size() - 1;
        int chosen = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long start = fileStartMillis(files.get(mid));
            if (start <= timestampMillis) {
                chosen = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        BinlogFile file = files.get(chosen);
        long offset = scan(file, Long.MAX_VALUE, timestampMillis).lastBoundary();
        return new Found(file.name(), offset);
    }

    /** {@code offset} itself when it sits between transactions, else the start of the transaction around it. */
    Found alignToTransaction(String file, long offset) throws IOException {
        if (offset <= FIRST_EVENT) {
            return new Found(file, FIRST_EVENT);
        }
        BinlogFile binlog = binaryLogs().stream().filter(f -> f.name().equals(file)).findFirst()
                .orElseThrow(() -> new IOException("binlog file " + file + " is not on the source (SHOW BINARY LOGS)"));
        Scan scan = scan(binlog, offset, Long.MAX_VALUE);
        return new Found(file, scan.inTransaction() ? scan.transactionStart() : offset);
    }

    private static final long FIRST_EVENT = 4;

    /** What a scan learnt: the last safe start before it stopped, and whether it stopped inside a transaction. */
    record Scan(long lastBoundary, boolean inTransaction, long transactionStart) {
    }

    /**
     * Reads {@code file} from its start until the event at {@code untilOffset} or the first event at or after
     * {@code untilMillis}, tracking transaction boundaries.
     */
    private Scan scan(BinlogFile file, long untilOffset, long untilMillis) throws IOException {
        ReplicaSession session = sessions.open();
        try (BinlogStream stream = session.dumpToEnd(file.name(), FIRST_EVENT)) {
            BoundaryScan scan = new BoundaryScan(file, untilOffset, untilMillis);
            byte[] bytes;
            while ((bytes = stream.next()) != null && scan.accept(bytes, stream.currentFile())) {
                // the scan keeps what it needs of each event
            }
            return scan.result();
        } finally {
            session.connection().close();
        }
    }

    /**
     * Follows the transaction boundaries of one file's events, in order. Only the events that can mark a boundary
     * are decoded: rows events and statement texts (ANNOTATE_ROWS, ROWS_QUERY) can be many MiB each, and all a scan
     * needs of them is their header (docs/reliability.md, scenario 9).
     */
    static final class BoundaryScan {

        private static final BitSet DECODED = new BitSet(256);

        static {
            for (int type : new int[] {EventType.FORMAT_DESCRIPTION, EventType.QUERY, EventType.MARIA_QUERY_COMPRESSED,
                    EventType.XID, EventType.GTID, EventType.ANONYMOUS_GTID, EventType.GTID_TAGGED, EventType.MARIA_GTID,
                    EventType.MARIA_START_ENCRYPTION}) { // the last fails: the events after it are encrypted
                DECODED.set(type);
            }
        }

        private final DecoderContext context = new DecoderContext();
        private final BinlogFile file;
        private final long untilOffset;
        private final long untilMillis;
        private long boundary = FIRST_EVENT;
        private boolean inTransaction;
        private long transactionStart = FIRST_EVENT;

        BoundaryScan(BinlogFile file, long untilOffset, long untilMillis) {
            this.file = file;
            this.untilOffset = untilOffset;
            this.untilMillis = untilMillis;
        }

        /** Takes the next event of the stream, read from {@code currentFile}; false once the scan is over. */
        boolean accept(byte[] bytes, String currentFile) {
            EventHeader header = EventHeader.read(new LittleEndianCursor(bytes));
            BinlogEvent event = DECODED.get(header.type()) ? context.decode(bytes) : null;
            long next = header.nextPosition();
            if (next == 0 || header.type() == EventType.ROTATE) {
                return next == 0 || file.name().equals(currentFile);
            }
            long start = next - header.eventLength();
            if (start >= untilOffset || header.timestamp() * 1000 >= untilMillis
                    && !(event instanceof FormatDescriptionEvent)) {
                return false;
            }
            if (event instanceof GtidEvent || event instanceof MariaGtidEvent || isBegin(event)) {
                if (!inTransaction) {
                    inTransaction = true;
                    transactionStart = start;
                    boundary = start;
                }
            } else if (event instanceof XidEvent || isCommit(event)
                    || (event instanceof QueryEvent && inTransaction && !isBegin(event) && standaloneStatement(event))) {
                inTransaction = false;
                boundary = next;
            } else if (!inTransaction) {
                boundary = next;
            }
            return next < file.size();
        }

        Scan result() {
            return new Scan(boundary, inTransaction, transactionStart);
        }
    }

    /** A DDL after a GTID event stands alone: it ends its transaction itself (no BEGIN/COMMIT around it). */
    private static boolean standaloneStatement(BinlogEvent event) {
        String sql = ((QueryEvent) event).sql().stripLeading().toUpperCase(Locale.ROOT);
        return !sql.startsWith("INSERT") && !sql.startsWith("UPDATE") && !sql.startsWith("DELETE")
                && !sql.startsWith("REPLACE") && !sql.startsWith("XA ");
    }

    private static boolean isBegin(BinlogEvent event) {
        return event instanceof QueryEvent q && q.sql().strip().equalsIgnoreCase("BEGIN");
    }

    private static boolean isCommit(BinlogEvent event) {
        return event instanceof QueryEvent q && q.sql().strip().equalsIgnoreCase("COMMIT");
    }

    private List<BinlogFile> binaryLogs() throws IOException {
        ReplicaSession session = sessions.open();
        try {
            QueryResult logs = session.connection().query("SHOW BINARY LOGS");
            List<BinlogFile> files = new ArrayList<>();
            for (List<String> row : logs.rows()) {
                files.add(new BinlogFile(row.get(0), Long.parseLong(row.get(1))));
            }
            if (files.isEmpty()) {
                throw new IOException("SHOW BINARY LOGS returned no file: binary logging is off");
            }
            return files;
        } finally {
            session.connection().close();
        }
    }

    /** The time a file was started: its FORMAT_DESCRIPTION's timestamp. */
    private long fileStartMillis(BinlogFile file) throws IOException {
        ReplicaSession session = sessions.open();
        try (BinlogStream stream = session.dumpToEnd(file.name(), FIRST_EVENT)) {
            DecoderContext context = new DecoderContext();
            byte[] bytes;
            while ((bytes = stream.next()) != null) {
                BinlogEvent event = context.decode(bytes);
                if (event instanceof FormatDescriptionEvent && event.header().nextPosition() != 0) {
                    return event.header().timestamp() * 1000;
                }
            }
            throw new IOException("binlog file " + file.name() + " ended before its format description");
        } finally {
            session.connection().close();
        }
    }
}
