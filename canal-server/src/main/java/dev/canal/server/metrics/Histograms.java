package dev.canal.server.metrics;

import java.util.Arrays;

/** Writes a histogram kept as counts per bucket in Prometheus's shape. */
final class Histograms {

    private Histograms() {
    }

    /**
     * Adds the cumulative {@code _bucket} samples (the last one {@code +Inf}), {@code _count} (the {@code +Inf}
     * bucket, so that the two never disagree) and {@code _sum}, each with {@code labelPairs}.
     *
     * @param perBucket counts per bucket, not cumulative, one more than {@code bounds} (the rest above them)
     */
    static void add(MetricFamily.Builder histogram, long[] perBucket, double[] bounds, double sum,
            String... labelPairs) {
        String[] withBound = Arrays.copyOf(labelPairs, labelPairs.length + 2);
        withBound[labelPairs.length] = "le";
        long cumulative = 0;
        for (int i = 0; i < perBucket.length; i++) {
            cumulative += perBucket[i];
            double bound = i < bounds.length ? bounds[i] : Double.POSITIVE_INFINITY;
            withBound[labelPairs.length + 1] = TextFormat.number(bound);
            histogram.addSuffixed("_bucket", cumulative, withBound.clone());
        }
        histogram.addSuffixed("_count", cumulative, labelPairs);
        histogram.addSuffixed("_sum", sum, labelPairs);
    }
}
