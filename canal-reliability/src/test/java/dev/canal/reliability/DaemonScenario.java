package dev.canal.reliability;

import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every scenario shares: the real database fixture, a temporary home for the daemon's unpacked tarball,
 * and the daemon under test, stopped after each test whatever happened.
 */
@ExtendWith(MySqlServerExtension.class)
abstract class DaemonScenario {

    @TempDir
    Path home;

    CanalDaemon daemon;

    @AfterEach
    void stopDaemon() throws Exception {
        if (daemon != null) {
            daemon.stop();
        }
    }
}
