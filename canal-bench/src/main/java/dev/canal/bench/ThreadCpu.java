package dev.canal.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of a process's threads from /proc/PID/task (Linux), summed by kind: the JIT compilers, the garbage
 * collector, the JVM's threads that are not Java threads, and the Java threads by name. Linux keeps only the first 15 characters
 * of a thread's name, so application threads with long names fall into groups by their prefix; for a JVM of ours the
 * server stage reports its Java threads by their whole names ({@link ServerStats}). Threads that ended before the
 * snapshot are not in it: their CPU shows as the difference to the process total.
 */
final class ThreadCpu {

    static final String JIT = "JIT compiler threads";
    static final String GC = "garbage collector threads";
    static final String JVM = "other JVM threads";
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final int UTIME_AFTER_COMM = 11;

    private ThreadCpu() {
    }

    /** Nanoseconds of CPU by thread kind, or by name for the application's threads (digits dropped). */
    static Map<String, Long> of(long pid) {
        Map<String, Long> byKind = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[UTIME_AFTER_COMM]) + Long.parseLong(fields[UTIME_AFTER_COMM + 1]);
                    byKind.merge(kindOf(comm), ticks * NANOS_PER_TICK, Long::sum);
                } catch (NoSuchFileException ended) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the threads of process " + pid, e);
        }
        return byKind;
    }

    /** The group of a thread named {@code comm} (as Linux keeps it: at most 15 characters). */
    static String kindOf(String comm) {
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return JIT;
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("GC ")
                || comm.startsWith("ParGC") || comm.startsWith("VM Periodic")) {
            return GC;
        }
        // the JVM's threads that Java's thread list does not show (the others are reported by name)
        if (comm.equals("VM Thread") || comm.equals("Service Thread") || comm.startsWith("Sweeper")
                || comm.startsWith("Monitor Deflati")) {
            return JVM;
        }
        return "thread " + comm.replaceAll("[0-9]+$", "N");
    }

    /** {@code after - before}, kind by kind. */
    static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((kind, nanos) -> delta.put(kind, nanos - before.getOrDefault(kind, 0L)));
        return delta;
    }
}
