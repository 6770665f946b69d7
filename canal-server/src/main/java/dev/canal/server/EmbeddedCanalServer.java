package dev.canal.server;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MetaManager;
import dev.canal.meta.MetaManagerException;
import dev.canal.meta.UnknownBatchException;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.Message;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import dev.canal.sink.filter.RegexTableFilter;
import dev.canal.store.Event;
import dev.canal.store.ConsumerDetachedException;
import dev.canal.store.EventStore;
import dev.canal.store.StoreConsumer;
import dev.canal.store.Events;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The in-process server (Canal's CanalServerWithEmbedded): holds one instance per
 * destination, built lazily by the {@link CanalInstanceGenerator}, and serves clients from each instance's
 * store while recording their batches and cursors in its meta manager.
 *
 * <p>A client subscribes to a destination ({@code example}, its default consumer, Canal's behaviour) or to a named
 * consumer of it ({@code example@billing}), which has its own cursor, batches and pointers in the destination's
 * store (docs/consumers.md). As in Canal, taking a batch and rolling back run under a lock, so a batch's store
 * range and its batch mark are recorded together; a blocking get holds that lock while it waits (Canal's
 * {@code synchronized (canalInstance)}). The lock is per consumer, so one consumer's long poll never holds back
 * another. Ack does not take the lock, as in Canal: the meta manager and
 * the store are thread-safe on their own. The waiting for the lock is interruptible.
 *
 * <p>A destination being handed over to another server ({@link #quiesce}) hands out nothing more here until it
 * starts here again: its gets find nothing, and acks and rollbacks that come after its instance stopped are
 * ignored (the new server serves from the cursors pushed at the stop).
 */
public final class EmbeddedCanalServer implements CanalServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedCanalServer.class);
    private static final String MDC_DESTINATION = "destination";
    /** The TCP GET's "do not wait" value, which the embedded API also reads as a try-get. */
    private static final long NO_WAIT = -1L;

    /**
     * An instance and, per name subscribed to it (the destination itself or {@code destination@consumer}), the lock
     * that orders that consumer's gets and rollbacks: one consumer's long poll never waits for another's.
     */
    private record Slot(CanalInstance instance, ConcurrentMap<String, ReentrantLock> locks) {

        ReentrantLock lock(ClientIdentity client) {
            return locks.computeIfAbsent(client.destination(), name -> new ReentrantLock());
        }
    }

    private final CanalInstanceGenerator generator;
    private final ConcurrentMap<String, Slot> instances = new ConcurrentHashMap<>();
    private final List<InstanceListener> listeners = new CopyOnWriteArrayList<>();
    private final Handovers handovers;
    private final ReconnectingClients reconnecting;
    private volatile boolean running;

    /** A server whose handed-over destinations answer their clients with nothing until they run here again. */
    public EmbeddedCanalServer(CanalInstanceGenerator generator) {
        this(generator, Duration.ofNanos(Long.MAX_VALUE));
    }

    /**
     * @param movingClientsWait how long after a handed-over destination's instance stopped here its clients' gets
     *                          are answered with nothing while they move; later gets fail with "should start first"
     */
    public EmbeddedCanalServer(CanalInstanceGenerator generator, Duration movingClientsWait) {
        this.generator = Objects.requireNonNull(generator, "generator");
        this.handovers = new Handovers(movingClientsWait);
        this.reconnecting = new ReconnectingClients(movingClientsWait);
    }

    @Override
    public synchronized void start() {
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        for (String destination : List.copyOf(instances.keySet())) {
            try {
                stop(destination);
            } catch (RuntimeException e) {
                log.error("stopping the instance of destination {} failed", destination, e);
            }
        }
    }

    @Override
    public boolean isStart() {
        return running;
    }

    @Override
    public void start(String subscribedName) {
        String destination = ConsumerName.destinationOf(subscribedName);
        if (!running) {
            throw new IllegalStateException("the embedded server is not started; cannot start destination "
                    + destination);
        }
        CanalInstance instance = slot(destination).instance();
        synchronized (instance) {
            handovers.end(destination);
            if (!instance.isStart()) {
                MDC.put(MDC_DESTINATION, destination);
                try {
                    notify(instance, InstanceListener::starting);
                    try {
                        instance.start();
                    } catch (RuntimeException e) {
                        notify(instance, InstanceListener::stopped);
                        throw e;
                    }
                    log.info("started the instance of destination {}", destination);
                } finally {
                    MDC.remove(MDC_DESTINATION);
                }
            }
        }
    }

    @Override
    public void stop(String subscribedName) {
        String destination = ConsumerName.destinationOf(subscribedName);
        Slot slot = instances.remove(destination);
        if (slot == null) {
            return;
        }
        synchronized (slot.instance()) {
            if (slot.instance().isStart()) {
                MDC.put(MDC_DESTINATION, destination);
                try {
                    slot.instance().stop();
                    log.info("stopped the instance of destination {}", destination);
                } finally {
                    handovers.stopped(destination);
                    notify(slot.instance(), InstanceListener::stopped);
                    MDC.remove(MDC_DESTINATION);
                }
            }
        }
    }

    /** The destination's instance when it runs here. */
    public Optional<CanalInstance> runningInstance(String destination) {
        Slot slot = instances.get(destination);
        return slot != null && slot.instance().isStart() ? Optional.of(slot.instance()) : Optional.empty();
    }

    @Override
    public boolean isStart(String subscribedName) {
        Slot slot = instances.get(ConsumerName.destinationOf(subscribedName));
        return slot != null && slot.instance().isStart();
    }

    /**
     * Adds a listener and tells it at once about every instance already running, so that it does not matter
     * whether it is added before or after the destinations start.
     */
    public void addInstanceListener(InstanceListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        for (Slot slot : instances.values()) {
            synchronized (slot.instance()) { // as start and stop, so a concurrent stop is seen before or after
                if (slot.instance().isStart()) {
                    listener.starting(slot.instance());
                }
            }
        }
    }

    public void removeInstanceListener(InstanceListener listener) {
        listeners.remove(listener);
    }

    /** A listener's failure is logged and does not stop the instance from starting or stopping. */
    private void notify(CanalInstance instance, BiConsumer<InstanceListener, CanalInstance> call) {
        for (InstanceListener listener : listeners) {
            try {
                call.accept(listener, instance);
            } catch (RuntimeException e) {
                log.error("instance listener {} failed for destination {}", listener, instance.getDestination(), e);
            }
        }
    }

    /**
     * Records the subscription; a client without a cursor reads from the store's first entry and has a cursor from
     * its first ack on; a non-empty filter is handed to the instance.
     */
    @Override
    public void subscribe(ClientIdentity client) {
        CanalInstance instance = startedInstance(client.destination()).instance();
        requireValidFilter(client);
        MetaManager meta = instance.getMetaManager();
        if (!meta.isStart()) {
            meta.start();
        }
        meta.subscribe(client);
        LogPosition cursor = meta.getCursor(client);
        ConsumerName consumer = ConsumerName.parse(client.destination());
        StoreConsumer reader = attach(instance.getEventStore(), consumer, cursor);
        if (cursor == null) {
            // no cursor is saved until the first ack: the store's first entry is not consumed yet, and a restart
            // from a cursor resumes after the entry it names, so saving it here would skip that entry
            log.info("subscribed {} without a cursor: it reads from the store's first position {}", client,
                    reader.getFirstPosition());
        } else {
            log.info("subscribed {} at its last cursor {}", client, cursor);
        }
        if (consumer.isDefault()) {
            instance.subscribeChange(client); // a named consumer's filter is its own
        } else if (meta.listAllSubscribeInfo(consumer.destination()).isEmpty()) {
            instance.getEventStore().detach(ConsumerName.DEFAULT); // keep nothing for a default nobody subscribed
        }
    }

    /** A filter is compiled before anything keeps it: a bad one must not stop the destination at its next start. */
    private static void requireValidFilter(ClientIdentity client) {
        if (!client.hasFilter()) {
            return;
        }
        try {
            RegexTableFilter.whiteList(client.filter());
        } catch (PatternSyntaxException e) {
            throw new CanalServerException("the filter is not a valid regular expression: " + e.getDescription()
                    + " near index " + e.getIndex());
        }
    }

    /**
     * The consumer's view of the store: the store itself for the default consumer; a named consumer is attached
     * at its cursor if it is not yet, and a detached one without a cursor is attached again (docs/consumers.md).
     */
    private static StoreConsumer attach(EventStore store, ConsumerName consumer, LogPosition cursor) {
        if (consumer.isDefault()) {
            if (cursor == null && store.consumer(ConsumerName.DEFAULT) != null) {
                store.attach(ConsumerName.DEFAULT, null); // re-attaches it only if it was detached
            }
            return new DefaultStoreConsumer(store);
        }
        return store.attach(consumer.consumer(), cursor);
    }

    /**
     * Drops the subscription; like Canal, no start check (the instance is created if needed). A named consumer is
     * also detached from the store, which then keeps nothing more for it.
     */
    @Override
    public void unsubscribe(ClientIdentity client) {
        Slot slot = slot(client.destination());
        slot.instance().getMetaManager().unsubscribe(client);
        ConsumerName consumer = ConsumerName.parse(client.destination());
        if (!consumer.isDefault() && slot.instance().isStart()) {
            slot.instance().getEventStore().detach(consumer.consumer());
        }
        log.info("unsubscribed {}", client);
    }

    @Override
    public Message getWithoutAck(ClientIdentity client, int batchSize) {
        return getWithoutAck(client, batchSize, null, null);
    }

    @Override
    public Message getWithoutAck(ClientIdentity client, int batchSize, Long timeout, TimeUnit unit) {
        if (isHandingOver(client)) {
            return nothingDuringHandover(client, timeout, unit);
        }
        if (reconnecting.awaited(client)) {
            return Message.empty();
        }
        Slot slot = subscribedInstance(client);
        return withLock(slot, client, () -> isHandingOver(client) ? Message.empty()
                : takeBatch(slot.instance(), client, batchSize, timeout, unit));
    }

    @Override
    public Message get(ClientIdentity client, int batchSize) {
        return get(client, batchSize, null, null);
    }

    @Override
    public Message get(ClientIdentity client, int batchSize, Long timeout, TimeUnit unit) {
        if (isHandingOver(client)) {
            return nothingDuringHandover(client, timeout, unit);
        }
        if (reconnecting.awaited(client)) {
            return Message.empty();
        }
        Slot slot = subscribedInstance(client);
        return withLock(slot, client, () -> {
            if (isHandingOver(client)) {
                return Message.empty();
            }
            MetaManager meta = slot.instance().getMetaManager();
            PositionRange outstanding = meta.getLastestBatch(client);
            if (outstanding != null) {
                throw new CanalServerException(String.format("clientId:%s has last batch:[%s] isn't ack , maybe loss data",
                        client.clientId(), outstanding));
            }
            Message message = takeBatch(slot.instance(), client, batchSize, timeout, unit);
            if (message.id() != Message.EMPTY_BATCH_ID) { // a named consumer's filter may leave a batch without entries
                ack(client, message.id());
            }
            return message;
        });
    }

    /** Moves the cursor to the batch's ack point (if it has one), then frees the batch's events in the store. */
    @Override
    public void ack(ClientIdentity client, long batchId) {
        if (handedOver(client)) {
            return;
        }
        CanalInstance instance = subscribedInstance(client).instance();
        StoreConsumer reader = reader(instance, client);
        PositionRange range = removeBatch(instance, client, batchId, "ack error , ");
        if (range.hasAckPoint()) {
            instance.getMetaManager().updateCursor(client, range.ack());
        }
        try {
            reader.ack(range.end(), range.endSeq());
        } catch (ConsumerDetachedException e) {
            throw new CanalServerException(client.destination() + ": " + e.getMessage(), e);
        } finally {
            handovers.progressed(instance.getDestination());
        }
    }

    /** Silently nothing for a client that is not subscribed, as in Canal. */
    @Override
    public void rollback(ClientIdentity client) {
        if (handedOver(client)) {
            return;
        }
        reconnecting.rolledBack(client);
        Slot slot = startedInstance(client.destination());
        if (!slot.instance().getMetaManager().hasSubscribe(client)) {
            return;
        }
        withLock(slot, client, () -> {
            slot.instance().getMetaManager().clearAllBatchs(client);
            StoreConsumer reader = reader(slot.instance(), client);
            return detachedToServerError(client, () -> {
                reader.rollback();
                return null;
            });
        });
    }

    /** Silently nothing for a client that is not subscribed, as in Canal; other outstanding batches remain. */
    @Override
    public void rollback(ClientIdentity client, long batchId) {
        if (handedOver(client)) {
            return;
        }
        Slot slot = startedInstance(client.destination());
        if (!slot.instance().getMetaManager().hasSubscribe(client)) {
            return;
        }
        withLock(slot, client, () -> {
            removeBatch(slot.instance(), client, batchId, "rollback error, ");
            StoreConsumer reader = reader(slot.instance(), client);
            return detachedToServerError(client, () -> {
                reader.rollback();
                return null;
            });
        });
    }

    /**
     * Stops handing out batches of the destinations (until each starts here again) and waits up to {@code wait}
     * for their clients to ack every batch they hold, and for gets in progress to end; the instances keep running,
     * so the acks still move the cursors.
     *
     * @return the destinations whose clients still held batches when the wait ended
     */
    @Override
    public Set<String> quiesce(Collection<String> destinations, Duration wait) {
        destinations.forEach(handovers::begin);
        long deadline = System.nanoTime() + wait.toNanos();
        Set<String> unsettled = new TreeSet<>();
        try {
            for (String destination : destinations) {
                if (!handovers.awaitSettled(() -> isSettled(destination), deadline)) {
                    unsettled.add(destination);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destinations.stream().filter(d -> !isSettled(d)).forEach(unsettled::add);
        }
        return unsettled;
    }

    @Override
    public void expectReconnect(String subscription, short clientId) {
        reconnecting.expect(subscription, clientId);
    }

    /** No get of the destination in progress and no batch of it outstanding (or it does not run here). */
    private boolean isSettled(String destination) {
        Slot slot = instances.get(destination);
        if (slot == null || !slot.instance().isStart()) {
            return true;
        }
        MetaManager meta = slot.instance().getMetaManager();
        for (var consumer : slot.locks().entrySet()) {
            ReentrantLock lock = consumer.getValue();
            if (!lock.tryLock()) {
                return false; // a get in progress may still hand out a batch
            }
            try {
                for (ClientIdentity client : meta.listAllSubscribeInfo(consumer.getKey())) {
                    if (!meta.listBatchIds(client).isEmpty()) {
                        return false;
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    private boolean isHandingOver(ClientIdentity client) {
        return handovers.isHandingOver(ConsumerName.destinationOf(client.destination()));
    }

    /** Handed over and stopped here: the new server holds the cursors, an ack or rollback here changes nothing. */
    private boolean handedOver(ClientIdentity client) {
        return isHandingOver(client) && !isStart(client.destination());
    }

    private Message nothingDuringHandover(ClientIdentity client, Long timeout, TimeUnit unit) {
        String destination = ConsumerName.destinationOf(client.destination());
        try {
            handovers.awaitNothing(destination, timeout, unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CanalServerException("interrupted while serving " + client, e);
        }
        if (handovers.overdue(destination) && !isStart(destination)) {
            throw notStartedHere(client.destination()); // the official client connects again
        }
        return Message.empty();
    }

    @Override
    public List<Long> listBatchIds(ClientIdentity client) {
        return subscribedInstance(client).instance().getMetaManager().listBatchIds(client);
    }

    @Override
    public PositionRange batchRange(ClientIdentity client, long batchId) {
        PositionRange range = subscribedInstance(client).instance().getMetaManager().getBatch(client, batchId);
        if (range == null) {
            throw new CanalServerException(client + " has no outstanding batch " + batchId);
        }
        return range;
    }

    @Override
    public void seedCursor(ClientIdentity client, LogPosition cursor) {
        CanalInstance instance = slot(client.destination()).instance();
        synchronized (instance) { // as start: the parser must not have chosen its position yet
            if (instance.isStart()) {
                throw new IllegalStateException("destination " + client.destination()
                        + " runs already: its parser has chosen where to start");
            }
            MetaManager meta = instance.getMetaManager();
            if (!meta.isStart()) {
                meta.start();
            }
            LogPosition kept = meta.getCursor(client);
            meta.subscribe(client);
            meta.updateCursor(client, Objects.requireNonNull(cursor, "cursor"));
            log.info("{} starts at cursor {} (the meta manager had {})", client, cursor, kept);
        }
    }

    /**
     * Reads the next batch from the store and records it. The memory store always continues from its own
     * get pointer, so Canal's choice of start (last batch, cursor or first position) needs no argument here.
     */
    private Message takeBatch(CanalInstance instance, ClientIdentity client, int batchSize, Long timeout,
            TimeUnit unit) throws InterruptedException {
        EventStore store = instance.getEventStore();
        StoreConsumer reader = reader(instance, client);
        Events events = detachedToServerError(client, () -> read(reader, batchSize, timeout, unit));
        if (events.isEmpty()) {
            return Message.empty(); // no batch id is consumed for nothing
        }
        long batchId = instance.getMetaManager().addBatch(client, events.range());
        List<Event> delivered = ConsumerName.parse(client.destination()).isDefault() ? events.events()
                : ConsumerFilter.apply(subscribedFilter(instance, client), events.events());
        if (store.isRaw()) {
            return Message.ofRawEntries(batchId, delivered.stream().map(Event::rawBytes).toList());
        }
        return Message.ofEntries(batchId, delivered.stream().map(Event::parsedEntry).toList());
    }

    /** The filter the client subscribed with, as the meta manager keeps it ("" when none). */
    private static String subscribedFilter(CanalInstance instance, ClientIdentity client) {
        for (ClientIdentity subscribed : instance.getMetaManager().listAllSubscribeInfo(client.destination())) {
            if (subscribed.equals(client)) {
                return subscribed.filter();
            }
        }
        return "";
    }

    private static Events read(StoreConsumer store, int batchSize, Long timeout, TimeUnit unit)
            throws InterruptedException {
        if (timeout == null || timeout == NO_WAIT) {
            return store.tryGet(batchSize);
        }
        if (timeout <= 0) {
            return store.get(batchSize);
        }
        return store.get(batchSize, timeout, unit == null ? TimeUnit.MILLISECONDS : unit);
    }

    /** Removes the batch mark, turning the meta manager's errors into Canal's server errors. */
    private static PositionRange removeBatch(CanalInstance instance, ClientIdentity client, long batchId,
            String unknownPrefix) {
        try {
            return instance.getMetaManager().removeBatch(client, batchId);
        } catch (UnknownBatchException e) {
            throw new CanalServerException(unknownPrefix + e.getMessage(), e);
        } catch (MetaManagerException e) {
            throw new CanalServerException(e.getMessage(), e);
        }
    }

    /**
     * The client's consumer in the store. A named consumer that is neither attached nor detached (the instance
     * restarted without knowing it) is attached at its cursor.
     */
    private static StoreConsumer reader(CanalInstance instance, ClientIdentity client) {
        ConsumerName consumer = ConsumerName.parse(client.destination());
        EventStore store = instance.getEventStore();
        if (consumer.isDefault()) {
            return new DefaultStoreConsumer(store);
        }
        StoreConsumer attached = store.consumer(consumer.consumer());
        return attached != null ? attached
                : store.attach(consumer.consumer(), instance.getMetaManager().getCursor(client));
    }

    /** A consumer the store detached is told with Canal's error reply, naming why (docs/consumers.md). */
    private static <T> T detachedToServerError(ClientIdentity client, LockedAction<T> action)
            throws InterruptedException {
        try {
            return action.run();
        } catch (ConsumerDetachedException e) {
            throw new CanalServerException(client.destination() + ": " + e.getMessage(), e);
        }
    }

    private interface LockedAction<T> {
        T run() throws InterruptedException;
    }

    private <T> T withLock(Slot slot, ClientIdentity client, LockedAction<T> action) {
        ReentrantLock lock = slot.lock(client);
        try {
            lock.lockInterruptibly();
            try {
                return action.run();
            } finally {
                lock.unlock();
                handovers.progressed(ConsumerName.destinationOf(client.destination()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CanalServerException("interrupted while serving " + client, e);
        }
    }

    private Slot slot(String destination) {
        if (!running) {
            throw notStartedHere(destination);
        }
        return instances.computeIfAbsent(ConsumerName.destinationOf(destination),
                d -> new Slot(Objects.requireNonNull(generator.generate(d), "generated instance of " + d),
                        new ConcurrentHashMap<>()));
    }

    /** Canal's answer for a destination that does not run here. */
    private static CanalServerException notStartedHere(String destination) {
        return new CanalServerException(String.format("destination:%s should start first", destination));
    }

    private Slot startedInstance(String destination) {
        Slot slot = instances.get(ConsumerName.destinationOf(destination));
        if (slot == null || !slot.instance().isStart()) {
            throw notStartedHere(destination);
        }
        return slot;
    }

    private Slot subscribedInstance(ClientIdentity client) {
        Slot slot = startedInstance(client.destination());
        if (!slot.instance().getMetaManager().hasSubscribe(client)) {
            throw new CanalServerException(String.format("ClientIdentity:%s should subscribe first", client));
        }
        return slot;
    }
}
