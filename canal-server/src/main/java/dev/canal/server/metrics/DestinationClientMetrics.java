package dev.canal.server.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** The client counters of one destination; thread-safe, updated from session threads. */
public final class DestinationClientMetrics {

    /** Upper bounds of the latency histogram's buckets in milliseconds, as Canal's; one more bucket takes the rest. */
    public static final double[] LATENCY_BUCKETS_MILLIS = {2.5, 10, 25, 100};

    private final String destination;
    private final ConcurrentMap<String, LongAdder> packets = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder emptyBatches = new LongAdder();
    private final LongAdder latencyCount = new LongAdder();
    private final LongAdder latencyNanos = new LongAdder();
    private final LongAdder[] latencyBuckets = new LongAdder[LATENCY_BUCKETS_MILLIS.length + 1];

    DestinationClientMetrics(String destination) {
        this.destination = destination;
        for (int i = 0; i < latencyBuckets.length; i++) {
            latencyBuckets[i] = new LongAdder();
        }
    }

    public String destination() {
        return destination;
    }

    /** A response sent for a request of this packet type (a GET only when its batch was not empty). */
    public void packet(String requestType) {
        packets.computeIfAbsent(requestType, t -> new LongAdder()).increment();
    }

    /** Bytes sent, the 4-byte frame header included. */
    public void bytesSent(long count) {
        bytes.add(count);
    }

    public void emptyBatch() {
        emptyBatches.increment();
    }

    public void error(int errorCode) {
        errors.computeIfAbsent(errorCode, c -> new LongAdder()).increment();
    }

    public void latency(long nanos) {
        latencyCount.increment();
        latencyNanos.add(nanos);
        double millis = nanos / (double) TimeUnit.MILLISECONDS.toNanos(1);
        int bucket = 0;
        while (bucket < LATENCY_BUCKETS_MILLIS.length && millis > LATENCY_BUCKETS_MILLIS[bucket]) {
            bucket++;
        }
        latencyBuckets[bucket].increment();
    }

    public Map<String, Long> packets() {
        return sums(packets);
    }

    public Map<Integer, Long> errors() {
        return sums(errors);
    }

    public long bytes() {
        return bytes.sum();
    }

    public long emptyBatches() {
        return emptyBatches.sum();
    }

    public long latencyCount() {
        return latencyCount.sum();
    }

    public long latencyTotalNanos() {
        return latencyNanos.sum();
    }

    /** Requests per latency bucket (not cumulative); the last entry counts those above the largest bound. */
    public long[] latencyBucketCounts() {
        long[] counts = new long[latencyBuckets.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = latencyBuckets[i].sum();
        }
        return counts;
    }

    private static <K extends Comparable<K>> Map<K, Long> sums(Map<K, LongAdder> adders) {
        Map<K, Long> out = new TreeMap<>();
        adders.forEach((key, adder) -> out.put(key, adder.sum()));
        return out;
    }
}
