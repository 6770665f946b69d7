package dev.canal.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the server stage's JVM says about itself when the driver asks (a {@value #REQUEST} line on its input): its
 * live Java threads' CPU and allocated bytes by name (digits dropped, so that a pool's threads are one group), and
 * the collector's and the JIT compiler's own accounts. The driver takes one at the start of the catch-up and one at
 * its end and reports the difference ({@link #minus}); with {@link ThreadCpu} (the JVM's own threads, from /proc) it
 * makes the profile table of docs/performance.md.
 *
 * @param threadCpuNanos   CPU of the live Java threads, by name
 * @param threadAllocated  bytes allocated by the live Java threads, by name
 * @param gcCount          collections, all collectors
 * @param gcMillis         time the collectors report (pauses, for the parallel collector)
 * @param jitMillis        time the JIT compilers spent compiling
 */
record ServerStats(Map<String, Long> threadCpuNanos, Map<String, Long> threadAllocated, long gcCount, long gcMillis,
        long jitMillis) {

    static final String REQUEST = "STATS";
    private static final String PREFIX = "STATS ";

    /** This JVM's figures now. */
    static ServerStats capture() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<String, Long> cpu = new TreeMap<>();
        Map<String, Long> allocated = new TreeMap<>();
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue; // ended meanwhile
            }
            String group = groupOf(info.getThreadName());
            long id = info.getThreadId();
            cpu.merge(group, Math.max(0, threads.getThreadCpuTime(id)), Long::sum);
            allocated.merge(group, Math.max(0, threads.getThreadAllocatedBytes(id)), Long::sum);
        }
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        return new ServerStats(cpu, allocated, gcCount, gcMillis,
                ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
    }

    /** A thread's name with its digits made N and blanks made _, so that it is one token of the line. */
    static String groupOf(String threadName) {
        return threadName.replaceAll("[0-9]+", "N").replaceAll("[\\s=,:]", "_");
    }

    ServerStats minus(ServerStats before) {
        return new ServerStats(ThreadCpu.minus(threadCpuNanos, before.threadCpuNanos),
                ThreadCpu.minus(threadAllocated, before.threadAllocated), gcCount - before.gcCount,
                gcMillis - before.gcMillis, jitMillis - before.jitMillis);
    }

    long allocatedBytes() {
        return threadAllocated.values().stream().mapToLong(Long::longValue).sum();
    }

    String toLine() {
        StringBuilder line = new StringBuilder(PREFIX).append("gcCount=").append(gcCount).append(" gcMillis=")
                .append(gcMillis).append(" jitMillis=").append(jitMillis);
        threadCpuNanos.forEach((group, nanos) -> line.append(" t=").append(group).append(':').append(nanos)
                .append(':').append(threadAllocated.getOrDefault(group, 0L)));
        return line.toString();
    }

    static boolean isStatsLine(String line) {
        return line.startsWith(PREFIX);
    }

    static ServerStats parse(String line) {
        Map<String, Long> cpu = new TreeMap<>();
        Map<String, Long> allocated = new TreeMap<>();
        long gcCount = 0;
        long gcMillis = 0;
        long jitMillis = 0;
        for (String field : line.substring(PREFIX.length()).trim().split(" ")) {
            String key = field.substring(0, field.indexOf('='));
            String value = field.substring(field.indexOf('=') + 1);
            switch (key) {
                case "gcCount" -> gcCount = Long.parseLong(value);
                case "gcMillis" -> gcMillis = Long.parseLong(value);
                case "jitMillis" -> jitMillis = Long.parseLong(value);
                case "t" -> {
                    String[] parts = value.split(":");
                    cpu.put(parts[0], Long.parseLong(parts[1]));
                    allocated.put(parts[0], Long.parseLong(parts[2]));
                }
                default -> throw new IllegalArgumentException("unknown field " + key + " in " + line);
            }
        }
        return new ServerStats(cpu, allocated, gcCount, gcMillis, jitMillis);
    }
}
