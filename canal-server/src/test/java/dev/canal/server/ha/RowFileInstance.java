package dev.canal.server.ha;

import dev.canal.instance.TestInstance;
import dev.canal.meta.MetaManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.TestEntries;
import dev.canal.store.StoreConfig;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A destination whose "binlog" is a text file of row numbers, one per line, appended by the test: row k
 * becomes the transaction BEGIN, INSERT, END at offsets 3k, 3k+1, 3k+2. Like a parser, the feeder starts
 * after the smallest cursor of the destination's clients (as the meta manager loaded them from ZooKeeper),
 * so a server taking over resumes from the last acked position, and stops with the instance.
 */
final class RowFileInstance extends TestInstance {

    private static final long FOLLOW_MILLIS = 10;
    private static final int ENTRIES_PER_ROW = 3;

    private final Path rows;
    private final Consumer<Boolean> serving;
    private final AutoCloseable owned;
    private volatile Thread feeder;

    /**
     * @param serving told true right before the store starts serving gets, false right after it stopped
     * @param owned   closed after the meta manager stopped (its ZooKeeper client)
     */
    RowFileInstance(String destination, Path rows, MetaManager meta, StoreConfig storeConfig,
            Consumer<Boolean> serving, AutoCloseable owned) {
        super(destination, storeConfig, meta);
        this.rows = rows;
        this.serving = serving;
        this.owned = owned;
    }

    @Override
    public synchronized void start() {
        MetaManager meta = getMetaManager();
        if (!meta.isStart()) {
            meta.start();
        }
        serving.accept(true);
        getEventStore().start();
        long firstRow = resumeRow();
        feeder = new Thread(() -> feed(firstRow), "row-file-feeder-" + getDestination());
        feeder.setDaemon(true);
        feeder.start();
    }

    @Override
    public synchronized void stop() {
        Thread running = feeder;
        feeder = null;
        if (running != null) {
            running.interrupt();
        }
        getEventStore().stop();
        serving.accept(false); // the meta manager's last cursor push may still take a while
        getMetaManager().stop();
        try {
            owned.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing what the instance of " + getDestination() + " owned", e);
        }
    }

    @Override
    public boolean isStart() {
        return feeder != null;
    }

    /**
     * Where a parser would start after the smallest client cursor; row 1 when no client has a cursor. A cursor
     * may rest on a transaction's END (offset 3k+2: go on with row k+1) or, as Canal allows outside GTID mode,
     * on its BEGIN (offset 3k: row k again), so the first row is the one whose BEGIN is at or after it.
     */
    private long resumeRow() {
        long row = Long.MAX_VALUE;
        MetaManager meta = getMetaManager();
        for (ClientIdentity client : meta.listAllSubscribeInfo(getDestination())) {
            LogPosition cursor = meta.getCursor(client);
            long offset = cursor == null ? 0 : cursor.position().position();
            row = Math.min(row, Math.max(1, (offset + ENTRIES_PER_ROW - 1) / ENTRIES_PER_ROW));
        }
        return row == Long.MAX_VALUE ? 1 : row;
    }

    private void feed(long firstRow) {
        try (RandomAccessFile file = new RandomAccessFile(rows.toFile(), "r")) {
            StringBuilder line = new StringBuilder();
            while (feeder == Thread.currentThread()) {
                int next = file.read();
                if (next < 0) {
                    Thread.sleep(FOLLOW_MILLIS); // polling the end of a file: nothing to wait on
                } else if (next != '\n') {
                    line.append((char) next);
                } else {
                    long row = Long.parseLong(line.toString());
                    line.setLength(0);
                    if (row >= firstRow) {
                        put(TestEntries.transaction(ENTRIES_PER_ROW * row, 1));
                    }
                }
            }
        } catch (InterruptedException | IllegalStateException stopped) {
            // the instance stops: interrupted, or the store refused the put
        } catch (IOException e) {
            throw new UncheckedIOException("reading rows of " + getDestination() + " from " + rows, e);
        }
    }
}
