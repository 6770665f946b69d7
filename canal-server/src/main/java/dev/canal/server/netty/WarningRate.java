package dev.canal.server.netty;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps a recurring warning from flooding the log: the first occurrence after a quiet interval is reported at
 * once, later ones are counted into the next report, at most one report per interval. Thread-safe.
 */
final class WarningRate {

    private final long intervalNanos;
    private final AtomicInteger unreported = new AtomicInteger();
    private final AtomicLong lastReportNanos;

    WarningRate(long interval, TimeUnit unit) {
        this.intervalNanos = unit.toNanos(interval);
        this.lastReportNanos = new AtomicLong(System.nanoTime() - intervalNanos);
    }

    /**
     * Counts one occurrence.
     *
     * @return how many occurrences to report now (this one and those held back since the last report), or 0 when
     *     this one is held back
     */
    int occurred() {
        unreported.incrementAndGet();
        long now = System.nanoTime();
        long last = lastReportNanos.get();
        if (now - last >= intervalNanos && lastReportNanos.compareAndSet(last, now)) {
            return unreported.getAndSet(0);
        }
        return 0;
    }
}
