package dev.canal.bench.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.alibaba.otter.canal.protocol.CanalEntry;
import dev.canal.bench.ReferenceCanal;
import dev.canal.deployer.CanalController;
import dev.canal.deployer.CanalLauncher;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Canal 1.1.7 and our server read the same binlog ({@link DifferentialWorkload}) from the same start
 * position, each serving the same destinations ({@link Variant}: filters, switches, a client's subscribe filter, a
 * GTID dump resumed from its saved cursor), both in UTC whatever this JVM's zone; the unmodified official client
 * drains each destination of each, and every entry must be the same, field by field ({@link EntryFields}:
 * transaction begin and end entries included, in the same order and number, position fields too:
 * {@link EntryComparison}), but for the differences docs/compatibility.md lists ({@link KnownDifference}), each
 * where it applies only; each listed difference the run can show must show, or the list is out of date. Where Canal
 * is wrong, our rows are checked against what SELECT returned. The failure lists every other difference.
 *
 * <p>Once on the source's default row metadata (MySQL's MINIMAL, MariaDB's NO_LOG), where both servers take names
 * from their schema history, and once on MySQL with FULL. Each run starts each server twice: first with the
 * {@value Variant#RESUMED} destination alone, drained through the first part of the workload; then, the second part
 * written, with every destination.
 */
@ExtendWith(MySqlServerExtension.class)
class DifferentialConformanceIT {

    private static final String SCHEMA = "differential_it";
    private static final long DRAIN_MILLIS = 90_000;
    /** Away from the fixture's, the bench's (64_123..64_125) and the other tests' replica ids; one per destination. */
    private static final long OUR_SLAVE_IDS = 64_210;
    private static final long REFERENCE_SLAVE_IDS = 64_230;
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    /** Our server also serves the tables Canal cannot read, to check our rows of them against SELECT. */
    private static final String OURS_ONLY = "unreadable_by_canal";

    @Test
    void officialClientReceivesTheSameEntriesOnTheSourcesDefaultRowMetadata(MySqlServer db, @TempDir Path work)
            throws Exception {
        compare(db, db.isMariaDb() ? "NO_LOG" : "MINIMAL", work);
    }

    @Test
    void officialClientReceivesTheSameEntriesOnMysqlsFullRowMetadata(MySqlServer db, @TempDir Path work)
            throws Exception {
        assumeFalse(db.isMariaDb(), "MariaDB is compared on its default row metadata, NO_LOG");
        compare(db, "FULL", work);
    }

    private static void compare(MySqlServer db, String rowMetadata, Path work) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("DROP DATABASE IF EXISTS " + SCHEMA + "_other", "FLUSH BINARY LOGS");
        Start start = new Start(db.currentBinlogPosition(), nowMillis(db),
                db.isMariaDb() ? null : db.variable("gtid_executed").replace("\n", ""));
        List<Variant> variants = Variant.all(SCHEMA, start.gtid());
        List<Variant> firstRun = variants.stream().filter(v -> v.name().equals(Variant.RESUMED)
                || v.name().equals(Variant.SUBSCRIBED)).toList();
        String label = db.flavor().name().toLowerCase(Locale.ROOT) + "-" + rowMetadata.toLowerCase(Locale.ROOT);

        Map<String, List<Map<String, String>>> selected = new LinkedHashMap<>();
        Sides firstPart;
        Sides all;
        try (MySqlServer.GlobalSetting metadata = db.setGlobal("binlog_row_metadata", rowMetadata)) {
            selected.putAll(WorkloadRunner.run(db, DifferentialWorkload.firstPart(SCHEMA, !db.isMariaDb())));
            firstPart = serve(db, start, firstRun, work, DifferentialConformanceIT::isMidMarker, Map.of(),
                    label + "-first");
            selected.putAll(WorkloadRunner.run(db, DifferentialWorkload.secondPart(SCHEMA, !db.isMariaDb())));
            all = serve(db, start, variants, work, DifferentialConformanceIT::isEndMarker, firstPart.lengths(), label);
        }
        RunContext context = RunContext.of(db, rowMetadata, all.ours().get("all"));

        List<String> unexplained = new ArrayList<>();
        KnownDifference.Tally tally = new KnownDifference.Tally();
        for (Variant variant : variants) {
            List<EntryFields> canal = firstPart.canal().getOrDefault(variant.name(), List.of());
            List<EntryFields> ours = firstPart.ours().getOrDefault(variant.name(), List.of());
            canal = variant.compared(concat(canal, all.canal().get(variant.name())));
            ours = variant.compared(concat(ours, all.ours().get(variant.name())));
            writeListing(label + "-" + variant.name() + "-canal", canal);
            writeListing(label + "-" + variant.name() + "-ours", ours);
            assertThat(canal).as("entries Canal delivered to %s", variant.name()).isNotEmpty();
            for (String difference : tally.explain(EntryComparison.differences(canal, ours), canal, ours, context)) {
                unexplained.add(variant.name() + ": " + difference);
            }
        }
        System.out.println("differential test on " + db + " with binlog_row_metadata=" + rowMetadata
                + ": known differences " + tally.counts());
        assertThat(unexplained).as("differences between Canal 1.1.7 and ours on %s, binlog_row_metadata=%s", db,
                rowMetadata).isEmpty();
        assertThat(tally.missing(context)).as("listed differences that no longer occur (docs/compatibility.md)")
                .isEmpty();
        SelectCheck.ourRowsAreWhatSelectReturned(db, concat(all.ours().get("all"), all.ours().get(OURS_ONLY)),
                selected);
    }

    /** Where both servers start: the binlog position and time before the workload, and the GTID set on MySQL. */
    private record Start(MySqlServer.BinlogCoordinates position, long millis, String gtid) {
    }

    /** What each server delivered, by destination. */
    private record Sides(Map<String, List<EntryFields>> canal, Map<String, List<EntryFields>> ours) {

        Map<String, Integer> lengths() {
            Map<String, Integer> lengths = new LinkedHashMap<>();
            canal.forEach((name, entries) -> lengths.put("canal/" + name, entries.size()));
            ours.forEach((name, entries) -> lengths.put("ours/" + name, entries.size()));
            return lengths;
        }
    }

    /**
     * Starts Canal with {@code variants}, drains each to {@code last}, stops it; then ours, the same way. Both keep
     * their cursors and schema histories in {@code work}, so a second call resumes what a first one acked.
     * {@code drained} gives the entries each side's destination delivered before, to number the new ones after them.
     */
    private static Sides serve(MySqlServer db, Start start, List<Variant> variants, Path work,
            Predicate<CanalEntry.Entry> last, Map<String, Integer> drained, String label) throws Exception {
        boolean firstRun = drained.isEmpty();
        Map<String, List<EntryFields>> canal = new LinkedHashMap<>();
        List<ReferenceCanal.Destination> destinations = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            Variant v = variants.get(i);
            Map<String, String> settings = new LinkedHashMap<>(v.settings());
            settings.put("meta.dir", work.resolve("reference-meta").toString());
            destinations.add(new ReferenceCanal.Destination(v.name(), db.host(), db.port(), db.replicationUser(),
                    db.replicationPassword(), start.position().file(), start.position().position(), start.millis(),
                    v.filters(), 1024, REFERENCE_SLAVE_IDS + i, settings));
        }
        // the reference's JVM runs with -Duser.timezone=UTC
        try (ReferenceCanal reference = ReferenceCanal.start(destinations, List.of("-Xms256m", "-Xmx768m"),
                work.resolve("reference"))) {
            for (Variant v : variants) {
                if (firstRun && v.name().equals(Variant.SUBSCRIBED)) {
                    OfficialClientDrain.subscribe(reference.port(), v.name(), v.clientFilter());
                } else {
                    canal.put(v.name(), OfficialClientDrain.drain(reference.port(), v.name(), v.clientFilter(), last,
                            DRAIN_MILLIS, drained.getOrDefault("canal/" + v.name(), 0)));
                }
            }
            Files.copy(reference.log(), listingDir().resolve(label + "-canal.log"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Map<String, List<EntryFields>> ours = new LinkedHashMap<>();
        boolean oursOnly = !firstRun;
        // ours renders TIMESTAMP in the JVM's zone, as Canal does: UTC while it runs, whatever this JVM's default
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(UTC);
        try {
            CanalController controller = CanalLauncher.start(ourServer(work.resolve("ours"), db, start, variants,
                    oursOnly));
            try {
                for (Variant v : variants) {
                    if (firstRun && v.name().equals(Variant.SUBSCRIBED)) {
                        OfficialClientDrain.subscribe(controller.port(), v.name(), v.clientFilter());
                    } else {
                        ours.put(v.name(), OfficialClientDrain.drain(controller.port(), v.name(), v.clientFilter(),
                                last, DRAIN_MILLIS, drained.getOrDefault("ours/" + v.name(), 0)));
                    }
                }
                if (oursOnly) {
                    ours.put(OURS_ONLY, OfficialClientDrain.drain(controller.port(), OURS_ONLY, null, last,
                            DRAIN_MILLIS, 0));
                }
            } finally {
                controller.stop();
            }
        } finally {
            TimeZone.setDefault(zone);
        }
        return new Sides(canal, ours);
    }

    /** canal.properties and each destination's instance.properties of our server: the same starts and filters. */
    private static Source ourServer(Path conf, MySqlServer db, Start start, List<Variant> variants, boolean oursOnly)
            throws IOException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            Variant v = variants.get(i);
            writeInstance(conf, db, start, v.name(), v.filters(), v.settings(), OUR_SLAVE_IDS + i);
            names.add(v.name());
        }
        if (oursOnly) {
            writeInstance(conf, db, start, OURS_ONLY, ReferenceCanal.Filters.tables(SCHEMA + "\\.("
                    + String.join("|", DifferentialWorkload.TABLES_CANAL_CANNOT_READ) + "|"
                    + DifferentialWorkload.END_TABLE + ")"),
                    Map.of(), OUR_SLAVE_IDS + variants.size());
            names.add(OURS_ONLY);
        }
        Properties server = new Properties();
        server.setProperty("canal.port", "0");
        server.setProperty("canal.metrics.pull.port", "0");
        server.setProperty("canal.conf.dir", conf.toString());
        server.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        server.setProperty("canal.destinations", String.join(",", names));
        return new Source(conf.resolve("canal.properties").toString(), server);
    }

    private static void writeInstance(Path conf, MySqlServer db, Start start, String name,
            ReferenceCanal.Filters filters, Map<String, String> settings, long slaveId) throws IOException {
        Properties instance = new Properties();
        instance.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        instance.setProperty("canal.instance.master.journal.name", start.position().file());
        instance.setProperty("canal.instance.master.position", Long.toString(start.position().position()));
        instance.setProperty("canal.instance.master.timestamp", Long.toString(start.millis()));
        instance.setProperty("canal.instance.dbUsername", db.replicationUser());
        instance.setProperty("canal.instance.dbPassword", db.replicationPassword());
        instance.setProperty("canal.instance.mysql.slaveId", Long.toString(slaveId));
        instance.setProperty("canal.instance.filter.regex", filters.regex());
        putIfSet(instance, "canal.instance.filter.black.regex", filters.blackRegex());
        putIfSet(instance, "canal.instance.filter.field", filters.field());
        putIfSet(instance, "canal.instance.filter.black.field", filters.blackField());
        settings.forEach((key, value) -> instance.setProperty("canal.instance." + key, value));
        Path dir = Files.createDirectories(conf.resolve(name));
        try (var out = Files.newBufferedWriter(dir.resolve("instance.properties"))) {
            instance.store(out, null);
        }
    }

    private static boolean isMidMarker(CanalEntry.Entry entry) {
        return entry.getHeader().getTableName().equals(DifferentialWorkload.MID_TABLE);
    }

    /** Any entry of the end marker's table, its CREATE or its INSERT: each variant keeps one of them at least. */
    private static boolean isEndMarker(CanalEntry.Entry entry) {
        return entry.getHeader().getTableName().equals(DifferentialWorkload.END_TABLE);
    }

    private static List<EntryFields> concat(List<EntryFields> first, List<EntryFields> then) {
        List<EntryFields> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }

    /**
     * One line per entry (position, title, statement), and one per field, in target/differential/, to read a
     * failure's entries side by side (Canal's log is copied there too).
     */
    private static void writeListing(String name, List<EntryFields> entries) throws IOException {
        Path dir = listingDir();
        Files.write(dir.resolve(name + ".txt"), entries.stream().map(EntryFields::line).toList());
        Files.write(dir.resolve(name + "-fields.txt"), entries.stream()
                .flatMap(e -> e.fields().entrySet().stream().map(f -> "#" + e.index() + " " + f.getKey() + " = "
                        + (f.getValue().length() > 200 ? f.getValue().substring(0, 200) + "..." : f.getValue())))
                .toList());
    }

    private static Path listingDir() throws IOException {
        return Files.createDirectories(Path.of("target", "differential"));
    }

    private static void putIfSet(Properties p, String key, String value) {
        if (value != null) {
            p.setProperty(key, value);
        }
    }

    private static long nowMillis(MySqlServer db) throws Exception {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
