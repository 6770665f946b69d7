package dev.canal.reliability;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread inserting rows into a few tables of one schema, round robin, one transaction per row, ids 1, 2, 3, ...
 * per table; it counts only committed rows, so "written" is exactly what the binlog holds.
 */
final class RowWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RowWriter.class);

    private final MySqlServer db;
    private final String schema;
    private final List<String> tables;
    private final long pauseNanos;
    private final String padding;
    private final Map<String, Integer> committed = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile Throwable failure;

    /** Creates {@code tableCount} tables in a fresh {@code schema}; {@link #begin()} starts writing, one row per pause. */
    static RowWriter create(MySqlServer db, String schema, int tableCount, Duration pause) {
        return create(db, schema, tableCount, pause, 0);
    }

    /** As {@link #create(MySqlServer, String, int, Duration)}, each row carrying {@code payloadBytes} more bytes. */
    static RowWriter create(MySqlServer db, String schema, int tableCount, Duration pause, int payloadBytes) {
        return new RowWriter(db, schema, tableCount, pause.toNanos(), payloadBytes);
    }

    private RowWriter(MySqlServer db, String schema, int tableCount, long pauseNanos, int payloadBytes) {
        this.db = db;
        this.schema = schema;
        this.tables = IntStream.range(0, tableCount).mapToObj(i -> "t" + i).toList();
        this.pauseNanos = pauseNanos;
        this.padding = " " + "x".repeat(payloadBytes);
        createTables(db, schema, tables);
        tables.forEach(t -> committed.put(t, 0));
        this.thread = new Thread(this::writeUntilStopped, "row-writer-" + schema);
        this.thread.setDaemon(true);
    }

    private static void createTables(MySqlServer db, String schema, List<String> tables) {
        for (String table : tables) {
            db.execute("CREATE TABLE IF NOT EXISTS `" + schema + "`.`" + table + "` (id INT PRIMARY KEY, v MEDIUMTEXT)");
        }
    }

    RowWriter begin() {
        thread.start();
        return this;
    }

    /** Writes {@code count} more rows right now, on the caller's thread (for scenarios without a workload). */
    void writeNow(int count) {
        try (Connection connection = db.adminConnection()) {
            for (int i = 0; i < count; i++) {
                insertNext(connection, i);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("writing into " + schema + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Inserts until stopped. A broken connection (the database restarts) leaves the row in flight in doubt: once
     * the database answers again, a look-up decides whether it was committed before the next row is written.
     */
    private void writeUntilStopped() {
        long n = 0;
        boolean inDoubt = false;
        while (running.get()) {
            try (Connection connection = db.adminConnection()) {
                if (inDoubt && exists(connection, n)) {
                    committed.merge(tableOf(n), 1, Integer::sum);
                    n++;
                }
                inDoubt = false;
                while (running.get()) {
                    inDoubt = true;
                    insertNext(connection, n);
                    inDoubt = false;
                    n++;
                    LockSupport.parkNanos(pauseNanos); // pacing the workload, not waiting for a condition
                }
            } catch (SQLException e) {
                log.info("writer of {} lost the database ({}); reconnecting", schema, e.getMessage());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // retry pause while the database is away
            } catch (RuntimeException | Error e) {
                failure = e;
                return;
            }
        }
    }

    private String tableOf(long n) {
        return tables.get((int) (n % tables.size()));
    }

    private boolean exists(Connection connection, long n) throws SQLException {
        String table = tableOf(n);
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT 1 FROM `" + schema + "`.`" + table + "` WHERE id = ?")) {
            select.setInt(1, committed.get(table) + 1);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void insertNext(Connection connection, long n) throws SQLException {
        String table = tableOf(n);
        int id = committed.get(table) + 1;
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO `" + schema + "`.`" + table + "` (id, v) VALUES (?, ?)")) {
            insert.setInt(1, id);
            insert.setString(2, "row " + id + " of " + table + padding);
            insert.executeUpdate();
        }
        committed.put(table, id);
    }

    /** Rows committed so far, per table (ids 1..n). */
    Map<String, Integer> committed() {
        return Map.copyOf(committed);
    }

    int total() {
        return committed.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        if (thread.isAlive()) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        if (failure != null) {
            throw new IllegalStateException("the writer of " + schema + " failed", failure);
        }
    }
}
