package dev.canal.reliability;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
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
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 3, Duration.ofMillis(3));
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.start();
        runTrials("source database SIGKILL and restart", SCHEMA, writer, random, 300, (trial, consumer) -> {
            source.crash();
            long crashedAt = System.nanoTime();
            int writtenAtCrash = writer.total(); // rows from number writtenAtCrash + 2 on came after the crash
            source.restart();
            long upAt = System.nanoTime();
            daemon.awaitOrShowLogs("a row written after the crash", Duration.ofSeconds(90),
                    () -> consumer.distinctReceived() >= writtenAtCrash + 2);
            long recovery = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - crashedAt);
            log.info("trial {}: database back after {} ms, a row written after the crash arrived {} ms after it", trial,
                    TimeUnit.NANOSECONDS.toMillis(upAt - crashedAt), recovery);
            return recovery;
        });
    }
}
