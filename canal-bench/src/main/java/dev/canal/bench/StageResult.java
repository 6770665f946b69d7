package dev.canal.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One timed run of one stage, as a child JVM reports it on a line of its standard output.
 *
 * @param stage     the stage and variant, e.g. {@code entries-parallel}
 * @param rows      row changes received
 * @param events    binlog events read
 * @param bytes     binlog bytes read
 * @param nanos     wall time from the start of catch-up to the last row
 * @param cpuNanos  CPU time of the measured process (server side) over the same span
 * @param peakRssKb peak resident set of the measured process (VmHWM)
 * @param digest    the {@link RowDigest} of the rows received, or "-" where the stage reads no rows
 * @param profile   where the server's CPU and memory went, for the stages that measure a server; else null
 */
record StageResult(String stage, long rows, long events, long bytes, long nanos, long cpuNanos, long peakRssKb,
        String digest, ServerProfile profile) {

    StageResult(String stage, long rows, long events, long bytes, long nanos, long cpuNanos, long peakRssKb,
            String digest) {
        this(stage, rows, events, bytes, nanos, cpuNanos, peakRssKb, digest, null);
    }

    private static final String PREFIX = "RESULT ";

    double seconds() {
        return nanos / 1e9;
    }

    double rowsPerSecond() {
        return rows / seconds();
    }

    double megabytesPerSecond() {
        return bytes / seconds() / (1 << 20);
    }

    double eventsPerSecond() {
        return events / seconds();
    }

    StageResult withDigest(String otherDigest) {
        return new StageResult(stage, rows, events, bytes, nanos, cpuNanos, peakRssKb, otherDigest, profile);
    }

    String toLine() {
        return PREFIX + "stage=" + stage + " rows=" + rows + " events=" + events + " bytes=" + bytes + " nanos="
                + nanos + " cpuNanos=" + cpuNanos + " peakRssKb=" + peakRssKb + " digest=" + digest;
    }

    static boolean isResultLine(String line) {
        return line.startsWith(PREFIX);
    }

    static StageResult parse(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String field : line.substring(PREFIX.length()).trim().split(" ")) {
            int eq = field.indexOf('=');
            f.put(field.substring(0, eq), field.substring(eq + 1));
        }
        return new StageResult(f.get("stage"), Long.parseLong(f.get("rows")), Long.parseLong(f.get("events")),
                Long.parseLong(f.get("bytes")), Long.parseLong(f.get("nanos")), Long.parseLong(f.get("cpuNanos")),
                Long.parseLong(f.get("peakRssKb")), f.get("digest"));
    }
}
