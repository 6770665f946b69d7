package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory meta manager backed by ZooKeeper (Canal's PeriodMixedMetaManager, wired by default-instance.xml): subscriptions are written to ZooKeeper asynchronously, changed cursors are pushed
 * every {@code period} ms and once more on stop, batch marks live in memory only. The first time a
 * destination is touched after start, its subscriptions, cursors and any batch marks are read from
 * ZooKeeper, so a server that takes over a destination continues from the cursors the previous one pushed.
 *
 * <p>All ZooKeeper writes run in order on one thread, so an unsubscribe is never overtaken by a late
 * cursor push that would re-create the client's node. A failed write is logged; a failed cursor push is
 * retried on the next period.
 */
public final class PeriodMixedMetaManager extends MemoryMetaManager {

    public static final long DEFAULT_PERIOD_MILLIS = 1000;

    private static final Logger log = LoggerFactory.getLogger(PeriodMixedMetaManager.class);

    private final ZooKeeperMetaManager zooKeeper;
    private final long periodMillis;
    private final Set<ClientIdentity> changedCursors = ConcurrentHashMap.newKeySet();
    private volatile ScheduledExecutorService writer; // replaced by start, shut down by stop

    public PeriodMixedMetaManager(ZooKeeperMetaManager zooKeeper) {
        this(zooKeeper, DEFAULT_PERIOD_MILLIS);
    }

    public PeriodMixedMetaManager(ZooKeeperMetaManager zooKeeper, long periodMillis) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("flush period must be positive, was " + periodMillis);
        }
        this.zooKeeper = zooKeeper;
        this.periodMillis = periodMillis;
    }

    @Override
    public synchronized void start() {
        if (isStart()) {
            return;
        }
        if (!zooKeeper.isStart()) {
            zooKeeper.start();
        }
        writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "canal-meta-zookeeper-flush");
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::pushChangedCursors, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        super.start();
    }

    /** Pushes pending subscription changes and cursors to ZooKeeper, then forgets the in-memory state. */
    @Override
    public synchronized void stop() {
        if (!isStart()) {
            return;
        }
        writer.execute(this::pushChangedCursors);
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("ZooKeeper meta writer did not finish within 10 s; unpushed cursors: {}", changedCursors);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        changedCursors.clear();
        zooKeeper.stop();
        super.stop();
    }

    /** Reads the destination's subscriptions, cursors and marks from ZooKeeper and drops them: they move on. */
    @Override
    public void prepare(String destination) {
        loadDestination(destination);
    }

    @Override
    public void subscribe(ClientIdentity client) {
        super.subscribe(client);
        inWriter("subscribe " + client, () -> zooKeeper.subscribe(client));
    }

    @Override
    public void unsubscribe(ClientIdentity client) {
        super.unsubscribe(client);
        inWriter("unsubscribe " + client, () -> zooKeeper.unsubscribe(client));
    }

    @Override
    public void updateCursor(ClientIdentity client, LogPosition position) {
        super.updateCursor(client, position);
        changedCursors.add(client);
    }

    @Override
    LoadedDestination loadDestination(String destination) {
        List<ClientIdentity> clients = new ArrayList<>();
        for (String name : zooKeeper.listSubscribedNames(destination)) { // the destination and its named consumers
            clients.addAll(zooKeeper.listAllSubscribeInfo(name));
        }
        Map<ClientIdentity, LogPosition> cursors = new HashMap<>();
        Map<ClientIdentity, Map<Long, PositionRange>> batches = new HashMap<>();
        for (ClientIdentity client : clients) {
            LogPosition cursor = zooKeeper.getCursor(client);
            if (cursor != null) {
                cursors.put(client, cursor);
            }
            batches.put(client, zooKeeper.listAllBatchs(client));
        }
        log.info("loaded {} client(s) of destination {} from ZooKeeper", clients.size(), destination);
        return new LoadedDestination(clients, cursors, batches);
    }

    private void inWriter(String what, Runnable write) {
        ScheduledExecutorService current = writer;
        if (current == null) {
            throw new MetaManagerException("cannot " + what + ": the meta manager is not started");
        }
        try {
            current.execute(() -> {
                try {
                    write.run();
                } catch (RuntimeException e) {
                    log.error("ZooKeeper meta write failed: {}", what, e);
                }
            });
        } catch (RejectedExecutionException e) {
            throw new MetaManagerException("cannot " + what + ": the meta manager is stopping", e);
        }
    }

    /** Writer thread only. */
    private void pushChangedCursors() {
        for (ClientIdentity client : List.copyOf(changedCursors)) {
            if (!changedCursors.remove(client)) {
                continue;
            }
            LogPosition cursor = getCursor(client);
            if (cursor == null || !hasSubscribe(client)) {
                continue; // unsubscribed meanwhile: pushing would re-create its node
            }
            try {
                zooKeeper.updateCursor(client, cursor);
            } catch (RuntimeException e) {
                changedCursors.add(client);
                log.error("pushing the cursor of {} to ZooKeeper failed, retrying in {} ms", client, periodMillis, e);
            }
        }
    }
}
