package dev.canal.parse.snapshot;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps inserting, updating (the key too, now and then) and deleting rows of a table {@code (id INT PRIMARY KEY,
 * v VARCHAR(40), n INT)} until stopped, in transactions of one to three statements; the seed is printed so a
 * failure can be replayed.
 */
final class TableWriter implements AutoCloseable {

    private final MySqlServer db;
    private final String table;
    private final int keySpace;
    private final long seed;
    private final Thread thread;
    private final AtomicLong statements = new AtomicLong();
    private volatile boolean running = true;
    private volatile Throwable failure;

    TableWriter(MySqlServer db, String table, int keySpace) {
        this.db = db;
        this.table = table;
        this.keySpace = keySpace;
        this.seed = System.nanoTime();
        System.out.println("TableWriter on " + table + " with seed " + seed);
        this.thread = new Thread(this::run, "writer-" + table);
        thread.setDaemon(true);
        thread.start();
    }

    long statements() {
        return statements.get();
    }

    private void run() {
        Random random = new Random(seed);
        try (Connection c = db.adminConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
                        + " VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE v = VALUES(v), n = n + 1");
                PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET v = ?, n = n + 1 WHERE id = ?");
                PreparedStatement move = c.prepareStatement("UPDATE IGNORE " + table + " SET id = ? WHERE id = ?");
                PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
            while (running) {
                c.setAutoCommit(false);
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    int id = 1 + random.nextInt(keySpace);
                    int op = random.nextInt(100);
                    PreparedStatement st;
                    if (op < 30) {
                        st = insert;
                        st.setInt(1, id);
                        st.setString(2, "i" + random.nextInt());
                    } else if (op < 70) {
                        st = update;
                        st.setString(1, "u" + random.nextInt());
                        st.setInt(2, id);
                    } else if (op < 75) {
                        st = move;
                        st.setInt(1, 1 + random.nextInt(keySpace));
                        st.setInt(2, id);
                    } else {
                        st = delete;
                        st.setInt(1, id);
                    }
                    st.executeUpdate();
                    statements.incrementAndGet();
                }
                c.commit();
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
        if (failure != null) {
            throw new IllegalStateException("the writer failed (seed " + seed + ")", failure);
        }
    }
}
