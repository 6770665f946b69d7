package dev.canal.bench;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the fixed workload into a fresh binlog: multi-row INSERTs, then UPDATEs, then DELETEs, each statement
 * touching {@code batchRows} consecutive ids. The expected digest is computed from the database itself: each
 * chunk's rows are read back (CAST AS CHAR) after an insert, before and after an update, before a delete.
 */
final class Workload {

    private static final Logger log = LoggerFactory.getLogger(Workload.class);

    /** The position of a binlog file's first event: catch-up starts from the start of the fresh file. */
    static final long FIRST_EVENT = 4;

    /** Where the workload's binlog starts and ends, how many row changes it holds and what they digest to. */
    record Loaded(String startFile, long startPosition, long startMillis, String endFile, long endPosition,
            long rowChanges, String expectedDigest) {
    }

    /** Row changes per kind: inserts of ids 1..inserts, updates of ids 1..updates, deletes of the last ids. */
    record Mix(long inserts, long updates, long deletes) {

        Mix {
            if (inserts <= 0 || updates < 0 || deletes < 0 || updates > inserts || deletes > inserts) {
                throw new IllegalArgumentException("workload mix needs inserts > 0 and updates, deletes <= inserts: "
                        + inserts + "/" + updates + "/" + deletes);
            }
        }

        /** {@code rows} changes split by percentages like "60:30:10". */
        static Mix of(long rows, String percentages) {
            String[] p = percentages.split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("--mix wants INSERT:UPDATE:DELETE percentages, got " + percentages);
            }
            long ins = Long.parseLong(p[0]);
            long upd = Long.parseLong(p[1]);
            long del = Long.parseLong(p[2]);
            long total = ins + upd + del;
            long updates = rows * upd / total;
            long deletes = rows * del / total;
            return new Mix(rows - updates - deletes, updates, deletes);
        }

        long total() {
            return inserts + updates + deletes;
        }
    }

    private final MySqlServer db;
    private final BenchTable.Shape shape;
    private final Mix mix;
    private final int batchRows;
    private final RowDigest expected = new RowDigest();

    Workload(MySqlServer db, BenchTable.Shape shape, Mix mix, int batchRows) {
        this.db = db;
        this.shape = shape;
        this.mix = mix;
        this.batchRows = batchRows;
    }

    Loaded load() throws SQLException {
        db.recreateDatabase(BenchTable.SCHEMA);
        db.execute(BenchTable.createTable(shape));
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            st.execute("SET time_zone = '+00:00'");
            long startMillis = nowMillis(st);
            st.execute("FLUSH BINARY LOGS");
            MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
            long started = System.nanoTime();
            forChunks(1, mix.inserts(), (from, to) -> {
                st.executeUpdate(BenchTable.insert(shape, from, to));
                rows(st, from, to).forEach(row -> expected.add(BenchTable.QUALIFIED, "INSERT", row.get(0), null, row));
            });
            forChunks(1, mix.updates(), (from, to) -> {
                List<List<String>> before = rows(st, from, to);
                st.executeUpdate(BenchTable.update(from, to));
                List<List<String>> after = rows(st, from, to);
                for (int i = 0; i < before.size(); i++) {
                    expected.add(BenchTable.QUALIFIED, "UPDATE", before.get(i).get(0), before.get(i), after.get(i));
                }
            });
            forChunks(mix.inserts() - mix.deletes() + 1, mix.inserts(), (from, to) -> {
                List<List<String>> before = rows(st, from, to);
                st.executeUpdate(BenchTable.delete(from, to));
                before.forEach(row -> expected.add(BenchTable.QUALIFIED, "DELETE", row.get(0), row, null));
            });
            MySqlServer.BinlogCoordinates end = db.currentBinlogPosition();
            if (expected.rows() != mix.total()) {
                throw new IllegalStateException("the database holds " + expected.rows() + " row changes of the "
                        + mix.total() + " the workload made");
            }
            log.info("loaded {} row changes ({}) in {} s: binlog {} to {}", mix.total(), mix,
                    (System.nanoTime() - started) / 1_000_000_000, start, end);
            return new Loaded(start.file(), FIRST_EVENT, startMillis, end.file(), end.position(), mix.total(),
                    expected.value());
        }
    }

    /** The source's clock in ms, taken just before the workload's binlog file starts (Canal's start time). */
    private static long nowMillis(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private interface Chunk {
        void run(long from, long to) throws SQLException;
    }

    private void forChunks(long first, long last, Chunk chunk) throws SQLException {
        for (long from = first; from <= last; from += batchRows) {
            chunk.run(from, Math.min(last, from + batchRows - 1));
        }
    }

    private static List<List<String>> rows(Statement st, long from, long to) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(BenchTable.selectText(from, to))) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    String v = rs.getString(i);
                    row.add(v == null ? RowDigest.NULL : v);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
