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
 * A thread writing transactions of two rows into {@code schema.t (id, v)}: each row inserts a key at version 1 or
 * updates it to its next version, so a consumer can tell for every key which versions it received, twice, or in
 * which order. Counts only committed rows: {@link #versions()} is what the binlog holds.
 */
final class VersionWriter implements AutoCloseable {

    private final MySqlServer db;
    private final String schema;
    private final int[] versions;
    private final AtomicLong rows = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile Throwable failure;

    /** Creates {@code schema.t}; {@link #begin()} starts writing. */
    VersionWriter(MySqlServer db, String schema, int keys) {
        this.db = db;
        this.schema = schema;
        this.versions = new int[keys];
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v INT NOT NULL)");
        this.thread = new Thread(this::write, "version-writer-" + schema);
        thread.setDaemon(true);
    }

    VersionWriter begin() {
        thread.start();
        return this;
    }

    private void write() {
        Random random = new Random(35);
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            while (running.get()) {
                int a = random.nextInt(versions.length);
                int b = (a + 1 + random.nextInt(versions.length - 1)) % versions.length;
                st.execute(next(a));
                st.execute(next(b));
                c.commit();
                synchronized (this) {
                    versions[a]++;
                    versions[b]++;
                }
                rows.addAndGet(2);
                TimeUnit.MILLISECONDS.sleep(3);
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String next(int key) {
        int version;
        synchronized (this) {
            version = versions[key] + 1;
        }
        return version == 1 ? "INSERT INTO " + schema + ".t VALUES (" + key + ", 1)"
                : "UPDATE " + schema + ".t SET v = " + version + " WHERE id = " + key;
    }

    /** Rows committed so far. */
    long rows() {
        return rows.get();
    }

    /** The version each key reached, by key. */
    synchronized int[] versions() {
        return versions.clone();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(30));
        if (failure != null) {
            throw new IllegalStateException("the writer failed", failure);
        }
    }
}
