package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What every scenario shares: the real database fixture, a temporary home for the daemon's unpacked tarball,
 * and the daemon under test, stopped after each test whatever happened.
 */
@ExtendWith(MySqlServerExtension.class)
abstract class DaemonScenario {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed scenario keeps its daemons' logs
    Path home;

    CanalDaemon daemon;

    /** The scenario's randomness, seeded by {@code -Dreliability.seed} or the clock; the seed is logged for reruns. */
    Random seededRandom(String scenario) {
        long seed = Long.getLong("reliability.seed", System.nanoTime());
        LoggerFactory.getLogger(getClass()).info("{} seed {} (rerun with -Dreliability.seed={})", scenario, seed, seed);
        return new Random(seed);
    }

    /** One trial's fault and the wait for the stream to recover from it; returns how long that took, in ms. */
    @FunctionalInterface
    interface Fault {

        long strike(int trial, CheckingConsumer consumer) throws Exception;
    }

    /**
     * The trials of a fault against the started {@link #daemon}: {@code writer} inserts into {@code schema} and
     * the official client consumes; before each trial the client receives 100 to 100 + {@code spread} more rows,
     * then {@code fault} strikes. Once every committed row arrived, the delivery check is recorded under
     * {@code scenario}; nothing may be lost and each table's order must hold.
     *
     * @return the check, for what the scenario asserts on top
     */
    DeliveryCheck runTrials(String scenario, String schema, RowWriter writer, Random random, int spread, Fault fault)
            throws Exception {
        int trials = ResultsTable.trials();
        List<Long> recoveries = new ArrayList<>();
        try (writer; CheckingConsumer consumer = new CheckingConsumer(daemon.port, schema, 0)) {
            writer.begin();
            for (int trial = 1; trial <= trials; trial++) {
                int target = consumer.rows().size() + 100 + random.nextInt(spread);
                daemon.awaitOrShowLogs("rows before the fault", Duration.ofSeconds(120),
                        () -> consumer.rows().size() >= target);
                recoveries.add(fault.strike(trial, consumer));
            }
            writer.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= writer.total());
            consumer.close();

            DeliveryCheck check = DeliveryCheck.of(writer.committed(), consumer.rows());
            ResultsTable.record(scenario, trials, check, recoveries);
            assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
            assertThat(check.orderBreaches()).as("%s", check).isEmpty();
            return check;
        }
    }

    @AfterEach
    void stopDaemon() throws Exception {
        if (daemon != null) {
            daemon.stop();
        }
    }
}
