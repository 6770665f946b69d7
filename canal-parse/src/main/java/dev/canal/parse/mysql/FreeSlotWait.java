package dev.canal.parse.mysql;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The pipeline reader's wait for a free ring slot: it blocks until the last stage hands a slot on. Disruptor's own
 * wait (claiming a slot of a full ring) parks one nanosecond at a time, a busy loop that, while a slow client holds
 * the store full and the last stage waits for its acks, costs the reader thread tens of thousands of wakeups a
 * second. The last stage signals only while the reader announces that it waits, so a busy pipeline takes no lock
 * per event; the reader also looks again every {@link #MAX_BLOCK_NANOS} on its own, so a missed signal delays it
 * by at most that.
 *
 * <p>The reader resumes at the first free slot. Resuming only once a quarter of the ring is free, so that it reads
 * a batch of events in one go, cost 10-20% more CPU per row in the catch-up benchmark: the stages then run in bursts
 * after idle spells, which costs more than handing over event by event (docs/performance.md, "A throttled client").
 */
final class FreeSlotWait {

    static final long MAX_BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Run while waiting: throws what makes the wait pointless (a failed stage). */
    interface Check {
        void run() throws InterruptedException;
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private volatile boolean waiting;

    /** Reader thread: returns once {@code hasFreeSlot} holds; runs {@code check} before each wait. */
    void await(BooleanSupplier hasFreeSlot, Check check) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            waiting = true;
            while (!hasFreeSlot.getAsBoolean()) {
                check.run();
                freed.awaitNanos(MAX_BLOCK_NANOS);
            }
        } finally {
            waiting = false;
            lock.unlock();
        }
    }

    /** Last stage: a slot was handed on (and the ring told); wakes the reader if it waits. */
    void slotFreed() {
        if (waiting) {
            lock.lock();
            try {
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
