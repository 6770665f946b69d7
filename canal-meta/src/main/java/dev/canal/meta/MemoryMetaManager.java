package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Subscriptions, cursors and batch marks held in memory only (Canal's memory meta manager); the base of
 * the persistent flavours, which override {@link #loadDestination} to fill a destination the first time
 * it is touched and extend the write operations to persist them.
 *
 * <p>Thread-safe: every map is concurrent, a destination's client list is replaced atomically, and each
 * client's batch marks are guarded by their own lock. {@link #stop()} forgets everything.
 */
public class MemoryMetaManager implements MetaManager {

    /** What a persistent flavour already knows about a destination when it is first touched. */
    record LoadedDestination(List<ClientIdentity> clients, Map<ClientIdentity, LogPosition> cursors,
            Map<ClientIdentity, Map<Long, PositionRange>> batches) {

        static final LoadedDestination EMPTY = new LoadedDestination(List.of(), Map.of(), Map.of());
    }

    private final ConcurrentMap<String, Boolean> loadedDestinations = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, List<ClientIdentity>> subscriptions = new ConcurrentHashMap<>();
    private final ConcurrentMap<ClientIdentity, LogPosition> cursors = new ConcurrentHashMap<>();
    private final ConcurrentMap<ClientIdentity, ClientBatches> batches = new ConcurrentHashMap<>();
    private volatile boolean running;

    @Override
    public synchronized void start() {
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        loadedDestinations.clear();
        subscriptions.clear();
        cursors.clear();
        batches.clear();
    }

    @Override
    public boolean isStart() {
        return running;
    }

    @Override
    public void subscribe(ClientIdentity client) {
        ensureLoaded(client.destination());
        subscriptions.compute(client.destination(), (destination, clients) -> {
            List<ClientIdentity> updated = clients == null ? new ArrayList<>() : new ArrayList<>(clients);
            updated.remove(client); // equality ignores the filter: this drops the old filter
            updated.add(client);
            return List.copyOf(updated);
        });
    }

    @Override
    public boolean hasSubscribe(ClientIdentity client) {
        return listAllSubscribeInfo(client.destination()).contains(client);
    }

    /** Drops the subscription only; like Canal, the in-memory cursor survives a later re-subscribe. */
    @Override
    public void unsubscribe(ClientIdentity client) {
        ensureLoaded(client.destination());
        subscriptions.computeIfPresent(client.destination(), (destination, clients) -> {
            List<ClientIdentity> updated = new ArrayList<>(clients);
            updated.remove(client);
            return List.copyOf(updated);
        });
    }

    @Override
    public List<ClientIdentity> listAllSubscribeInfo(String destination) {
        ensureLoaded(destination);
        return subscriptions.getOrDefault(destination, List.of());
    }

    @Override
    public List<String> listSubscribedNames(String destination) {
        ensureLoaded(destination);
        return subscriptions.entrySet().stream()
                .filter(e -> ConsumerName.belongsTo(e.getKey(), destination) && !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    @Override
    public LogPosition getCursor(ClientIdentity client) {
        ensureLoaded(client.destination());
        return cursors.get(client);
    }

    @Override
    public void updateCursor(ClientIdentity client, LogPosition position) {
        Objects.requireNonNull(position, "position");
        ensureLoaded(client.destination());
        cursors.put(client, position);
    }

    @Override
    public long addBatch(ClientIdentity client, PositionRange range) {
        return batchesOf(client).add(Objects.requireNonNull(range, "range"));
    }

    @Override
    public void addBatch(ClientIdentity client, PositionRange range, long batchId) {
        batchesOf(client).add(Objects.requireNonNull(range, "range"), batchId);
    }

    @Override
    public PositionRange getBatch(ClientIdentity client, long batchId) {
        return batchesOf(client).get(batchId);
    }

    @Override
    public PositionRange removeBatch(ClientIdentity client, long batchId) {
        return batchesOf(client).remove(batchId);
    }

    @Override
    public Map<Long, PositionRange> listAllBatchs(ClientIdentity client) {
        return batchesOf(client).all();
    }

    @Override
    public List<Long> listBatchIds(ClientIdentity client) {
        return batchesOf(client).ids();
    }

    @Override
    public PositionRange getFirstBatch(ClientIdentity client) {
        return batchesOf(client).first();
    }

    @Override
    public PositionRange getLastestBatch(ClientIdentity client) {
        return batchesOf(client).last();
    }

    @Override
    public void clearAllBatchs(ClientIdentity client) {
        batchesOf(client).clear();
    }

    /**
     * Override to read what persistent storage holds for the destination and its named consumers (clients whose
     * destination is {@code destination@consumer}); called once per destination.
     */
    LoadedDestination loadDestination(String destination) {
        return LoadedDestination.EMPTY;
    }

    /**
     * Loads the destination, with its named consumers, now unless already loaded; a failing load is retried on the
     * next access. A consumer name ({@code example@billing}) loads its destination ({@code example}).
     */
    final void ensureLoaded(String subscribedName) {
        loadedDestinations.computeIfAbsent(ConsumerName.destinationOf(subscribedName), d -> {
            LoadedDestination loaded = loadDestination(d);
            Map<String, List<ClientIdentity>> byName = new HashMap<>();
            for (ClientIdentity client : loaded.clients()) {
                byName.computeIfAbsent(client.destination(), name -> new ArrayList<>()).add(client);
            }
            byName.putIfAbsent(d, List.of());
            byName.forEach((name, clients) -> subscriptions.put(name, List.copyOf(clients)));
            cursors.putAll(loaded.cursors());
            loaded.batches().forEach((client, marks) -> {
                ClientBatches clientBatches = new ClientBatches(client);
                marks.forEach((id, range) -> clientBatches.add(range, id));
                batches.put(client, clientBatches);
            });
            return Boolean.TRUE;
        });
    }

    private ClientBatches batchesOf(ClientIdentity client) {
        ensureLoaded(client.destination());
        return batches.computeIfAbsent(client, ClientBatches::new);
    }
}
