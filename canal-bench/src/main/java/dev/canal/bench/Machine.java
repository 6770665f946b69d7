package dev.canal.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The conditions a run was measured under, for the report. */
record Machine(Instant date, int cores, String cpu, long memoryMib, String jdk, String os, String loadAverage) {

    static Machine describe() {
        return new Machine(Instant.now().truncatedTo(ChronoUnit.SECONDS), Runtime.getRuntime().availableProcessors(),
                procLine("/proc/cpuinfo", "model name"), procKb("/proc/meminfo", "MemTotal") / 1024,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"), currentLoadAverage());
    }

    /** The 1, 5 and 15 minute load averages. */
    private static String currentLoadAverage() {
        String[] fields = read("/proc/loadavg").trim().split(" ");
        return fields.length < 3 ? "unknown" : fields[0] + " " + fields[1] + " " + fields[2];
    }

    private static String procLine(String file, String key) {
        return read(file).lines().filter(l -> l.startsWith(key)).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
    }

    private static long procKb(String file, String key) {
        String line = procLine(file, key);
        return line.equals("unknown") ? -1 : Long.parseLong(line.replaceAll("[^0-9]", ""));
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "unknown";
        }
    }
}
