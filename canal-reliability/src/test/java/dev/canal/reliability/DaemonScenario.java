package dev.canal.reliability;

import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What every scenario shares: the real database fixture, a temporary home for the daemon's unpacked tarball,
 * and the daemon under test, stopped after each test whatever happened.
 */
@ExtendWith(MySqlServerExtension.class)
abstract class DaemonScenario {

    @TempDir
    Path home;

    CanalDaemon daemon;

    /** The scenario's randomness, seeded by {@code -Dreliability.seed} or the clock; the seed is logged for reruns. */
    Random seededRandom(String scenario) {
        long seed = Long.getLong("reliability.seed", System.nanoTime());
        LoggerFactory.getLogger(getClass()).info("{} seed {} (rerun with -Dreliability.seed={})", scenario, seed, seed);
        return new Random(seed);
    }

    @AfterEach
    void stopDaemon() throws Exception {
        if (daemon != null) {
            daemon.stop();
        }
    }
}
