package dev.canal.bench;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catch-up benchmark's driver (bench/run.sh): provisions the database, loads the workload, runs each stage
 * {@code --runs} times in fresh JVMs, checks every run's row digest against the database's, and prints the
 * median run of each stage as a Markdown table (also written to {@code --out}).
 *
 * <pre>
 * --rows N          row changes in the workload (default 1000000)
 * --shape S         the table's shape: standard or wide-text (see BenchTable.Shape; default standard)
 * --mix I:U:D       percentages of inserts, updates, deletes (default 60:30:10, wide-text 50:30:20)
 * --batch-rows N    rows per INSERT/UPDATE/DELETE statement (default 1000, wide-text 200)
 * --runs K          runs per stage, the median is reported (default 3)
 * --only STAGE      raw, decode, entries, consumers (1, 2 and 4 named consumers of one store), client, canal
 *                   (the real Canal 1.1.7 with the official client), snapshot (an initial snapshot of the table
 *                   the workload left), or the scale questions destinations, steady, wide; comma-separated
 *                   (default: all)
 * --snapshot-chunk N rows per snapshot chunk (default 1024, canal.instance.snapshot.chunk.size's default)
 * --client-batches  batch sizes of the official client (default 1000,100)
 * --client-pause-ms L  the official client sleeps N ms after each batch, a throttled consumer; a comma-separated
 *                   list alternates the pauses within each run, so a throttled and an unthrottled client meet the
 *                   same load (default 0)
 * --out FILE        where the Markdown report goes (default bench/results/latest.md)
 * --logs DIR        the stage JVMs' logs (default bench/results/logs)
 * --profile true    each stage JVM records a JFR profile into the logs directory
 * --quick true      smaller workloads for the three scale questions (and --rows 100000, --runs 1 unless given)
 * --destinations L  destination counts of the many-destinations question (default 1,10,50)
 * --destination-rows N  row changes each destination catches up (default 100000, quick 10000)
 * --steady-rows N   row changes of the steady-state catch-up (default 10000000, quick 2000000), shape
 *                   --steady-shape (default wide-text); --warm-after N rows before the warm figures (1000000);
 *                   --profile-steady true|false: its JVM records a JFR profile (default true)
 * --wide-tables N, --wide-columns N, --wide-rows N  the big-and-wide transaction (1000, 200, 1000000;
 *                   quick 200 tables and 50000 rows)
 * --destination-heap L  shipped (bin/startup.sh's heap) and/or scaled (plus 8 MiB a destination); default both
 * </pre>
 * {@code --only} also takes the scale questions: destinations, steady, wide.
 * Stage JVM options come from the system property {@code bench.stageJavaOpts} (space separated).
 */
public final class BenchMain {

    private static final Logger log = LoggerFactory.getLogger(BenchMain.class);

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        boolean quick = Boolean.parseBoolean(o.getOrDefault("quick", "false"));
        long rows = Long.parseLong(o.getOrDefault("rows", quick ? "100000" : "1000000"));
        int runs = Integer.parseInt(o.getOrDefault("runs", quick ? "1" : "3"));
        String only = o.getOrDefault("only", "all");
        List<Integer> clientBatches = Arrays.stream(o.getOrDefault("client-batches", "1000,100").split(","))
                .map(Integer::parseInt).toList();
        List<Long> clientPauses = Arrays.stream(o.getOrDefault("client-pause-ms", "0").split(","))
                .map(Long::parseLong).toList();
        BenchTable.Shape shape = BenchTable.Shape.of(o.getOrDefault("shape", "standard"));
        Path out = Path.of(o.getOrDefault("out", "bench/results/latest.md"));
        ChildJvm jvm = new ChildJvm(List.of(System.getProperty("bench.stageJavaOpts", "").trim().split("\\s+")),
                Path.of(o.getOrDefault("logs", "bench/results/logs")),
                Boolean.parseBoolean(o.getOrDefault("profile", "false")));
        int batchRows = Integer.parseInt(o.getOrDefault("batch-rows", Integer.toString(shape.defaultBatchRows)));

        Machine machine = Machine.describe();
        MySqlServer db = TestDatabases.shared();
        StringBuilder markdown = new StringBuilder();
        boolean pass = true;
        if (CATCH_UP_STAGES.stream().anyMatch(stage -> wants(only, stage))) {
            Workload.Mix mix = Workload.Mix.of(rows, o.getOrDefault("mix", shape.defaultMix));
            Workload.Loaded loaded = new Workload(db, shape, mix, batchRows).load();
            Target target = Target.of(db, loaded, shape);
            StageResult size = RawDumpStage.run(target);
            log.info("workload binlog: {} events, {} bytes", size.events(), size.bytes());
            List<String> snapshotArgs = wants(only, "snapshot")
                    ? with(snapshotTarget(db, target).toArgs(), "chunk=" + o.getOrDefault("snapshot-chunk", "1024"))
                    : List.of();
            Report report = new Report(machine, db, loaded, shape, mix, size, runs,
                    catchUp(target, jvm, runs, only, clientBatches, clientPauses, snapshotArgs));
            markdown.append(report.markdown(String.join(" ", args)));
            pass = report.allContentChecksPass();
        }
        if (wants(only, "destinations")) {
            long destinationRows = Long.parseLong(o.getOrDefault("destination-rows", quick ? "10000" : "100000"));
            List<Integer> counts = Arrays.stream(o.getOrDefault("destinations", "1,10,50").split(","))
                    .map(Integer::parseInt).toList();
            Workload.Mix mix = Workload.Mix.of(destinationRows, o.getOrDefault("mix", shape.defaultMix));
            Workload.Loaded loaded = new Workload(db, shape, mix, batchRows).load();
            Target target = Target.of(db, loaded, shape);
            List<DestinationsStage.Idle> idle = new ArrayList<>();
            List<DestinationsStage.Loaded> load = new ArrayList<>();
            List<DestinationsStage.Heap> heaps = Arrays.stream(o.getOrDefault("destination-heap", "shipped,scaled")
                    .split(",")).map(h -> DestinationsStage.Heap.valueOf(h.toUpperCase())).toList();
            for (DestinationsStage.Heap heap : heaps) {
                for (int n : counts) {
                    if (heap == DestinationsStage.Heap.SCALED && n < 10) {
                        continue; // the same heap as shipped, give or take 8 MiB a destination
                    }
                    idle.add(DestinationsStage.idle(target, loaded, jvm, n, heap));
                    load.add(DestinationsStage.load(target, jvm, n, heap));
                }
            }
            markdown.append("\n### Many destinations, ").append(machine.date()).append("\n\n")
                    .append(conditions(machine, db, args))
                    .append(DestinationsReport.markdown(idle, load, destinationRows, loaded.expectedDigest()));
        }
        if (wants(only, "steady")) {
            long steadyRows = Long.parseLong(o.getOrDefault("steady-rows", quick ? "2000000" : "10000000"));
            long warmAfter = Long.parseLong(o.getOrDefault("warm-after", "1000000"));
            BenchTable.Shape steadyShape = BenchTable.Shape.of(o.getOrDefault("steady-shape", "wide-text"));
            Workload.Mix mix = Workload.Mix.of(steadyRows, steadyShape.defaultMix);
            Workload.Loaded loaded = new Workload(db, steadyShape, mix, steadyShape.defaultBatchRows).load();
            Target target = Target.of(db, loaded, steadyShape);
            StageResult raw = jvm.run("raw", target.toArgs(), "steady-raw-dump").get(0);
            ChildJvm steadyJvm = Boolean.parseBoolean(o.getOrDefault("profile-steady", "true")) ? jvm.profiling() : jvm;
            List<StageResult> steady = steadyJvm.run("steady", with(target.toArgs(), "warmAfter=" + warmAfter),
                    "steady");
            markdown.append("\n### Steady state, ").append(machine.date()).append("\n\n")
                    .append(conditions(machine, db, args))
                    .append(SteadyReport.markdown(steadyShape, loaded, raw, steady));
        }
        if (wants(only, "wide")) {
            int tables = Integer.parseInt(o.getOrDefault("wide-tables", quick ? "200" : "1000"));
            int columns = Integer.parseInt(o.getOrDefault("wide-columns", "200"));
            long wideRows = Long.parseLong(o.getOrDefault("wide-rows", quick ? "50000" : "1000000"));
            Workload.Loaded loaded = new WideWorkload(db, tables, columns, wideRows).load();
            Target target = Target.of(db, loaded, shape, WideWorkload.SCHEMA);
            StageResult raw = jvm.run("raw", target.toArgs(), "wide-raw-dump").get(0);
            WideStage.Result wide = WideStage.run(target, jvm);
            pass &= wide.run().rows() == wideRows && wide.columnValues() == wideRows * columns;
            markdown.append("\n### Big and wide, ").append(machine.date()).append("\n\n")
                    .append(conditions(machine, db, args))
                    .append(WideReport.markdown(tables, columns, loaded, raw, wide));
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, markdown);
        System.out.println(markdown);
        System.exit(pass ? 0 : 1);
    }

    private static final List<String> CATCH_UP_STAGES = List.of("raw", "decode", "entries", "consumers", "client",
            "canal", "snapshot");

    /** Conditions of a scale question's run, in the report's words. */
    static String conditions(Machine machine, MySqlServer db, String[] args) {
        return "- machine: " + machine.cores() + " cores (" + machine.cpu() + "), " + machine.memoryMib() + " MiB, "
                + machine.os() + "; load average at start " + machine.loadAverage() + "\n"
                + "- JDK: " + machine.jdk() + "; server JVM options: `" + System.getProperty("bench.stageJavaOpts", "")
                + "`\n- database: " + db.version() + " (" + db.origin() + ")\n- arguments: `"
                + String.join(" ", args) + "`\n\n";
    }

    /** The catch-up stages, {@code runs} rounds, ours and the real Canal alternating. */
    private static Map<String, List<StageResult>> catchUp(Target target, ChildJvm jvm, int runs, String only,
            List<Integer> clientBatches, List<Long> clientPauses, List<String> snapshotArgs) throws Exception {
        Map<String, List<StageResult>> results = new LinkedHashMap<>();
        List<String> args0 = target.toArgs();
        for (int run = 1; run <= runs; run++) {
            if (wants(only, "raw")) {
                add(results, jvm.run("raw", args0, "raw-dump-r" + run));
            }
            if (wants(only, "decode")) {
                add(results, jvm.run("decode-ours", args0, "decode-ours-r" + run));
                add(results, jvm.run("decode-reference", args0, "decode-reference-r" + run));
                add(results, jvm.run("decode-reference-live", args0, "decode-reference-live-r" + run));
            }
            if (wants(only, "entries")) {
                add(results, jvm.run("entries", with(args0, "parallel=true"), "entries-parallel-r" + run));
                add(results, jvm.run("entries", with(args0, "parallel=false"), "entries-serial-r" + run));
            }
            if (wants(only, "consumers")) {
                for (int consumers : List.of(1, 2, 4)) {
                    add(results, jvm.run("consumers", with(args0, "consumers=" + consumers),
                            "consumers-" + consumers + "-r" + run));
                }
            }
            if (wants(only, "snapshot")) {
                add(results, jvm.run("snapshot", snapshotArgs, "snapshot-r" + run));
            }
            // ours and the real Canal 1.1.7 alternate, batch size by batch size and pause by pause, so that both
            // meet the same load
            for (int i = 0; i <= clientBatches.size(); i++) {
                boolean noDelay = i == clientBatches.size();
                int batch = clientBatches.get(noDelay ? 0 : i);
                for (long pause : clientPauses) {
                    if (wants(only, "client")) {
                        add(results, OfficialClientStage.run(target, jvm, batch, noDelay, pause));
                    }
                    if (wants(only, "canal")) {
                        add(results, OfficialClientStage.runReference(target, jvm, batch, noDelay, pause));
                    }
                }
            }
        }
        return results;
    }

    /**
     * The target of the snapshot stage: the parser starts at a small transaction written after the workload, outside
     * the bench schema, so its stream has a transaction end to place the chunks after (docs/snapshots.md, "Limits").
     */
    private static Target snapshotTarget(MySqlServer db, Target target) {
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        db.execute("CREATE DATABASE IF NOT EXISTS bench_marker",
                "CREATE TABLE IF NOT EXISTS bench_marker.snapshot_start (id INT PRIMARY KEY, at BIGINT)",
                "REPLACE INTO bench_marker.snapshot_start VALUES (1, " + System.currentTimeMillis() + ")");
        return new Target(target.host(), target.port(), target.user(), target.password(), start.file(),
                start.position(), target.startMillis(), target.rowChanges(), target.mysqlFlavor(), target.shape(),
                target.schema());
    }

    private static void add(Map<String, List<StageResult>> results, List<StageResult> stageResults) {
        stageResults.forEach(result -> add(results, result));
    }

    private static void add(Map<String, List<StageResult>> results, StageResult result) {
        log.info("{}: {} rows in {} s ({} rows/s), server CPU {} µs/row{}, digest {}", result.stage(), result.rows(),
                String.format("%.2f", result.seconds()), String.format("%.0f", result.rowsPerSecond()),
                String.format("%.2f", result.cpuNanos() / 1e3 / result.rows()), jitShare(result), result.digest());
        results.computeIfAbsent(result.stage(), k -> new ArrayList<>()).add(result);
    }

    /** The JIT compiler threads' part of a run's CPU per row, where the run was profiled; empty otherwise. */
    private static String jitShare(StageResult result) {
        Long jit = result.profile() == null ? null : result.profile().threadCpuNanos().get(ThreadCpu.JIT);
        return jit == null ? "" : String.format(" (JIT %.2f)", jit / 1e3 / result.rows());
    }

    /** The run with the median wall time (the lower middle one for an even count). */
    static StageResult median(List<StageResult> runs) {
        List<StageResult> sorted = runs.stream().sorted(Comparator.comparingLong(StageResult::nanos)).toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static boolean wants(String only, String stage) {
        return only.equals("all") || Arrays.asList(only.split(",")).contains(stage);
    }

    private static List<String> with(List<String> args, String extra) {
        List<String> all = new ArrayList<>(args);
        all.add(extra);
        return all;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options are --name value pairs, got " + Arrays.toString(args));
            }
            o.put(args[i].substring(2), args[++i]);
        }
        return o;
    }
}
