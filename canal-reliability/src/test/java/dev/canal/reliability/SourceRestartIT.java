package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 3b (docs/reliability.md): the source database itself is killed with SIGKILL and started again while
 * the writer and the official client run; the parser reconnects to the restarted server, follows it into the
 * binlog file it opens on start, and every committed row arrives once, in order. Runs only where the fixture's
 * database is a process this JVM started (a private mariadbd); otherwise it is skipped, saying why.
 */
class SourceRestartIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(SourceRestartIT.class);
    private static final String SCHEMA = "rel_source_restart";

    @Test
    void parserFollowsACrashedAndRestartedSourceWithoutLosingRows(MySqlServer db) throws Exception {
        DatabaseProcess source = DatabaseProcess.of(db).orElse(null);
        Assumptions.assumeTrue(source != null, () -> "the test database " + db + " was not started by this JVM, so it "
                + "cannot be restarted here; scenario 3b needs the private mariadbd/mysqld fixture");
        Random random = seededRandom("SourceRestartIT");
        int trials = ResultsTable.trials();

        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 3, Duration.ofMillis(3));
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.start();
        List<Long> recoveries = new ArrayList<>();
        try (writer; CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
            writer.begin();
            for (int trial = 1; trial <= trials; trial++) {
                int target = consumer.rows().size() + 100 + random.nextInt(300);
                await().atMost(Duration.ofSeconds(60)).until(() -> consumer.rows().size() >= target);

                source.crash();
                long crashedAt = System.nanoTime();
                int writtenAtCrash = writer.total(); // rows from number writtenAtCrash + 2 on came after the crash
                source.restart();
                long upAt = System.nanoTime();
                daemon.awaitOrShowLogs("a row written after the crash", Duration.ofSeconds(90),
                        () -> consumer.distinctReceived() >= writtenAtCrash + 2);
                recoveries.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - crashedAt));
                log.info("trial {}: database back after {} ms, a row written after the crash arrived {} ms after it", trial,
                        TimeUnit.NANOSECONDS.toMillis(upAt - crashedAt), recoveries.get(recoveries.size() - 1));
            }
            writer.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= writer.total());
            consumer.close();

            DeliveryCheck check = DeliveryCheck.of(writer.committed(), consumer.rows());
            ResultsTable.record("source database SIGKILL and restart", trials, check, recoveries);
            assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
            assertThat(check.orderBreaches()).as("%s", check).isEmpty();
        }
    }
}
