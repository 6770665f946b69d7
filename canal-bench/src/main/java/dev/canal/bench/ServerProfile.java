package dev.canal.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a measured server's CPU and memory went over a catch-up: its threads' CPU by kind from /proc
 * ({@link ThreadCpu}: the JIT, the collector, the JVM's own threads, the rest by name), the process total, and, for
 * our server, its own account ({@link ServerStats}: Java threads by whole name with the bytes each allocated, the
 * collector's and the JIT's times). Canal 1.1.7 runs code we do not change, so it has the /proc part only.
 *
 * @param threadCpuNanos CPU by thread kind over the catch-up (/proc)
 * @param cpuNanos       the process's CPU over the same span
 * @param stats          our server's own account over the same span; null for Canal 1.1.7
 */
record ServerProfile(Map<String, Long> threadCpuNanos, long cpuNanos, ServerStats stats) {

    /**
     * CPU by the groups the report shows: the JIT, the collector, the JVM's other threads, then each Java thread
     * group (by whole name where the server said, else by the /proc name), and what ended or escaped the thread
     * snapshots ("ended threads and the rest").
     */
    Map<String, Long> cpuByGroup() {
        Map<String, Long> groups = new LinkedHashMap<>();
        for (String kind : new String[] {ThreadCpu.JIT, ThreadCpu.GC, ThreadCpu.JVM}) {
            groups.put(kind, threadCpuNanos.getOrDefault(kind, 0L));
        }
        if (stats != null) {
            stats.threadCpuNanos().forEach((name, nanos) -> {
                if (nanos > 0) {
                    groups.merge(name, nanos, Long::sum);
                }
            });
        } else {
            threadCpuNanos.forEach((kind, nanos) -> {
                if (!groups.containsKey(kind) && nanos > 0) {
                    groups.put(kind.replaceFirst("^thread ", ""), nanos);
                }
            });
        }
        long accounted = groups.values().stream().mapToLong(Long::longValue).sum();
        groups.put("ended threads and the rest", Math.max(0, cpuNanos - accounted));
        return groups;
    }
}
