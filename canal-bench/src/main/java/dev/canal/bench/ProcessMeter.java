package dev.canal.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and peak resident set of a process, from /proc (Linux): this JVM or a child server's.
 * CPU comes from /proc/PID/stat (utime + stime, in clock ticks of 1/100 s, Linux's USER_HZ on x86 and arm),
 * or for this JVM from the OperatingSystemMXBean at nanosecond resolution.
 */
final class ProcessMeter {

    private static final long NANOS_PER_TICK = 10_000_000L;
    /** utime's index among the fields after the ")" that ends the command name (stime follows it). */
    private static final int UTIME_AFTER_COMM = 11;

    private final long pid;

    private ProcessMeter(long pid) {
        this.pid = pid;
    }

    static ProcessMeter self() {
        return new ProcessMeter(ProcessHandle.current().pid());
    }

    static ProcessMeter of(long pid) {
        return new ProcessMeter(pid);
    }

    long cpuNanos() {
        if (pid == ProcessHandle.current().pid()
                && ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        String stat = read("stat");
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[UTIME_AFTER_COMM]) + Long.parseLong(fields[UTIME_AFTER_COMM + 1]);
        return ticks * NANOS_PER_TICK;
    }

    /** VmHWM: the most resident memory the process ever had, in KiB. */
    long peakRssKb() {
        return status("VmHWM:");
    }

    /** VmRSS: the resident memory now, in KiB. */
    long rssKb() {
        return status("VmRSS:");
    }

    /** The process's threads now. */
    long threads() {
        return status("Threads:");
    }

    private long status(String field) {
        for (String line : read("status").split("\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no " + field + " in /proc/" + pid + "/status");
    }

    private String read(String file) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/" + pid + "/" + file, e);
        }
    }
}
