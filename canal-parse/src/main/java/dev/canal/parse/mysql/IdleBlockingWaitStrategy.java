package dev.canal.parse.mysql;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How the pipeline's stages wait: a stage whose next event has not been published yet blocks until the reader
 * publishes (after a short spin and a few yields), so an idle destination's stage threads cost no CPU; a stage
 * whose next event is published but still with the stage before it backs off as Disruptor's sleeping strategy
 * does (spin, yield, short parks), since that wait is short and the publisher does not signal it.
 *
 * <p>Disruptor's sleeping strategy parks for 100 ns at a time whatever it waits for: an idle destination's three
 * stage threads then wake tens of thousands of times a second each, which in one daemon with many destinations
 * took the cores (docs/performance.md, "Many destinations"). Its blocking strategy blocks on the publisher but
 * busy-spins while a stage waits for the stage before it, which on two cores starves the thread being waited for.
 *
 * <p>The publisher signals only when a stage has announced that it blocks ({@code signalNeeded}), so a busy
 * pipeline takes no lock per event. A blocked stage also wakes every {@link #MAX_BLOCK_NANOS} on its own, so a
 * lost signal could delay it by at most that.
 */
final class IdleBlockingWaitStrategy implements WaitStrategy {

    static final int SPIN_TRIES = 100;
    static final int YIELD_TRIES = 100;
    static final long SLEEP_NANOS = 100;
    static final long MAX_BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();
    private final AtomicBoolean signalNeeded = new AtomicBoolean();

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        int tries = SPIN_TRIES + YIELD_TRIES;
        long available;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (tries > YIELD_TRIES) {
                Thread.onSpinWait();
                tries--;
            } else if (tries > 0) {
                Thread.yield();
                tries--;
            } else if (cursor.get() < sequence) {
                blockUntilPublished(sequence, cursor, barrier);
            } else {
                LockSupport.parkNanos(SLEEP_NANOS);
            }
        }
        return available;
    }

    private void blockUntilPublished(long sequence, Sequence cursor, SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        lock.lock();
        try {
            signalNeeded.set(true);
            if (cursor.get() < sequence) {
                barrier.checkAlert();
                published.awaitNanos(MAX_BLOCK_NANOS);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void signalAllWhenBlocking() {
        if (signalNeeded.getAndSet(false)) {
            lock.lock();
            try {
                published.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
