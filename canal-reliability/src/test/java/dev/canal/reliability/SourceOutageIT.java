package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 3 (docs/reliability.md): the daemon reads its source through a {@link TcpProxy}; while a writer keeps
 * inserting, the proxy drops every connection and refuses new ones until the parser has come back twice (its
 * back-off retries), then accepts again: the parser reconnects and resumes where it was, nothing lost, nothing
 * skipped, order kept.
 */
@ExtendWith(MySqlServerExtension.class)
class SourceOutageIT {

    private static final Logger log = LoggerFactory.getLogger(SourceOutageIT.class);
    private static final String SCHEMA = "rel_source_cut";

    @TempDir
    Path home;

    private CanalDaemon daemon;

    @AfterEach
    void stopDaemon() throws Exception {
        if (daemon != null) {
            daemon.stop();
        }
    }

    @Test
    void parserReconnectsWithBackOffAfterTheSourceConnectionIsCutAndSkipsNothing(MySqlServer db) throws Exception {
        long seed = Long.getLong("reliability.seed", System.nanoTime());
        log.info("SourceOutageIT seed {} (rerun with -Dreliability.seed={})", seed, seed);
        Random random = new Random(seed);
        int trials = ResultsTable.trials();

        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 3, Duration.ofMillis(3));
        List<Long> recoveries = new ArrayList<>();
        try (TcpProxy proxy = new TcpProxy(db.host(), db.port())) {
            daemon = CanalDaemon.unpack(home, db, "127.0.0.1", proxy.port(), SCHEMA, db.currentBinlogPosition());
            daemon.start();
            try (writer; CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
                writer.begin();
                for (int trial = 1; trial <= trials; trial++) {
                    int target = consumer.rows().size() + 100 + random.nextInt(300);
                    await().atMost(Duration.ofSeconds(60)).until(() -> consumer.rows().size() >= target);

                    int acceptedBefore = proxy.accepted();
                    int refusedBefore = proxy.refused();
                    proxy.cutAndRefuse();
                    int writtenAtCut = writer.total();
                    // the source stays away until the parser has retried twice (back-off: ~1 s, then ~2 s)
                    await().atMost(Duration.ofSeconds(60)).until(() -> proxy.refused() >= refusedBefore + 2);
                    proxy.acceptAgain();
                    long reopenedAt = System.nanoTime();
                    await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() > writtenAtCut);
                    ReceivedRow resumed = consumer.firstReceivedAfter(reopenedAt).orElseThrow();
                    recoveries.add(TimeUnit.NANOSECONDS.toMillis(resumed.receivedAtNanos() - reopenedAt));
                    assertThat(proxy.accepted()).as("trial %d: the parser connected again", trial)
                            .isGreaterThan(acceptedBefore);
                    log.info("trial {}: {} connections refused during the outage", trial, proxy.refused() - refusedBefore);
                }
                writer.close();
                await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= writer.total());
                consumer.close();

                DeliveryCheck check = DeliveryCheck.of(writer.committed(), consumer.rows());
                ResultsTable.record("source connection cut and refused (TCP proxy)", trials, check, recoveries);
                assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
                assertThat(check.orderBreaches()).as("%s", check).isEmpty();
                assertThat(check.duplicated()).as("the parser resumes where it was, so no row twice: %s", check).isZero();
                assertThat(daemon.log("logs/example/example.log")).as("the back-off is logged").contains("reconnecting in");
            }
        }
    }
}
