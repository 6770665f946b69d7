package dev.canal.reliability;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Updates (the key too), deletes and re-inserts rows of a table {@code t (id INT PRIMARY KEY, v VARCHAR, n INT)}
 * holding ids 1 to {@code rows} at random: in a thread until closed, or a given number of changes at once.
 */
final class ChangingWriter implements AutoCloseable {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong statements = new AtomicLong();
    private final Thread thread;
    private final MySqlServer db;
    private final String schema;
    private final int rows;

    /** Starts changing rows of {@code schema.t}, a change every 2 ms, until closed. */
    ChangingWriter(MySqlServer db, String schema, int rows) {
        this.db = db;
        this.schema = schema;
        this.rows = rows;
        this.thread = new Thread(this::write, "changing-writer-" + schema);
        thread.setDaemon(true);
        thread.start();
    }

    /** Makes {@code count} random changes to rows of {@code schema.t} now, on the calling thread. */
    static void changeNow(MySqlServer db, String schema, int rows, int count, long seed) throws SQLException {
        Random random = new Random(seed);
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            for (int i = 0; i < count; i++) {
                st.execute(randomChange(schema, rows, random));
            }
        }
    }

    private static String randomChange(String schema, int rows, Random random) {
        int id = 1 + random.nextInt(rows + rows / 10);
        return switch (random.nextInt(4)) {
            case 0 -> "UPDATE " + schema + ".t SET n = n + 1, v = 'u" + random.nextInt() + "' WHERE id = " + id;
            case 1 -> "DELETE FROM " + schema + ".t WHERE id = " + id;
            case 2 -> "UPDATE IGNORE " + schema + ".t SET id = " + (rows + 1 + random.nextInt(rows / 10))
                    + " WHERE id = " + id;
            default -> "REPLACE INTO " + schema + ".t VALUES (" + id + ", 'i', 1)";
        };
    }

    private void write() {
        Random random = new Random(21);
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            while (running.get()) {
                st.execute(randomChange(schema, rows, random));
                statements.incrementAndGet();
                TimeUnit.MILLISECONDS.sleep(2);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the writer failed", e);
        }
    }

    long statements() {
        return statements.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
