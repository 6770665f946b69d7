package dev.canal.sink;

import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Orders several sources by event time (Canal's TimelineBarrier): each source announces the time of
 * the batch it wants to store and waits; once every source has announced one, the earliest time is
 * released, and every batch at or before it may go. A source clears its announcement once its batch
 * is stored. An idle source therefore holds the others back until it sends something (a heartbeat
 * will do), which is how Canal's group mode behaves.
 */
final class TimelineBarrier {

    private final int groupSize;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();

    // guarded by lock
    private final PriorityQueue<Long> announced = new PriorityQueue<>();
    private long threshold = Long.MIN_VALUE;
    private boolean closed;

    TimelineBarrier(int groupSize) {
        if (groupSize < 1) {
            throw new IllegalArgumentException("a group needs at least one source, got " + groupSize);
        }
        this.groupSize = groupSize;
    }

    /** Waits until {@code time} is released; false when the barrier was closed meanwhile. */
    boolean await(long time) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (closed) {
                return false;
            }
            announced.add(time);
            updateThreshold();
            while (time > threshold) {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    announced.remove(time);
                    throw e;
                }
                if (closed) {
                    announced.remove(time);
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Withdraws an announcement once its batch is stored. */
    void clear(long time) {
        lock.lock();
        try {
            announced.remove(time);
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closed = true;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void open() {
        lock.lock();
        try {
            closed = false;
            announced.clear();
            threshold = Long.MIN_VALUE;
        } finally {
            lock.unlock();
        }
    }

    private void updateThreshold() {
        if (announced.size() >= groupSize) {
            threshold = announced.peek();
            released.signalAll();
        } else {
            threshold = Long.MIN_VALUE;
        }
    }
}
