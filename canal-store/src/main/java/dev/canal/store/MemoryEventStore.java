package dev.canal.store;

import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ring-buffer store (Canal's MemoryEventStoreWithBuffer).
 *
 * <p>Three sequences start at -1 and only grow (except get on rollback): {@code put} (last written),
 * {@code get} (last handed out) and {@code ack} (last freed); the event with sequence s lives in slot
 * {@code s & (bufferSize - 1)}. A put of k events needs {@code put + k - bufferSize <= min(get, ack)}
 * and, in MEMSIZE mode, {@code putMem - ackMem < bufferSize × memUnit} (or the store's smaller
 * {@link StoreMemoryShare} of the heap); otherwise the producer waits on {@code notFull}, which ack signals.
 * Getters wait on {@code notEmpty}, which put and rollback signal. One lock guards everything, so no state is
 * shared without it.
 *
 * <p>Differences from Canal, none visible to clients: freed slots are always nulled (not only in
 * MEMSIZE mode), the last acked and last put events are remembered apart from the ring so positions
 * survive slot reuse, a blocking get also returns when the store is full (a batch larger than the
 * store would otherwise wait forever), and an isolated DDL is counted in the get memory.
 */
public final class MemoryEventStore implements EventStore {

    private static final Logger log = LoggerFactory.getLogger(MemoryEventStore.class);
    private static final long INIT_SEQUENCE = -1L;

    private final StoreConfig config;
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
    private long getSequence;
    private long ackSequence;
    private long putMemSize;
    private long getMemSize;
    private long ackMemSize;
    private long putRows;
    private long getRows;
    private long ackRows;
    private long putExecuteTime;
    private long getExecuteTime;
    private long ackExecuteTime;
    private long putBlockingNanos;
    /** Puts waiting for space now, and the sum of their wait starts: the metric counts a wait while it lasts. */
    private int waitingPuts;
    private long waitingSinceSum;
    private Event lastPut;
    private Event lastAcked;

    public MemoryEventStore(StoreConfig config) {
        this(config, StoreMemoryShare.process());
    }

    /** @param share the heap this store shares with the process's other stores (MEMSIZE mode) */
    MemoryEventStore(StoreConfig config, StoreMemoryShare share) {
        this.config = Objects.requireNonNull(config, "config");
        this.share = Objects.requireNonNull(share, "share");
        this.indexMask = config.bufferSize() - 1;
        this.itemMode = config.batchMode() == BatchMode.ITEMSIZE;
    }

    @Override
    public StoreConfig config() {
        return config;
    }

    @Override
    public void start() {
        lock.lock();
        try {
            if (running) {
                throw new IllegalStateException("event store is already started");
            }
            slots = new Event[config.bufferSize()];
            putSequence = getSequence = ackSequence = INIT_SEQUENCE;
            putMemSize = getMemSize = ackMemSize = 0;
            putRows = getRows = ackRows = 0;
            putExecuteTime = getExecuteTime = ackExecuteTime = 0;
            putBlockingNanos = 0;
            waitingPuts = 0;
            waitingSinceSum = 0;
            lastPut = lastAcked = null;
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
            if (!hasRoomFor(events.size())) {
                long waitStart = startWaiting();
                try {
                    do {
                        notFull.await();
                        ensureRunning();
                    } while (!hasRoomFor(events.size()));
                } finally {
                    stopWaiting(waitStart);
                }
            }
            doPut(events);
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: a put starts waiting for space; returns when. */
    private long startWaiting() {
        long now = System.nanoTime();
        waitingPuts++;
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
            if (!hasRoomFor(events.size())) {
                long waitStart = startWaiting();
                try {
                    do {
                        if (nanos <= 0) {
                            return false;
                        }
                        nanos = notFull.awaitNanos(nanos);
                        ensureRunning();
                    } while (!hasRoomFor(events.size()));
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
            if (!hasRoomFor(events.size())) {
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
        checkBatchSize(batchSize);
        lock.lockInterruptibly();
        try {
            ensureRunning();
            while (!hasEnoughFor(batchSize)) {
                notEmpty.await();
                ensureRunning();
            }
            return doGet(batchSize);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
        checkBatchSize(batchSize);
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            ensureRunning();
            while (!hasEnoughFor(batchSize) && nanos > 0) {
                nanos = notEmpty.awaitNanos(nanos);
                ensureRunning();
            }
            return doGet(batchSize);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Events tryGet(int batchSize) {
        checkBatchSize(batchSize);
        lock.lock();
        try {
            ensureRunning();
            return doGet(batchSize);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public LogPosition getFirstPosition() {
        lock.lock();
        try {
            ensureRunning();
            if (lastAcked != null) {
                return lastAcked.toLogPosition(false);
            }
            return putSequence > ackSequence ? slot(ackSequence + 1).toLogPosition(false) : null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public LogPosition getLatestPosition() {
        lock.lock();
        try {
            ensureRunning();
            if (lastPut == null) {
                return null;
            }
            return lastPut.toLogPosition(putSequence > ackSequence);
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
        Objects.requireNonNull(position, "position");
        lock.lock();
        try {
            ensureRunning();
            long target = endSeq >= 0 ? checkAckTarget(position, endSeq) : findAckTarget(position);
            freeUntil(target);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void rollback() {
        lock.lock();
        try {
            ensureRunning();
            getSequence = ackSequence;
            getMemSize = ackMemSize;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public StoreCounters counters() {
        lock.lock();
        try {
            return new StoreCounters(putSequence, getSequence, ackSequence, putMemSize, getMemSize, ackMemSize,
                    putRows, getRows, ackRows, putExecuteTime, getExecuteTime, ackExecuteTime,
                    putBlockingNanos + waitingPuts * System.nanoTime() - waitingSinceSum);
        } finally {
            lock.unlock();
        }
    }

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

    private Event slot(long sequence) {
        return slots[(int) sequence & indexMask];
    }

    private boolean hasRoomFor(int count) {
        if (count == 0) {
            return true;
        }
        if (putSequence + count - config.bufferSize() > Math.min(getSequence, ackSequence)) {
            return false;
        }
        return itemMode || putMemSize - ackMemSize < memoryLimit();
    }

    private boolean isFull() {
        return putSequence - ackSequence >= config.bufferSize()
                || (!itemMode && putMemSize - ackMemSize >= memoryLimit());
    }

    /** The MEMSIZE bound now: the configured one, or this store's share of the heap if smaller. */
    long memoryLimit() {
        return share.limit(config.memoryLimit());
    }

    private boolean hasEnoughFor(int batchSize) {
        if (putSequence == getSequence) {
            return false;
        }
        boolean enough = itemMode
                ? putSequence - getSequence >= batchSize
                : putMemSize - getMemSize >= (long) batchSize * config.bufferMemUnit();
        return enough || isFull();
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
        notEmpty.signalAll();
    }

    /** Collects the next batch as Canal does (get ITEMSIZE / MEMSIZE, ddl isolation). */
    private Events doGet(int batchSize) {
        if (getSequence >= putSequence) {
            return Events.empty();
        }
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
        getSequence = endSeq;
        getMemSize += mem;
        getRows += rows;
        getExecuteTime = last.executeTime();
        return new Events(batch, range);
    }

    /** The last transaction boundary or DDL of the batch, where the cursor may move on ack (4.2). */
    private static LogPosition ackPointOf(List<Event> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            if (batch.get(i).isAckPoint()) {
                return batch.get(i).toLogPosition(false);
            }
        }
        return null;
    }

    private long checkAckTarget(LogPosition position, long endSeq) {
        if (endSeq <= ackSequence || endSeq > putSequence) {
            throw new IllegalStateException("no match ack position " + position + ": sequence " + endSeq
                    + " is not an unacked one (ack " + ackSequence + ", get " + getSequence + ", put "
                    + putSequence + ")");
        }
        Event event = slot(endSeq);
        if (!event.matches(position)) {
            throw new IllegalStateException("no match ack position " + position + ": sequence " + endSeq
                    + " holds " + event);
        }
        return endSeq;
    }

    private long findAckTarget(LogPosition position) {
        for (long next = ackSequence + 1; next <= getSequence; next++) {
            if (slot(next).matches(position)) {
                return next;
            }
        }
        throw new IllegalStateException("no match ack position " + position + " among handed-out sequences "
                + (ackSequence + 1) + ".." + getSequence);
    }

    private void freeUntil(long target) {
        long mem = 0;
        long rows = 0;
        long latestTime = ackExecuteTime;
        Event last = null;
        for (long next = ackSequence + 1; next <= target; next++) {
            int index = (int) next & indexMask;
            last = slots[index];
            mem += last.rawLength();
            rows += last.rowsCount();
            latestTime = Math.max(latestTime, last.executeTime());
            slots[index] = null;
        }
        lastAcked = last;
        ackSequence = target;
        ackMemSize += mem;
        ackRows += rows;
        ackExecuteTime = latestTime;
        if (getSequence < ackSequence) {
            getSequence = ackSequence;
            getMemSize = ackMemSize;
        }
        notFull.signalAll();
    }
}
