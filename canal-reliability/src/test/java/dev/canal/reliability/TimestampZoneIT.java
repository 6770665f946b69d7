package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TIMESTAMP values are rendered in the server JVM's zone unless a destination names another with
 * {@code canal.instance.timestamp.zone} (docs/operations.md, "Time zones"): one daemon, whose JVM runs in New York,
 * serves a destination without the key and one set to Shanghai; both read the same rows, one through an initial
 * snapshot and one from the binlog, one in winter and one in summer time.
 */
class TimestampZoneIT extends DaemonScenario {

    private static final String SCHEMA = "rel_zone";
    private static final String ZONED = "zoned";

    @Test
    void timestampsAreRenderedInTheJvmZoneByDefaultAndInTheZoneADestinationNames(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL)",
                "SET time_zone = '+00:00'", // the instants below are UTC, whatever the session's zone
                "INSERT INTO " + SCHEMA + ".t VALUES (1, '2024-01-15 12:00:00.250')");
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.javaOpts("-Xmx256m -Xms64m -Duser.timezone=America/New_York");
        daemon.edit("conf/example/instance.properties", text -> text + "\ncanal.instance.snapshot.mode = initial\n");
        Path zoned = Files.createDirectories(daemon.home.resolve("conf").resolve(ZONED));
        Files.writeString(zoned.resolve("instance.properties"),
                Files.readString(daemon.home.resolve("conf/example/instance.properties"))
                        + "canal.instance.timestamp.zone = Asia/Shanghai\n");
        daemon.set("conf/canal.properties", "canal.destinations", CanalDaemon.DESTINATION + "," + ZONED);
        daemon.start();

        try (KeyedTableConsumer jvmZone = new KeyedTableConsumer(SCHEMA, daemon.port);
                KeyedTableConsumer shanghai = new KeyedTableConsumer(ZONED, SCHEMA, daemon.port)) {
            db.execute("SET time_zone = '+00:00'", "INSERT INTO " + SCHEMA + ".t VALUES (2, '2024-07-15 12:00:00.250')");
            daemon.awaitOrShowLogs("both rows at both destinations", Duration.ofSeconds(90),
                    () -> jvmZone.table("t").size() == 2 && shanghai.table("t").size() == 2);

            assertThat(timestamps(jvmZone.table("t"))).as("the JVM's zone, New York: EST, then EDT")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("1", "2024-01-15 07:00:00.250",
                            "2", "2024-07-15 08:00:00.250"));
            assertThat(timestamps(shanghai.table("t"))).as("the zone the destination names")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("1", "2024-01-15 20:00:00.250",
                            "2", "2024-07-15 20:00:00.250"));
            assertThat(jvmZone.snapshotRows()).as("row 1 came from the snapshot").isEqualTo(1);
            assertThat(shanghai.snapshotRows()).isEqualTo(1);
        }
    }

    private static Map<String, String> timestamps(Map<String, Map<String, String>> rows) {
        return rows.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                row -> row.getValue().get("ts")));
    }
}
