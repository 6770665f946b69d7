package dev.canal.bench;

import dev.canal.testsupport.MySqlServer;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Markdown report of one benchmark run: conditions, the median run of each stage, the aims it is measured against. */
final class Report {

    private static final double MIB = 1 << 20;
    private static final long TARGET_CLIENT_ROWS_PER_SECOND = 150_000;
    private static final long TARGET_SERVER_RSS_MIB = 512;

    private final Machine machine;
    private final MySqlServer db;
    private final Workload.Loaded loaded;
    private final Workload.Mix mix;
    private final StageResult size;
    private final int runs;
    private final Map<String, List<StageResult>> results;
    private final BenchTable.Shape shape;

    Report(Machine machine, MySqlServer db, Workload.Loaded loaded, BenchTable.Shape shape, Workload.Mix mix,
            StageResult size, int runs, Map<String, List<StageResult>> results) {
        this.machine = machine;
        this.shape = shape;
        this.db = db;
        this.loaded = loaded;
        this.mix = mix;
        this.size = size;
        this.runs = runs;
        this.results = results;
    }

    boolean allContentChecksPass() {
        return results.values().stream().flatMap(List::stream).allMatch(this::contentOk);
    }

    String markdown(String arguments) {
        StringBuilder md = new StringBuilder();
        md.append("### Catch-up benchmark, ").append(machine.date()).append("\n\n")
                .append("- machine: ").append(machine.cores()).append(" cores (").append(machine.cpu()).append("), ")
                .append(machine.memoryMib()).append(" MiB, ").append(machine.os()).append("; load average at start ")
                .append(machine.loadAverage()).append(" (other processes share the machine when it is above 0)\n")
                .append("- JDK: ").append(machine.jdk()).append("; stage JVM options: `")
                .append(System.getProperty("bench.stageJavaOpts", "")).append("`\n")
                .append("- database: ").append(db.version()).append(" (").append(db.origin()).append(")\n")
                .append("- workload: ").append(mix.inserts()).append(" inserts, ").append(mix.updates())
                .append(" updates, ").append(mix.deletes()).append(" deletes in `").append(BenchTable.QUALIFIED)
                .append("` (12 columns, shape ").append(shape.label).append(", ")
                .append(String.format("%.0f", (double) size.bytes() / loaded.rowChanges()))
                .append(" binlog bytes per row change); binlog ").append(loaded.startFile()).append(':').append(loaded.startPosition())
                .append(" to ").append(loaded.endFile()).append(':').append(loaded.endPosition()).append(", ")
                .append(size.events()).append(" events, ").append(String.format("%.1f", size.bytes() / MIB))
                .append(" MiB\n")
                .append("- median of ").append(runs).append(" runs per stage, each in a fresh JVM; arguments: ")
                .append(arguments.isBlank() ? "(defaults)" : "`" + arguments + "`").append("\n\n")
                .append("| stage | rows/s | MiB/s binlog | events/s | wall s | server CPU s | CPU µs/row | peak RSS MiB"
                        + " | vs raw dump | content check |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        StageResult raw = medianOf("raw-dump");
        for (Map.Entry<String, List<StageResult>> e : results.entrySet()) {
            StageResult r = BenchMain.median(e.getValue());
            double seconds = r.seconds();
            md.append("| ").append(r.stage())
                    .append(" | ").append(String.format("%,.0f", r.rows() / seconds))
                    .append(" | ").append(readsBinlog(r) ? String.format("%.1f", size.bytes() / MIB / seconds) : "-")
                    .append(" | ").append(readsBinlog(r) ? String.format("%,.0f", size.events() / seconds) : "-")
                    .append(" | ").append(String.format("%.2f", seconds))
                    .append(" | ").append(String.format("%.2f", r.cpuNanos() / 1e9))
                    .append(" | ").append(String.format("%.2f", r.cpuNanos() / 1e3 / r.rows()))
                    .append(" | ").append(r.peakRssKb() / 1024)
                    .append(" | ").append(raw == null ? "-" : String.format("%.2f", raw.seconds() / seconds))
                    .append(" | ").append(contentColumn(e.getValue())).append(" |\n");
        }
        md.append('\n').append(headToHead()).append(profiles()).append(targets());
        return md.toString();
    }

    /**
     * Where each measured server's CPU went, median run of each stage: µs of CPU per delivered row by thread group,
     * then, for ours, the bytes allocated per row and the collector's and the JIT's own accounts.
     */
    private String profiles() {
        List<StageResult> profiled = results.values().stream().map(BenchMain::median)
                .filter(r -> r.profile() != null).toList();
        if (profiled.isEmpty()) {
            return "";
        }
        Map<String, Map<String, Long>> byStage = new LinkedHashMap<>();
        Set<String> groups = new LinkedHashSet<>();
        for (StageResult r : profiled) {
            Map<String, Long> cpu = r.profile().cpuByGroup();
            byStage.put(r.stage(), cpu);
            groups.addAll(cpu.keySet());
        }
        StringBuilder t = new StringBuilder("Server CPU by thread, µs per delivered row (median run of each stage; the"
                + " JVM's own threads from /proc, ours by Java thread name, Canal's by the first 15 characters Linux"
                + " keeps):\n\n| thread |");
        profiled.forEach(r -> t.append(' ').append(r.stage()).append(" |"));
        t.append("\n|---|").append("---:|".repeat(profiled.size())).append('\n');
        for (String group : groups) {
            t.append("| ").append(group).append(" |");
            for (StageResult r : profiled) {
                long nanos = byStage.get(r.stage()).getOrDefault(group, 0L);
                t.append(' ').append(nanos == 0 ? "-" : String.format("%.2f", nanos / 1e3 / r.rows())).append(" |");
            }
            t.append('\n');
        }
        t.append("| **whole process** |");
        profiled.forEach(r -> t.append(String.format(" **%.2f** |", r.cpuNanos() / 1e3 / r.rows())));
        t.append("\n| bytes allocated per row (Java threads) |");
        profiled.forEach(r -> t.append(' ').append(r.profile().stats() == null ? "-"
                : String.format("%,.0f", (double) r.profile().stats().allocatedBytes() / r.rows())).append(" |"));
        t.append("\n| collections, their time (ms) |");
        profiled.forEach(r -> t.append(' ').append(r.profile().stats() == null ? "-"
                : r.profile().stats().gcCount() + ", " + r.profile().stats().gcMillis()).append(" |"));
        t.append("\n| JIT compilation time (ms) |");
        profiled.forEach(r -> t.append(' ').append(r.profile().stats() == null ? "-"
                : Long.toString(r.profile().stats().jitMillis())).append(" |"));
        return t.append("\n\n").toString();
    }

    /** Every stage but the snapshot's reads the workload's binlog; the snapshot reads the table it left. */
    private static boolean readsBinlog(StageResult r) {
        return !r.stage().equals("snapshot");
    }

    private String contentColumn(List<StageResult> runsOfStage) {
        if (runsOfStage.get(0).digest().equals("-")) {
            return "n/a (no rows decoded)";
        }
        long ok = runsOfStage.stream().filter(this::contentOk).count();
        return ok == runsOfStage.size() ? "ok (" + ok + "/" + ok + ")"
                : "**FAILED** " + (runsOfStage.size() - ok) + "/" + runsOfStage.size() + ": got "
                        + runsOfStage.stream().filter(r -> !contentOk(r)).findFirst().orElseThrow().digest()
                        + ", want " + loaded.expectedDigest();
    }

    private boolean contentOk(StageResult r) {
        return r.digest().equals("-") || r.digest().equals(loaded.expectedDigest());
    }

    /**
     * Our server beside the real Canal 1.1.7, same binlog, same unmodified client, same batch size and socket
     * options, measured in the same run: the ratios hold on a busy machine better than either absolute figure.
     */
    private String headToHead() {
        StringBuilder t = new StringBuilder();
        for (Map.Entry<String, List<StageResult>> e : results.entrySet()) {
            if (!e.getKey().startsWith(OfficialClientStage.CANAL_117)) {
                continue;
            }
            StageResult canal = BenchMain.median(e.getValue());
            StageResult ours = medianOf("client-" + e.getKey().substring(OfficialClientStage.CANAL_117.length()));
            if (ours == null) {
                continue;
            }
            if (t.isEmpty()) {
                t.append("Head to head with Canal 1.1.7 (same binlog, same official client; ratio = ours / Canal's"
                        + " for rows/s, Canal's / ours for CPU and RSS, so above 1 means ours is better):\n\n"
                        + "| client settings | rows/s ours | rows/s Canal 1.1.7 | ratio | CPU µs/row ours"
                        + " | CPU µs/row Canal 1.1.7 | ratio | peak RSS MiB ours | peak RSS MiB Canal 1.1.7 | ratio |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            }
            double oursCpu = ours.cpuNanos() / 1e3 / ours.rows();
            double canalCpu = canal.cpuNanos() / 1e3 / canal.rows();
            t.append("| ").append(ours.stage().substring("client-".length()))
                    .append(" | ").append(String.format("%,.0f", ours.rowsPerSecond()))
                    .append(" | ").append(String.format("%,.0f", canal.rowsPerSecond()))
                    .append(" | ").append(String.format("%.2fx", ours.rowsPerSecond() / canal.rowsPerSecond()))
                    .append(" | ").append(String.format("%.2f", oursCpu))
                    .append(" | ").append(String.format("%.2f", canalCpu))
                    .append(" | ").append(String.format("%.2fx", canalCpu / oursCpu))
                    .append(" | ").append(ours.peakRssKb() / 1024)
                    .append(" | ").append(canal.peakRssKb() / 1024)
                    .append(" | ").append(String.format("%.2fx", (double) canal.peakRssKb() / ours.peakRssKb()))
                    .append(" |\n");
        }
        return t.isEmpty() ? "" : t.append('\n').toString();
    }

    private String targets() {
        StringBuilder t = new StringBuilder("| target | measured (wall clock) | by CPU per row | met |\n"
                + "|---|---|---|---|\n");
        StageResult client = results.keySet().stream()
                .filter(k -> k.startsWith("client-batch1000") && !k.endsWith("nodelay"))
                .findFirst().map(this::medianOf).orElse(null);
        // like with like: warm passes with warm passes, first passes in a cold JVM with first passes
        for (String pass : List.of("", "-cold")) {
            String which = pass.isEmpty() ? "warm" : "cold";
            StageResult ours = medianOf("decode-ours" + pass);
            StageResult reference = medianOf("decode-reference" + pass);
            StageResult store = medianOf("entries-parallel" + pass);
            // the reference's own client reading the binlog from the source, as our parser does
            StageResult live = medianOf("decode-reference-live" + pass);
            if (ours != null && reference != null) {
                t.append(ratioRow("decode only >= 2x mysql-binlog-connector-java (" + which + " passes)",
                        ours, reference, 2));
            }
            if (store != null && reference != null) {
                t.append(ratioRow("into the store (parallel) >= 1x the reference's decode-only rate, in memory ("
                        + which + " passes)", store, reference, 1));
            }
            if (store != null && live != null) {
                t.append(ratioRow("into the store (parallel) >= 1x the reference's decode rate over the replication"
                        + " connection, its BinaryLogClient catching up (" + which + " passes)", store, live, 1));
            }
        }
        // the client stage's server runs one pass in a fresh JVM: compared with the cold pass into the store
        StageResult store = medianOf("entries-parallel-cold");
        if (client != null && store != null) {
            double ratio = client.rowsPerSecond() / store.rowsPerSecond();
            t.append(row("official client, batch 1000, unmodified >= 50% of into-store",
                    String.format("%.0f%%", ratio * 100), String.format("%.0f%%", cpuRatio(client, store) * 100),
                    ratio >= 0.5));
        }
        if (client != null) {
            t.append(row("official client, batch 1000, unmodified >= 150,000 rows/s",
                    String.format("%,.0f rows/s", client.rowsPerSecond()),
                    String.format("%,.0f rows per CPU second", client.rows() / (client.cpuNanos() / 1e9)),
                    client.rowsPerSecond() >= TARGET_CLIENT_ROWS_PER_SECOND));
            long rssMib = results.entrySet().stream().filter(e -> e.getKey().startsWith("client-"))
                    .flatMap(e -> e.getValue().stream()).mapToLong(StageResult::peakRssKb).max().orElse(0) / 1024;
            t.append(row("server peak RSS <= 512 MiB (largest of the client runs)", rssMib + " MiB", "",
                    rssMib <= TARGET_SERVER_RSS_MIB));
        }
        return t.toString();
    }

    private static String ratioRow(String target, StageResult a, StageResult b, double atLeast) {
        double ratio = a.rowsPerSecond() / b.rowsPerSecond();
        return row(target, String.format("%.2fx", ratio), String.format("%.2fx", cpuRatio(a, b)), ratio >= atLeast);
    }

    private static String row(String target, String measured, String byCpu, boolean met) {
        return "| " + target + " | " + measured + " | " + byCpu + " | " + (met ? "yes" : "**no**") + " |\n";
    }

    /**
     * How much faster {@code a} is than {@code b} per CPU second spent (its process's CPU): the comparison that
     * holds on a machine shared with other work, where wall-clock rates depend on the share of cores a run got.
     * "met" is still judged on the wall clock.
     */
    private static double cpuRatio(StageResult a, StageResult b) {
        return ((double) b.cpuNanos() / b.rows()) / ((double) a.cpuNanos() / a.rows());
    }

    private StageResult medianOf(String stage) {
        List<StageResult> runsOfStage = results.get(stage);
        return runsOfStage == null ? null : BenchMain.median(runsOfStage);
    }
}
