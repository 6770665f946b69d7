package dev.canal.bench.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.protocol.CanalEntry;
import dev.canal.bench.ReferenceCanal;
import dev.canal.deployer.CanalController;
import dev.canal.deployer.CanalLauncher;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Canal 1.1.7 and our server read the same binlog (a scripted workload of many column types at their
 * edges, row changes, DDL of several kinds, XA, MINIMAL and NOBLOB row images, a binlog rotation and, on MySQL,
 * compressed transactions and partial JSON: {@link DifferentialWorkload}) from the same start position with the same
 * filters, both in UTC whatever this JVM's zone; the unmodified official client drains each, and every entry must be
 * the same, field by field ({@link EntryFields}: transaction begin and end entries included, in the same order and
 * number, position fields too: {@link EntryComparison}), but for the differences docs/compatibility.md lists
 * ({@link KnownDifference}). The failure lists every other difference. Once with every table of the schema, once
 * with a white list, a black list and field filters of both kinds.
 */
@ExtendWith(MySqlServerExtension.class)
class DifferentialConformanceIT {

    private static final String SCHEMA = "differential_it";
    private static final String DESTINATION = "differential";
    private static final long DRAIN_MILLIS = 60_000;
    /** Away from the fixture's, the bench's (64_123..64_125) and the other tests' replica ids. */
    private static final long OUR_SLAVE_ID = 64_201;
    private static final long REFERENCE_SLAVE_ID = 64_202;
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

    /** Every table of the workload's schema. */
    private static final ReferenceCanal.Filters ALL_TABLES = ReferenceCanal.Filters.tables(SCHEMA + "\\..*");

    /**
     * A white list leaving out the XA and partial JSON tables, a black list of one of a RENAME's two names and of a
     * table the white list names, columns kept of two tables and dropped of a third.
     */
    private static final ReferenceCanal.Filters FILTERED = new ReferenceCanal.Filters(
            String.join(",", SCHEMA + "\\.t_types", SCHEMA + "\\.t_side.*", SCHEMA + "\\.t_more",
                    SCHEMA + "\\.t_images", SCHEMA + "\\." + DifferentialWorkload.END_TABLE),
            String.join(",", SCHEMA + "\\.t_side_renamed", SCHEMA + "\\.t_images"),
            SCHEMA + ".t_types:id/c_vc/c_json/c_i/c_added," + SCHEMA + ".t_side_again:id/note",
            SCHEMA + ".t_more:c_f73/c_d156");

    @Test
    void officialClientReceivesTheSameEntriesFromCanalAndFromOurServer(MySqlServer db, @TempDir Path work)
            throws Exception {
        compare(db, ALL_TABLES, work);
    }

    @Test
    void tableAndFieldFiltersPassTheSameEntriesAndColumnsAsCanals(MySqlServer db, @TempDir Path work)
            throws Exception {
        compare(db, FILTERED, work);
    }

    private static void compare(MySqlServer db, ReferenceCanal.Filters filters, Path work) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("FLUSH BINARY LOGS");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        long startMillis = nowMillis(db);
        db.execute(DifferentialWorkload.statements(SCHEMA, !db.isMariaDb()).toArray(String[]::new));
        Predicate<CanalEntry.Entry> last = DifferentialWorkload::isEndMarker;

