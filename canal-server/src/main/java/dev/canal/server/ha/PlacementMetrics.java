package dev.canal.server.ha;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntSupplier;

/**
 * What the balancing of one server did (docs/high-availability.md, "Spreading destinations over servers"), read by
 * the metrics exporter: the destinations running here, the moves this server made by reason, and how long each
 * took from the start of the handover until another server held the destination.
 */
public final class PlacementMetrics {

    /** Upper bounds of the move-time buckets, in milliseconds; a last bucket holds the rest. */
    public static final double[] MOVE_BUCKETS_MILLIS = {250, 500, 1000, 2000, 5000, 10_000, 30_000};

    private final IntSupplier running;
    private final Map<String, Long> moves = new TreeMap<>(); // guarded by this
    private final long[] moveBuckets = new long[MOVE_BUCKETS_MILLIS.length + 1]; // guarded by this
    private long moveMillisTotal; // guarded by this

    PlacementMetrics(IntSupplier running) {
        this.running = running;
    }

    /** How many destinations run on this server now. */
    public int running() {
        return running.getAsInt();
    }

    synchronized void recordMove(String reason, long millis) {
        moves.merge(reason, 1L, Long::sum);
        int bucket = 0;
        while (bucket < MOVE_BUCKETS_MILLIS.length && millis > MOVE_BUCKETS_MILLIS[bucket]) {
            bucket++;
        }
        moveBuckets[bucket]++;
        moveMillisTotal += millis;
    }

    /** The moves this server made, by reason. */
    public synchronized Map<String, Long> moves() {
        return new TreeMap<>(moves);
    }

    /** How many moves fell in each bucket of {@link #MOVE_BUCKETS_MILLIS} (not cumulative), the last one above all. */
    public synchronized long[] moveBucketCounts() {
        return Arrays.copyOf(moveBuckets, moveBuckets.length);
    }

    public synchronized long moveMillisTotal() {
        return moveMillisTotal;
    }
}
