package dev.canal.server.netty;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Slows down password guessing per client address, over all its connections: once an address has failed
 * {@value #FREE_FAILURES} logins, every further login attempt from it (right or wrong, so the delay tells nothing)
 * is answered only after a delay that doubles with each failure, from {@value #BASE_DELAY_MILLIS} ms up to
 * {@value #MAX_DELAY_MILLIS} ms. An address is forgiven {@value #FORGET_AFTER_SECONDS} s after its last failure.
 * Thread-safe; remembers at most {@value #MAX_ADDRESSES} addresses. Failures are warned about at most once per
 * {@value #WARNING_INTERVAL_SECONDS} s, with a count.
 */
final class LoginThrottle {

    static final int FREE_FAILURES = 3;
    static final long BASE_DELAY_MILLIS = 200;
    static final long MAX_DELAY_MILLIS = 5000;
    static final long FORGET_AFTER_SECONDS = 60;
    static final int MAX_ADDRESSES = 10_000;
    static final long WARNING_INTERVAL_SECONDS = 10;

    private static final long FORGET_AFTER_NANOS = TimeUnit.SECONDS.toNanos(FORGET_AFTER_SECONDS);
    private static final int MAX_DOUBLINGS = 16;

    private record Failures(int count, long lastNanos) {
    }

    private final ConcurrentMap<InetAddress, Failures> recent = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final WarningRate warnings = new WarningRate(WARNING_INTERVAL_SECONDS, TimeUnit.SECONDS);

    LoginThrottle() {
        this(System::nanoTime);
    }

    LoginThrottle(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** How long to hold back the answer to a login attempt from {@code address}. */
    long delayMillis(InetAddress address) {
        int failures = recentFailures(address);
        if (failures < FREE_FAILURES) {
            return 0;
        }
        int doublings = Math.min(failures - FREE_FAILURES, MAX_DOUBLINGS);
        return Math.min(BASE_DELAY_MILLIS << doublings, MAX_DELAY_MILLIS);
    }

    /**
     * Counts a failed login of {@code address}.
     *
     * @return how many failures to warn about now (this one and those held back), 0 when this one is held back
     */
    int failed(InetAddress address) {
        long now = nanoClock.getAsLong();
        if (recent.size() >= MAX_ADDRESSES) {
            forgetOld(now);
        }
        recent.merge(address, new Failures(1, now), (before, one) ->
                new Failures(isForgotten(before, now) ? 1 : before.count() + 1, now));
        return warnings.occurred();
    }

    private int recentFailures(InetAddress address) {
        Failures failures = recent.get(address);
        return failures == null || isForgotten(failures, nanoClock.getAsLong()) ? 0 : failures.count();
    }

    private static boolean isForgotten(Failures failures, long now) {
        return now - failures.lastNanos() >= FORGET_AFTER_NANOS;
    }

    /** Drops forgiven addresses; if that is not enough, everything (a flood from very many addresses). */
    private void forgetOld(long now) {
        recent.values().removeIf(failures -> isForgotten(failures, now));
        if (recent.size() >= MAX_ADDRESSES) {
            recent.clear();
        }
    }
}
