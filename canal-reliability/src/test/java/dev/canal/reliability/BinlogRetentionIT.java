package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The binlog retention left to each consumer (docs/operations.md, "Binlog retention"), on a source whose binlogs
 * expire after two minutes: a consumer reading along has the whole expiry ahead of it; one that stops while the
 * source rotates sees its figure fall with the age of the file its cursor needs, raises an alarm once it is below
 * the threshold, and is clear again once it catches up; a named consumer reading along meanwhile keeps its own
 * figure. Reading the source's binlog file times leaves the destination's binlog dump alone.
 */
class BinlogRetentionIT extends DaemonScenario {

    private static final String SCHEMA = "rel_retention";
    private static final String METRIC = "canal_instance_binlog_retention_seconds";
    private static final String NAMED = CanalDaemon.DESTINATION + "@audit";
    private static final long EXPIRY = 120;
    private static final long ALARM = 115;

    @Test
    void aConsumerFallingBehindTheExpiryRaisesAnAlarmAndItsFigureFallsWhileAnotherKeepsItsOwn(MySqlServer db)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(40))");
        String expiry = db.variable("binlog_expire_logs_seconds");
        db.execute("SET GLOBAL binlog_expire_logs_seconds = " + EXPIRY);
        try {
            daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
            daemon.set("conf/canal.properties", "canal.instance.network.heartbeatPeriod", "1");
            daemon.edit("conf/example/instance.properties", text -> text
                    + "\ncanal.instance.binlog.retention.check.seconds = 1\n"
                    + "canal.instance.binlog.retention.alarm.seconds = " + ALARM + "\n");
            daemon.start();
            DaemonMetrics metrics = new DaemonMetrics(daemon);
            String example = CanalDaemon.DESTINATION;

            try (KeyedTableConsumer named = new KeyedTableConsumer(NAMED, SCHEMA, daemon.port)) {
                String stoppedIn;
                try (KeyedTableConsumer reading = new KeyedTableConsumer(SCHEMA, daemon.port)) {
                    db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, 'one')");
                    daemon.awaitOrShowLogs("both consumers have the row", Duration.ofSeconds(60),
                            () -> reading.table("t").size() == 1 && named.table("t").size() == 1);
                    daemon.awaitOrShowLogs("the whole expiry ahead of a consumer in the newest binlog",
                            Duration.ofSeconds(60), () -> metrics.value(METRIC, "consumer", example) == EXPIRY);
                    stoppedIn = db.currentBinlogPosition().file();
                }
                db.execute("FLUSH BINARY LOGS");
                daemon.awaitOrShowLogs("the alarm for the consumer that stopped", Duration.ofSeconds(60),
                        () -> daemon.log("logs/example/example.log").contains("ALARM: the source's binlog expiry "
                                + "purges " + stoppedIn + ", which consumer " + example + " still needs"));
                assertThat(metrics.value(METRIC, "consumer", example)).as("the stopped consumer's figure")
                        .isLessThan(ALARM).isGreaterThan(0);
                daemon.awaitOrShowLogs("the named consumer, reading along, in the newest binlog",
                        Duration.ofSeconds(60), () -> metrics.value(METRIC, "consumer", NAMED) == EXPIRY);

                try (KeyedTableConsumer back = new KeyedTableConsumer(SCHEMA, daemon.port)) {
                    daemon.awaitOrShowLogs("the consumer clear again once it caught up", Duration.ofSeconds(60),
                            () -> metrics.value(METRIC, "consumer", example) == EXPIRY
                                    && daemon.log("logs/example/example.log").contains("consumer " + example
                                            + " is " + EXPIRY + " s ahead of the source's binlog expiry again"));
                }
            }
            assertThat(daemon.log("logs/example/example.log")).as("the binlog dump was never cut")
                    .doesNotContain("reconnecting");
        } finally {
            db.execute("SET GLOBAL binlog_expire_logs_seconds = " + expiry);
        }
    }
}
