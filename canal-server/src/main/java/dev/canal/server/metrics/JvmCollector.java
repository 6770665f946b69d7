package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;
import static dev.canal.server.metrics.MetricType.GAUGE;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JVM and process metrics from the platform MXBeans, under the names of the Prometheus simpleclient's hotspot
 * exports that Canal ships, so dashboards built for Canal find them. A subset: memory by
 * area and pool, threads, garbage collections, classes, process CPU time and start time, JVM version.
 */
final class JvmCollector implements MetricsCollector {

    private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final double MILLIS_PER_SECOND = TimeUnit.SECONDS.toMillis(1);

    @Override
    public List<MetricFamily> collect() {
        List<MetricFamily> families = new ArrayList<>();
        memory(families);
        threads(families);
        garbageCollectors(families);
        classes(families);
        process(families);
        return families;
    }

    private static void memory(List<MetricFamily> families) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = memory.getHeapMemoryUsage();
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        families.add(MetricFamily.builder("jvm_memory_bytes_used", GAUGE, "Bytes in use per memory area")
                .add(heap.getUsed(), "area", "heap").add(nonHeap.getUsed(), "area", "nonheap").build());
        families.add(MetricFamily.builder("jvm_memory_bytes_committed", GAUGE, "Bytes committed per memory area")
                .add(heap.getCommitted(), "area", "heap").add(nonHeap.getCommitted(), "area", "nonheap").build());
        families.add(MetricFamily.builder("jvm_memory_bytes_max", GAUGE,
                        "Largest size per memory area in bytes, -1 when undefined")
                .add(heap.getMax(), "area", "heap").add(nonHeap.getMax(), "area", "nonheap").build());

        MetricFamily.Builder poolUsed = MetricFamily.builder("jvm_memory_pool_bytes_used", GAUGE,
                "Bytes in use per memory pool");
        MetricFamily.Builder poolCommitted = MetricFamily.builder("jvm_memory_pool_bytes_committed", GAUGE,
                "Bytes committed per memory pool");
        MetricFamily.Builder poolMax = MetricFamily.builder("jvm_memory_pool_bytes_max", GAUGE,
                "Largest size per memory pool in bytes, -1 when undefined");
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage usage = pool.getUsage();
            if (usage == null) { // the pool is no longer valid
                continue;
            }
            poolUsed.add(usage.getUsed(), "pool", pool.getName());
            poolCommitted.add(usage.getCommitted(), "pool", pool.getName());
            poolMax.add(usage.getMax(), "pool", pool.getName());
        }
        families.add(poolUsed.build());
        families.add(poolCommitted.build());
        families.add(poolMax.build());
    }

    private static void threads(List<MetricFamily> families) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        families.add(MetricFamily.builder("jvm_threads_current", GAUGE, "Live threads")
                .add(threads.getThreadCount()).build());
        families.add(MetricFamily.builder("jvm_threads_daemon", GAUGE, "Live daemon threads")
                .add(threads.getDaemonThreadCount()).build());
        families.add(MetricFamily.builder("jvm_threads_peak", GAUGE, "Most live threads at once")
                .add(threads.getPeakThreadCount()).build());
        families.add(MetricFamily.builder("jvm_threads_started_total", COUNTER, "Threads started since the JVM started")
                .add(threads.getTotalStartedThreadCount()).build());
    }

    private static void garbageCollectors(List<MetricFamily> families) {
        MetricFamily.Builder collections = MetricFamily.builder("jvm_gc_collection_seconds", MetricType.SUMMARY,
                "Collections and seconds spent per garbage collector");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            collections.addSuffixed("_count", Math.max(0, gc.getCollectionCount()), "gc", gc.getName());
            collections.addSuffixed("_sum", Math.max(0, gc.getCollectionTime()) / MILLIS_PER_SECOND, "gc",
                    gc.getName());
        }
        families.add(collections.build());
    }

    private static void classes(List<MetricFamily> families) {
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        families.add(MetricFamily.builder("jvm_classes_loaded", GAUGE,
                "Classes loaded now").add(classes.getLoadedClassCount()).build());
        families.add(MetricFamily.builder("jvm_classes_loaded_total", COUNTER,
                        "Classes loaded since the JVM started")
                .add(classes.getTotalLoadedClassCount()).build());
        families.add(MetricFamily.builder("jvm_classes_unloaded_total", COUNTER,
                        "Classes unloaded since the JVM started")
                .add(classes.getUnloadedClassCount()).build());
    }

    private static void process(List<MetricFamily> families) {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        families.add(MetricFamily.builder("process_start_time_seconds", GAUGE,
                        "When the JVM started, seconds since the epoch")
                .add(runtime.getStartTime() / MILLIS_PER_SECOND).build());
        families.add(MetricFamily.builder("jvm_info", GAUGE, "The JVM's version and vendor, 1")
                .add(1, "version", System.getProperty("java.runtime.version", ""), "vendor", runtime.getVmVendor(),
                        "runtime", System.getProperty("java.runtime.name", ""))
                .build());
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean hotspot && hotspot.getProcessCpuTime() >= 0) {
            families.add(MetricFamily.builder("process_cpu_seconds_total", COUNTER,
                    "CPU seconds used by the process, user and system")
                    .add(hotspot.getProcessCpuTime() / NANOS_PER_SECOND).build());
        }
    }
}
