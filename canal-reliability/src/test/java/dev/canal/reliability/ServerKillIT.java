package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 1 (docs/reliability.md): the daemon from the tarball, with file meta, is killed with SIGKILL at a random
 * moment while a writer keeps inserting and the official client consumes with getWithoutAck + ack; after each
 * restart the stream resumes exactly after the cursor meta.dat held, and at the end every committed row was
 * received, in order per table.
 */
class ServerKillIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(ServerKillIT.class);
    private static final String SCHEMA = "rel_server_kill";

    @Test
    void sigkillDuringWritesLosesNoRowAndResumesAfterThePersistedCursor(MySqlServer db) throws Exception {
        Random random = seededRandom("ServerKillIT");
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 3, Duration.ofMillis(3));
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.start();
        runTrials("server SIGKILL during writes", SCHEMA, writer, random, 400, (trial, consumer) -> {
            daemon.kill9();
            long killedAt = System.nanoTime();
            Optional<BinlogPoint> cursor = daemon.persistedCursor();
            int firstNewSession = consumer.sessions();
            log.info("trial {}: killed after {} rows received; meta.dat cursor {}", trial, consumer.rows().size(),
                    cursor);
            daemon.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> consumer.firstReceivedAfter(killedAt)
                    .filter(row -> row.session() >= firstNewSession).isPresent());
            ReceivedRow resumed = consumer.firstReceivedAfter(killedAt).orElseThrow();

            assertThat(resumed.position()).as("trial %d: first row after the restart vs the next row after the "
                    + "persisted cursor %s", trial, cursor).isEqualTo(firstRowAfter(consumer.rows(), cursor));
            return TimeUnit.NANOSECONDS.toMillis(resumed.receivedAtNanos() - killedAt);
        });
    }

    /** The earliest binlog position of any received row past the cursor (any row at all without a cursor). */
    private static BinlogPoint firstRowAfter(List<ReceivedRow> rows, Optional<BinlogPoint> cursor) {
        return rows.stream().map(ReceivedRow::position)
                .filter(position -> cursor.map(c -> position.compareTo(c) > 0).orElse(true))
                .min(Comparator.naturalOrder()).orElseThrow();
    }
}