        List<EntryFields> canal;
        ReferenceCanal.Destination destination = new ReferenceCanal.Destination(DESTINATION, db.host(), db.port(),
                db.replicationUser(), db.replicationPassword(), start.file(), start.position(), startMillis, filters,
                1024, REFERENCE_SLAVE_ID);
        // the reference's JVM runs with -Duser.timezone=UTC
        try (ReferenceCanal reference = ReferenceCanal.start(destination, List.of("-Xms256m", "-Xmx512m"),
                work.resolve("reference"))) {
            canal = OfficialClientDrain.drain(reference.port(), DESTINATION, last, DRAIN_MILLIS);
            Files.copy(reference.log(), listingDir().resolve(listingName(db, filters, "canal") + ".log"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        List<EntryFields> ours;
        // ours renders TIMESTAMP in the JVM's zone, as Canal does: UTC while it runs, whatever this JVM's default
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(UTC);
        try {
            CanalController controller = CanalLauncher.start(
                    ourServer(work.resolve("ours"), db, start, startMillis, filters));
            try {
                ours = OfficialClientDrain.drain(controller.port(), DESTINATION, last, DRAIN_MILLIS);
            } finally {
                controller.stop();
            }
        } finally {
            TimeZone.setDefault(zone);
        }

        writeListing(db, filters, "canal", canal);
        writeListing(db, filters, "ours", ours);
        List<String> unexplained = new ArrayList<>();
        Map<KnownDifference, Integer> explained = new EnumMap<>(KnownDifference.class);
        for (Difference d : EntryComparison.differences(canal, ours)) {
            EntryFields canalEntry = d.index() < canal.size() ? canal.get(d.index()) : null;
            KnownDifference known = KnownDifference.explaining(d, canalEntry);
            if (known == null) {
                unexplained.add(d.toString());
            } else {
                explained.merge(known, 1, Integer::sum);
            }
        }
        System.out.println("differential test on " + db + " with " + filters + ": Canal delivered " + canal.size()
                + " entries, ours " + ours.size() + "; known differences " + explained);
        assertThat(canal).as("entries Canal delivered").isNotEmpty();
        assertThat(unexplained)
                .as("differences between Canal 1.1.7 (%d entries) and ours (%d entries) on %s", canal.size(),
                        ours.size(), db)
                .isEmpty();
    }

    /** canal.properties and the destination's instance.properties of our server: the same start and filter. */
    private static Source ourServer(Path conf, MySqlServer db, MySqlServer.BinlogCoordinates start,
            long startMillis, ReferenceCanal.Filters filters) throws Exception {
        Properties instance = new Properties();
        instance.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        instance.setProperty("canal.instance.master.journal.name", start.file());
        instance.setProperty("canal.instance.master.position", Long.toString(start.position()));
        instance.setProperty("canal.instance.master.timestamp", Long.toString(startMillis));
        instance.setProperty("canal.instance.dbUsername", db.replicationUser());
        instance.setProperty("canal.instance.dbPassword", db.replicationPassword());
        instance.setProperty("canal.instance.mysql.slaveId", Long.toString(OUR_SLAVE_ID));
        instance.setProperty("canal.instance.filter.regex", filters.regex());
        putIfSet(instance, "canal.instance.filter.black.regex", filters.blackRegex());
        putIfSet(instance, "canal.instance.filter.field", filters.field());
        putIfSet(instance, "canal.instance.filter.black.field", filters.blackField());
        Path dir = Files.createDirectories(conf.resolve(DESTINATION));
        try (var out = Files.newBufferedWriter(dir.resolve("instance.properties"))) {
            instance.store(out, null);
        }
        Properties server = new Properties();
        server.setProperty("canal.port", "0");
        server.setProperty("canal.metrics.pull.port", "0");
        server.setProperty("canal.conf.dir", conf.toString());
        server.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        server.setProperty("canal.destinations", DESTINATION);
        return new Source(conf.resolve("canal.properties").toString(), server);
    }

    /**
     * One line per entry (position, title, statement), and one per field, in target/differential/, to read a
     * failure's entries side by side (Canal's log is copied there too).
     */
    private static void writeListing(MySqlServer db, ReferenceCanal.Filters filters, String side,
            List<EntryFields> entries) throws java.io.IOException {
        Path dir = listingDir();
        String name = listingName(db, filters, side);
        Files.write(dir.resolve(name + ".txt"), entries.stream().map(EntryFields::line).toList());
        Files.write(dir.resolve(name + "-fields.txt"), entries.stream()
                .flatMap(e -> e.fields().entrySet().stream().map(f -> "#" + e.index() + " " + f.getKey() + " = "
                        + (f.getValue().length() > 200 ? f.getValue().substring(0, 200) + "..." : f.getValue())))
                .toList());
    }

    private static Path listingDir() throws java.io.IOException {
        return Files.createDirectories(Path.of("target", "differential"));
    }

    private static String listingName(MySqlServer db, ReferenceCanal.Filters filters, String side) {
        return db.flavor().name().toLowerCase(java.util.Locale.ROOT) + "-"
                + (filters == ALL_TABLES ? "all" : "filtered") + "-" + side;
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
