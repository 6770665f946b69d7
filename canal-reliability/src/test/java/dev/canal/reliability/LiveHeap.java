package dev.canal.reliability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live heap of another JVM, in bytes: {@code jcmd <pid> GC.class_histogram} forces a full collection and
 * sums what survives, so transient garbage does not count; and its resident set size from /proc.
 */
final class LiveHeap {

    private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
    private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB$");
    private static final Pattern PEAK_RSS = Pattern.compile("(?m)^VmHWM:\\s+(\\d+) kB$");

    private static final long SETTLED_BYTES = 1L << 20;

    private LiveHeap() {
    }

    static long liveBytes(ProcessHandle jvm) throws Exception {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        Process jcmd = new ProcessBuilder(java.resolveSibling("jcmd").toString(), String.valueOf(jvm.pid()),
                "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd GC.class_histogram on " + jvm.pid() + " failed: " + out);
        }
        Matcher total = TOTAL.matcher(out);
        if (!total.find()) {
            throw new IllegalStateException("no Total line in the class histogram of " + jvm.pid() + ":\n"
                    + out.substring(Math.max(0, out.length() - 2000)));
        }
        return Long.parseLong(total.group(1));
    }

    /**
     * The live heap once the JVM is quiet: samples a second apart until two agree within 1 MiB (at most 30), so that
     * a baseline is not taken while the daemon is still starting its destination (loading table definitions, say).
     */
    static long settledBytes(ProcessHandle jvm) throws Exception {
        long previous = liveBytes(jvm);
        for (int i = 0; i < 30; i++) {
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // pacing the samples, not waiting for a condition
            long current = liveBytes(jvm);
            if (Math.abs(current - previous) < SETTLED_BYTES) {
                return current;
            }
            previous = current;
        }
        throw new IllegalStateException("the live heap of " + jvm.pid() + " did not settle in 30 s: last " + previous);
    }

    static long residentBytes(ProcessHandle process) throws Exception {
        return statusKilobytes(process, RSS, "VmRSS") * 1024;
    }

    /** The highest resident set size the process had so far (VmHWM). */
    static long peakResidentBytes(ProcessHandle process) throws Exception {
        return statusKilobytes(process, PEAK_RSS, "VmHWM") * 1024;
    }

    private static long statusKilobytes(ProcessHandle process, Pattern line, String name) throws Exception {
        String status = java.nio.file.Files.readString(Path.of("/proc", String.valueOf(process.pid()), "status"));
        Matcher value = line.matcher(status);
        if (!value.find()) {
            throw new IllegalStateException("no " + name + " in /proc/" + process.pid() + "/status");
        }
        return Long.parseLong(value.group(1));
    }
}
