package dev.canal.reliability;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples another JVM's live heap ({@link LiveHeap#liveBytes}, after a full collection) over and over on a thread of
 * its own and keeps the highest sample, so a scenario sees the peak of what the daemon retained while it ran.
 */
final class HeapSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HeapSampler.class);

    private final ProcessHandle jvm;
    private final long pauseNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final Thread thread;
    private volatile Exception failure;

    /** Starts sampling {@code jvm}, pausing {@code pauseMillis} between samples (each sample costs a full GC). */
    HeapSampler(ProcessHandle jvm, long pauseMillis) {
        this.jvm = jvm;
        this.pauseNanos = TimeUnit.MILLISECONDS.toNanos(pauseMillis);
        this.thread = new Thread(this::sampleUntilClosed, "heap-sampler-" + jvm.pid());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void sampleUntilClosed() {
        while (running.get() && jvm.isAlive()) {
            try {
                peak.accumulateAndGet(LiveHeap.liveBytes(jvm), Math::max);
                samples.incrementAndGet();
            } catch (Exception e) {
                if (jvm.isAlive() && running.get()) {
                    failure = e;
                }
                return;
            }
            LockSupport.parkNanos(pauseNanos); // pacing the samples, not waiting for a condition
        }
    }

    /** The highest live heap seen so far, in bytes. */
    long peakBytes() {
        return peak.get();
    }

    long samples() {
        return samples.get();
    }

    /** Stops sampling (a second call does nothing); fails if a sample failed while the JVM was alive. */
    @Override
    public void close() throws Exception {
        if (!running.getAndSet(false)) {
            return;
        }
        thread.join(TimeUnit.SECONDS.toMillis(90));
        log.info("live heap of {}: peak {} KiB over {} samples", jvm.pid(), peak.get() / 1024, samples.get());
        if (failure != null) {
            throw new IllegalStateException("sampling the live heap of " + jvm.pid() + " failed", failure);
        }
    }
}
