package dev.canal.store;

import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ring-buffer store (Canal's MemoryEventStoreWithBuffer), shared by the destination's consumers.
 *
 * <p>Sequences start at -1 and only grow (except a consumer's get on rollback): {@code put} (last written) and,
 * per consumer, {@code get} (last handed out) and {@code ack} (last acked); the event with sequence s lives in slot
 * {@code s & (bufferSize - 1)}. The default consumer is Canal's single pointer pair and is always there; named
 * consumers (docs/consumers.md) are attached and detached at run time. A slot is freed once every attached
 * consumer acked it ({@code freed} = the smallest ack). A put of k events needs
 * {@code put + k - bufferSize <= freed} and, in MEMSIZE mode, {@code putMem - freedMem < bufferSize × memUnit}
 * (or the store's smaller {@link StoreMemoryShare} of the heap);
 * otherwise the producer waits on {@code notFull}, which acks signal once a quarter of the store is free (not at
 * every ack: {@link #hasRefillRoom}). With one consumer this is exactly Canal's rule. Getters wait on
 * {@code notEmpty}, which rollback, detaching, a put starting to wait and a put that completes a waiting get's batch
 * signal. One lock guards everything.
 *
 * <p>A slow consumer: when a put has waited {@link ConsumerConfig#detachAfterMillis()} for room, the slowest
 * consumers are detached, one at a time, until the put fits, but never the last one holding back the put, so a
 * lone consumer (or all consumers being equally slow) is plain back-pressure, as in Canal. A detached consumer's
 * next call fails with {@link ConsumerDetachedException}; its cursor is untouched.
 *
 * <p>Differences from Canal, none visible to clients: freed slots are always nulled (not only in
 * MEMSIZE mode), the last acked and last put events are remembered apart from the ring so positions
 * survive slot reuse, a blocking get also returns when the store is full or a put waits for room (a batch larger
 * than the store would otherwise wait forever), a waiting put is woken only once a quarter of the store is free,
 * and an isolated DDL is counted in the get memory.
 */
public final class MemoryEventStore implements EventStore {

    private static final Logger log = LoggerFactory.getLogger(MemoryEventStore.class);
    private static final long INIT_SEQUENCE = -1L;
    /** A waiting put is woken once 1/{@value} of the store is free ({@link #hasRefillRoom}). */
    private static final int REFILL_SHARE = 4;

    private final StoreConfig config;
    private final ConsumerConfig consumerConfig;
    private final int indexMask;
    private final boolean itemMode;
    private final StoreMemoryShare share;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    private final Condition notEmpty = lock.newCondition();

    // every field below is guarded by lock
    private boolean running;
    private Event[] slots;
    private long putSequence;
    private long putMemSize;
    private long putRows;
    private long putExecuteTime;
    private long freedSequence;
    private long freedMemSize;
    /**
     * Where the last freed entry sits. Only its position is kept, not the entry: an acked entry can be many MiB
     * (docs/reliability.md, scenario 9), and holding it until the next ack would keep it in memory beside the next.
     */
    private EntryPosition lastFreed;
    private long putBlockingNanos;
    /** Puts waiting for space now, and the sum of their wait starts: the metric counts a wait while it lasts. */
    private int waitingPuts;
    private long waitingSinceSum;
    /** When puts started failing for lack of room (System.nanoTime), 0 while they fit. */
    private long fullSince;
    private Event lastPut;
    private Cursor defaultCursor;
    private final Map<String, Cursor> named = new LinkedHashMap<>();

    public MemoryEventStore(StoreConfig config) {
        this(config, ConsumerConfig.defaults());
    }

    public MemoryEventStore(StoreConfig config, ConsumerConfig consumerConfig) {
        this(config, consumerConfig, StoreMemoryShare.process());
    }

    /** @param share the heap this store shares with the process's other stores (MEMSIZE mode) */
    MemoryEventStore(StoreConfig config, StoreMemoryShare share) {
        this(config, ConsumerConfig.defaults(), share);
    }

    private MemoryEventStore(StoreConfig config, ConsumerConfig consumerConfig, StoreMemoryShare share) {
        this.config = Objects.requireNonNull(config, "config");
        this.consumerConfig = Objects.requireNonNull(consumerConfig, "consumerConfig");
        this.share = Objects.requireNonNull(share, "share");
        this.indexMask = config.bufferSize() - 1;
        this.itemMode = config.batchMode() == BatchMode.ITEMSIZE;
    }

    @Override
    public StoreConfig config() {
        return config;
    }

    public ConsumerConfig consumerConfig() {
        return consumerConfig;
    }

    @Override
    public void start() {
        lock.lock();
        try {
            if (running) {
                throw new IllegalStateException("event store is already started");
            }
            slots = new Event[config.bufferSize()];
            putSequence = freedSequence = INIT_SEQUENCE;
            putMemSize = freedMemSize = 0;
            putRows = 0;
            putExecuteTime = 0;
            putBlockingNanos = 0;
            waitingPuts = 0;
            waitingSinceSum = 0;
            fullSince = 0;
            lastPut = null;
            lastFreed = null;
            defaultCursor = new Cursor("");
            named.clear();
            running = true;
            if (!itemMode) {
                share.join();
            }
        } finally {
            lock.unlock();
        }
        log.info("event store started: {}", config);
    }

    @Override
    public void stop() {
        lock.lock();
        try {
            if (running && !itemMode) {
                share.leave();
            }
            running = false;
            slots = null;
            named.clear();
            notFull.signalAll();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
        log.info("event store stopped");
    }

    @Override
    public boolean isStarted() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isRaw() {
        return config.raw();
    }

    @Override
    public void put(List<Event> events) throws InterruptedException {
        checkPutSize(events);
        lock.lockInterruptibly();
        try {
            ensureRunning();
            if (!makeRoomFor(events.size())) {
                long waitStart = startWaiting();
                try {
                    do {
                        awaitRoom(Long.MAX_VALUE);
                        ensureRunning();
                    } while (!makeRoomFor(events.size()));
                } finally {
                    stopWaiting(waitStart);
                }
            }
            doPut(events);
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: waits for an ack, at most until the next detach deadline or {@code nanos}; returns what is left. */
    private long awaitRoom(long nanos) throws InterruptedException {
        // with one consumer nothing is ever detached: wait for an ack (or an attach, which signals too)
        if (!consumerConfig.detaches() || fullSince == 0 || attachedCursors().size() <= 1) {
            return nanos == Long.MAX_VALUE ? awaitForever() : notFull.awaitNanos(nanos);
        }
        long untilDetach = fullSince + TimeUnit.MILLISECONDS.toNanos(consumerConfig.detachAfterMillis())
                - System.nanoTime();
        long wait = Math.max(1, Math.min(nanos, untilDetach));
        long left = notFull.awaitNanos(wait);
        return nanos == Long.MAX_VALUE ? Long.MAX_VALUE : nanos - (wait - left);
    }

    private long awaitForever() throws InterruptedException {
        notFull.await();
        return Long.MAX_VALUE;
    }

    /** Under the lock: a put starts waiting for space; returns when. */
    private long startWaiting() {
        long now = System.nanoTime();
        waitingPuts++;
        notEmpty.signalAll(); // a get waiting for a larger batch takes what there is (hasEnoughFor)
        waitingSinceSum += now;
        return now;
    }

    /** Under the lock: the put that started waiting at {@code waitStart} stops. */
    private void stopWaiting(long waitStart) {
        waitingPuts--;
        waitingSinceSum -= waitStart;
        putBlockingNanos += System.nanoTime() - waitStart;
    }

    @Override
    public boolean put(List<Event> events, long timeout, TimeUnit unit) throws InterruptedException {
        checkPutSize(events);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            ensureRunning();
            if (!makeRoomFor(events.size())) {
                long waitStart = startWaiting();
                try {
                    do {
                        if (nanos <= 0) {
                            return false;
                        }
                        nanos = awaitRoom(nanos);
                        ensureRunning();
                    } while (!makeRoomFor(events.size()));
                } finally {
                    stopWaiting(waitStart);
                }
            }
            doPut(events);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean tryPut(List<Event> events) {
        checkPutSize(events);
        lock.lock();
        try {
            ensureRunning();
            if (!makeRoomFor(events.size())) {
                return false;
            }
            doPut(events);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Events get(int batchSize) throws InterruptedException {
        return get(defaultCursor(), batchSize);
    }

    @Override
    public Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
        return get(defaultCursor(), batchSize, timeout, unit);
    }

    @Override
    public Events tryGet(int batchSize) {
        return tryGet(defaultCursor(), batchSize);
    }

    @Override
    public LogPosition getFirstPosition() {
        return firstPosition(defaultCursor());
    }

    @Override
    public LogPosition getLatestPosition() {
        lock.lock();
        try {
            ensureRunning();
            if (lastPut == null) {
                return null;
            }
            return lastPut.toLogPosition(putSequence > defaultCursor.ackSequence);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The acked sequence may lie beyond get (a batch handed out before a rollback of an earlier
     * one); get then moves up to it so acked events are never
     * handed out again.
     */
    @Override
    public void ack(LogPosition position, long endSeq) {
        ack(defaultCursor(), position, endSeq);
    }

    @Override
    public void rollback() {
        rollback(defaultCursor());
    }

    @Override
    public StoreCounters counters() {
        lock.lock();
        try {
            Cursor c = defaultCursor;
            return new StoreCounters(putSequence, c.getSequence, c.ackSequence, putMemSize, c.getMemSize,
                    c.ackMemSize, putRows, c.getRows, c.ackRows, putExecuteTime, c.getExecuteTime,
                    c.ackExecuteTime, putBlockingNanos + waitingPuts * System.nanoTime() - waitingSinceSum);
        } finally {
            lock.unlock();
        }
    }

    // ---- named consumers

    @Override
    public StoreConsumer attach(String consumer, LogPosition cursor) {
        Objects.requireNonNull(consumer, "consumer");
        lock.lock();
        try {
            ensureRunning();
            Cursor existing = consumer.isEmpty() ? defaultCursor : named.get(consumer);
            if (existing != null) {
                if (existing.detached != null && cursor == null) {
                    // it never acked anything: starting at the oldest entry held skips nothing it had
                    existing.startAfter(freedSequence, freedMemSize, null);
                    existing.detached = null;
                    log.info("consumer {} without a cursor attached again at the oldest entry held", existing);
                }
                return existing;
            }
            Cursor created = new Cursor(consumer);
            created.startAfter(freedSequence, freedMemSize, cursor);
            if (cursor != null && lastFreed != null && isAfter(lastFreed.journalName(), lastFreed.position(),
                    lastFreed.timestamp(), cursor.position())) {
                created.detached = "its cursor " + cursor.position() + " lies before the oldest entry the store holds ("
                        + "entries up to " + lastFreed.journalName() + ":" + lastFreed.position()
                        + " are freed)";
                log.warn("consumer {} attached detached: {}", consumer, created.detached);
            }
            named.put(consumer, created);
            notFull.signalAll(); // a waiting put may now detach a laggard once its time is up
            log.info("consumer {} attached at {}", consumer, cursor == null ? "the oldest entry held" : cursor);
            return created;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The default consumer ("") cannot be forgotten: it is marked detached, so the store keeps nothing for it
     * until it is attached again (used while only named consumers are subscribed).
     */
    @Override
    public void detach(String consumer) {
        lock.lock();
        try {
            if (consumer.isEmpty()) {
                if (running && defaultCursor.detached == null) {
                    defaultCursor.detached = "the store keeps nothing for the default consumer while it is not"
                            + " subscribed and named consumers are; subscribe again";
                    advanceFreed();
                    notEmpty.signalAll();
                }
                return;
            }
            Cursor removed = named.remove(consumer);
            if (removed != null && running) {
                removed.detached = "it was detached from the store";
                advanceFreed();
                notEmpty.signalAll();
                log.info("consumer {} detached", consumer);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public StoreConsumer consumer(String consumer) {
        lock.lock();
        try {
            return consumer.isEmpty() ? defaultCursor : named.get(consumer);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<ConsumerCounters> consumerCounters() {
        lock.lock();
        try {
            if (!running) {
                return List.of();
            }
            List<ConsumerCounters> all = new ArrayList<>(named.size() + 1);
            all.add(defaultCursor.counters());
            named.values().forEach(c -> all.add(c.counters()));
            return all;
        } finally {
            lock.unlock();
        }
    }

    // ---- one consumer's operations

    private Cursor defaultCursor() {
        lock.lock();
        try {
            ensureRunning();
            return defaultCursor;
        } finally {
            lock.unlock();
        }
    }

    private Events get(Cursor cursor, int batchSize) throws InterruptedException {
        checkBatchSize(batchSize);
        lock.lockInterruptibly();
        try {
            ensureServing(cursor);
            if (!hasEnoughFor(cursor, batchSize)) {
                cursor.startWaiting(batchSize);
                try {
                    do {
                        notEmpty.await();
                        ensureServing(cursor);
                    } while (!hasEnoughFor(cursor, batchSize));
                } finally {
                    cursor.stopWaiting();
                }
            }
            return doGet(cursor, batchSize);
        } finally {
            lock.unlock();
        }
    }

    private Events get(Cursor cursor, int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
        checkBatchSize(batchSize);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            ensureServing(cursor);
            if (!hasEnoughFor(cursor, batchSize) && nanos > 0) {
                cursor.startWaiting(batchSize);
                try {
                    do {
                        nanos = notEmpty.awaitNanos(nanos);
                        ensureServing(cursor);
                    } while (!hasEnoughFor(cursor, batchSize) && nanos > 0);
                } finally {
                    cursor.stopWaiting();
                }
            }
            return doGet(cursor, batchSize);
        } finally {
            lock.unlock();
        }
    }

    private Events tryGet(Cursor cursor, int batchSize) {
        checkBatchSize(batchSize);
        lock.lock();
        try {
            ensureServing(cursor);
            return doGet(cursor, batchSize);
        } finally {
            lock.unlock();
        }
    }

    private LogPosition firstPosition(Cursor cursor) {
        lock.lock();
        try {
            ensureServing(cursor);
            if (cursor.lastAcked != null) {
                return cursor.lastAcked;
            }
            return putSequence > cursor.ackSequence ? slot(cursor.ackSequence + 1).toLogPosition(false) : null;
        } finally {
            lock.unlock();
        }
    }

    private void ack(Cursor cursor, LogPosition position, long endSeq) {
        Objects.requireNonNull(position, "position");
        lock.lock();
        try {
            ensureServing(cursor);
            long target = endSeq >= 0 ? checkAckTarget(cursor, position, endSeq) : findAckTarget(cursor, position);
            cursor.ackUntil(target);
            advanceFreed();
        } finally {
            lock.unlock();
        }
    }

    private void rollback(Cursor cursor) {
        lock.lock();
        try {
            ensureServing(cursor);
            cursor.getSequence = cursor.ackSequence;
            cursor.getMemSize = cursor.ackMemSize;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- under the lock

    private void checkPutSize(List<Event> events) {
        if (events.size() > config.bufferSize()) {
            throw new IllegalArgumentException("a put of " + events.size()
                    + " events can never fit a store of bufferSize " + config.bufferSize());
        }
    }

    private static void checkBatchSize(int batchSize) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
        }
    }

    private void ensureRunning() {
        if (!running) {
            throw new IllegalStateException("event store is not started");
        }
    }

    private void ensureServing(Cursor cursor) {
        ensureRunning();
        if (cursor.detached != null) {
            throw new ConsumerDetachedException("consumer " + cursor + " was detached: " + cursor.detached + "; its acked cursor is kept and it resumes from there "
                    + "when the destination restarts (docs/consumers.md)");
        }
    }

    private Event slot(long sequence) {
        return slots[(int) sequence & indexMask];
    }

    /** Whether {@code count} events fit; past the detach timeout, detaches the slowest consumers until they do. */
    private boolean makeRoomFor(int count) {
        if (hasRoomFor(count)) {
            fullSince = 0;
            return true;
        }
        long now = System.nanoTime();
        if (fullSince == 0) {
            fullSince = now;
            return false;
        }
        if (!consumerConfig.detaches()
                || now - fullSince < TimeUnit.MILLISECONDS.toNanos(consumerConfig.detachAfterMillis())) {
            return false;
        }
        while (!hasRoomFor(count)) {
            List<Cursor> attached = attachedCursors();
            Cursor slowest = null;
            boolean othersAhead = false;
            for (Cursor c : attached) {
                if (slowest == null || c.ackSequence < slowest.ackSequence) {
                    slowest = c;
                }
            }
            for (Cursor c : attached) {
                othersAhead |= c.ackSequence > slowest.ackSequence;
            }
            if (!othersAhead) {
                fullSince = now; // every consumer is as far behind: back-pressure, as Canal; look again later
                return false;
            }
            slowest.detached = "it fell " + (putSequence - slowest.ackSequence) + " entries behind, more than the"
                    + " store holds, and held back the destination's other consumers for "
                    + consumerConfig.detachAfterMillis() + " ms";
            log.warn("consumer {} detached: {}", slowest, slowest.detached);
            advanceFreed();
            notEmpty.signalAll();
        }
        fullSince = 0;
        return true;
    }

    private boolean hasRoomFor(int count) {
        if (count == 0) {
            return true;
        }
        if (putSequence + count - config.bufferSize() > freedSequence) {
            return false;
        }
        return itemMode || putMemSize - freedMemSize < memoryLimit();
    }

    private boolean isFull() {
        return putSequence - freedSequence >= config.bufferSize()
                || (!itemMode && putMemSize - freedMemSize >= memoryLimit());
    }

    /** The MEMSIZE bound now: the configured one, or this store's share of the heap if smaller. */
    long memoryLimit() {
        return share.limit(config.memoryLimit());
    }

    private boolean hasEnoughFor(Cursor cursor, int batchSize) {
        if (putSequence == cursor.getSequence) {
            return false;
        }
        boolean enough = itemMode
                ? putSequence - cursor.getSequence >= batchSize
                : putMemSize - cursor.getMemSize >= (long) batchSize * config.bufferMemUnit();
        return enough || isFull() || waitingPuts > 0;
    }

    private void doPut(List<Event> events) {
        if (events.isEmpty()) {
            return;
        }
        long next = putSequence;
        long mem = 0;
        long rows = 0;
        for (Event event : events) {
            next++;
            slots[(int) next & indexMask] = event;
            mem += event.rawLength();
            rows += event.rowsCount();
        }
        lastPut = events.get(events.size() - 1);
        putSequence = next;
        putMemSize += mem;
        putRows += rows;
        putExecuteTime = lastPut.executeTime();
        if (aWaitingGetHasEnough()) {
            notEmpty.signalAll();
        }
    }

    /**
     * Whether a get waiting for its batch can now return. A put wakes the getters only then: a client waiting for
     * a batch of a thousand entries is not woken for each of the hundreds of puts that fill it.
     */
    private boolean aWaitingGetHasEnough() {
        if (defaultCursor.hasEnoughForWaitingGet()) {
            return true;
        }
        for (Cursor c : named.values()) {
            if (c.hasEnoughForWaitingGet()) {
                return true;
            }
        }
        return false;
    }

    /** Collects the next batch as Canal does (get ITEMSIZE / MEMSIZE, ddl isolation). */
    private Events doGet(Cursor cursor, int batchSize) {
        cursor.skipAcked();
        if (cursor.getSequence >= putSequence) {
            return Events.empty();
        }
        long getSequence = cursor.getSequence;
        long lastAllowed = itemMode ? Math.min(getSequence + batchSize, putSequence) : putSequence;
        long memLimit = (long) batchSize * config.bufferMemUnit();
        List<Event> batch = new ArrayList<>((int) Math.min(lastAllowed - getSequence, config.bufferSize()));
        long mem = 0;
        long rows = 0;
        for (long next = getSequence + 1; next <= lastAllowed && (itemMode || mem <= memLimit); next++) {
            Event event = slot(next);
            boolean isolate = config.ddlIsolation() && event.isDdl();
            if (isolate && !batch.isEmpty()) {
                break;
            }
            batch.add(event);
            mem += event.rawLength();
            rows += event.rowsCount();
            if (isolate) {
                break;
            }
        }
        long endSeq = getSequence + batch.size();
        Event last = batch.get(batch.size() - 1);
        PositionRange range = new PositionRange(batch.get(0).toLogPosition(false), last.toLogPosition(false),
                ackPointOf(batch), endSeq);
        cursor.getSequence = endSeq;
        cursor.getMemSize += mem;
        cursor.getRows += rows;
        cursor.getExecuteTime = last.executeTime();
        return new Events(batch, range);
    }

    /** The last transaction boundary or DDL of the batch, where the cursor may move on ack, as in Canal. */
    private static LogPosition ackPointOf(List<Event> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            if (batch.get(i).isAckPoint()) {
                return batch.get(i).toLogPosition(false);
            }
        }
        return null;
    }

    private long checkAckTarget(Cursor cursor, LogPosition position, long endSeq) {
        if (endSeq <= cursor.ackSequence || endSeq > putSequence) {
            throw new IllegalStateException("no match ack position " + position + ": sequence " + endSeq
                    + " is not an unacked one (ack " + cursor.ackSequence + ", get " + cursor.getSequence + ", put "
                    + putSequence + ")");
        }
        Event event = slot(endSeq);
        if (!event.matches(position)) {
            throw new IllegalStateException("no match ack position " + position + ": sequence " + endSeq
                    + " holds " + event);
        }
        return endSeq;
    }

    private long findAckTarget(Cursor cursor, LogPosition position) {
        for (long next = cursor.ackSequence + 1; next <= cursor.getSequence; next++) {
            if (slot(next).matches(position)) {
                return next;
            }
        }
        throw new IllegalStateException("no match ack position " + position + " among handed-out sequences "
                + (cursor.ackSequence + 1) + ".." + cursor.getSequence);
    }

    private List<Cursor> attachedCursors() {
        List<Cursor> attached = new ArrayList<>(named.size() + 1);
        if (defaultCursor.detached == null) {
            attached.add(defaultCursor);
        }
        for (Cursor c : named.values()) {
            if (c.detached == null) {
                attached.add(c);
            }
        }
        return attached;
    }

    /** Frees every slot each attached consumer acked; with none attached, nothing is kept for anyone. */
    private void advanceFreed() {
        long target = putSequence;
        for (Cursor c : attachedCursors()) {
            target = Math.min(target, c.ackSequence);
        }
        if (target <= freedSequence) {
            return;
        }
        long mem = 0;
        Event last = null;
        for (long next = freedSequence + 1; next <= target; next++) {
            int index = (int) next & indexMask;
            last = slots[index];
            mem += last.rawLength();
            slots[index] = null;
        }
        lastFreed = EntryPosition.of(last.journalName(), last.logfileOffset(), last.serverId(), last.executeTime());
        freedSequence = target;
        freedMemSize += mem;
        if (waitingPuts > 0 && hasRefillRoom()) {
            notFull.signalAll();
        }
    }

    /**
     * Whether a waiting put is worth waking: a {@link #REFILL_SHARE} of the store is free, in slots and (MEMSIZE)
     * in memory. A consumer that acks small batches would otherwise wake the producer, and behind it the parser's
     * threads, for every ack, each time to put what the one ack freed; this way the pipeline runs in long bursts
     * and sleeps in between, and the consumer still finds three quarters of the store waiting.
     */
    private boolean hasRefillRoom() {
        long slots = config.bufferSize();
        if (slots - (putSequence - freedSequence) < Math.max(1, slots / REFILL_SHARE)) {
            return false;
        }
        long memory = memoryLimit();
        return itemMode || memory - (putMemSize - freedMemSize) >= memory / REFILL_SHARE;
    }

    /** Whether the event lies after the position: by journal and offset, else by time. */
    private static boolean isAfter(Event event, EntryPosition position) {
        return isAfter(event.journalName(), event.logfileOffset(), event.executeTime(), position);
    }

    /** Whether an entry at this journal, offset and execute time lies after the position. */
    private static boolean isAfter(String journalName, long offset, long executeTime, EntryPosition position) {
        if (position == null) {
            return true;
        }
        if (position.journalName() != null && position.position() != null) {
            int files = journalName.compareTo(position.journalName());
            return files != 0 ? files > 0 : offset > position.position();
        }
        return position.timestamp() == null || executeTime > position.timestamp();
    }

    /** One consumer's pointers; every field is guarded by the store's lock. */
    private final class Cursor implements StoreConsumer {

        private final String name;
        private long getSequence = INIT_SEQUENCE;
        private long ackSequence = INIT_SEQUENCE;
        private long getMemSize;
        private long ackMemSize;
        private long getRows;
        private long ackRows;
        private long getExecuteTime;
        private long ackExecuteTime;
        /** Where the last acked entry sits (its position only, as {@link #lastFreed}). */
        private LogPosition lastAcked;
        /** Entries up to this position were acked before the consumer attached: skipped, not handed out. */
        private EntryPosition skipThrough;
        /** Why the consumer was detached; null while it is served. */
        private String detached;
        /** Gets of this consumer waiting for their batch, and the smallest batch they wait for. */
        private int waitingGets;
        private int smallestWaitedBatch = Integer.MAX_VALUE;

        void startWaiting(int batchSize) {
            waitingGets++;
            smallestWaitedBatch = Math.min(smallestWaitedBatch, batchSize);
        }

        void stopWaiting() {
            if (--waitingGets == 0) {
                smallestWaitedBatch = Integer.MAX_VALUE;
            }
        }

        boolean hasEnoughForWaitingGet() {
            return waitingGets > 0 && hasEnoughFor(this, smallestWaitedBatch);
        }

        Cursor(String name) {
            this.name = name;
        }

        void startAfter(long sequence, long memSize, LogPosition cursor) {
            getSequence = ackSequence = sequence;
            getMemSize = ackMemSize = memSize;
            skipThrough = cursor == null ? null : cursor.position();
        }

        /** Acks, without handing them out, the entries at the head that the consumer acked before it attached. */
        void skipAcked() {
            if (skipThrough == null) {
                return;
            }
            long target = ackSequence;
            while (target < putSequence && !isAfter(slot(target + 1), skipThrough)) {
                target++;
            }
            if (target < putSequence) {
                skipThrough = null; // an entry after the cursor is here: later ones are all after it
            }
            if (target > ackSequence) {
                ackUntil(target);
                advanceFreed();
            }
        }

        void ackUntil(long target) {
            long mem = 0;
            long rows = 0;
            long latestTime = ackExecuteTime;
            Event last = null;
            for (long next = ackSequence + 1; next <= target; next++) {
                last = slot(next);
                mem += last.rawLength();
                rows += last.rowsCount();
                latestTime = Math.max(latestTime, last.executeTime());
            }
            lastAcked = last == null ? null : last.toLogPosition(false);
            ackSequence = target;
            ackMemSize += mem;
            ackRows += rows;
            ackExecuteTime = latestTime;
            if (getSequence < ackSequence) {
                getSequence = ackSequence;
                getMemSize = ackMemSize;
            }
        }

        ConsumerCounters counters() {
            return new ConsumerCounters(name, getSequence, ackSequence, putSequence, ackExecuteTime, putExecuteTime,
                    detached != null);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String toString() {
            return name.isEmpty() ? "(default)" : name;
        }

        @Override
        public Events get(int batchSize) throws InterruptedException {
            return MemoryEventStore.this.get(this, batchSize);
        }

        @Override
        public Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
            return MemoryEventStore.this.get(this, batchSize, timeout, unit);
        }

        @Override
        public Events tryGet(int batchSize) {
            return MemoryEventStore.this.tryGet(this, batchSize);
        }

        @Override
        public void ack(LogPosition position, long endSeq) {
            MemoryEventStore.this.ack(this, position, endSeq);
        }

        @Override
        public void rollback() {
            MemoryEventStore.this.rollback(this);
        }

        @Override
        public LogPosition getFirstPosition() {
            return firstPosition(this);
        }
    }
}
