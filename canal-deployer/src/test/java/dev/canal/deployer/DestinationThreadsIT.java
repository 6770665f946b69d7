package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A destination costs a fixed handful of threads, however many run in one daemon: its reader, the parallel
 * parser's stages 1 and 3 and its row workers ({@code parallelThreadSize}), and its meta file's flusher, each
 * named after it. Everything else (the TCP server's event loops and session pool) is shared. docs/performance.md,
 * "Many destinations", has what a destination costs in memory.
 */
@ExtendWith(MySqlServerExtension.class)
class DestinationThreadsIT {

    private static final String SCHEMA = "deployer_threads";
    private static final int DESTINATIONS = 4;
    private static final int ROW_WORKERS = 1;
    /** reader, stage 1, the row workers, stage 3, meta file flusher */
    private static final int THREADS_PER_DESTINATION = 4 + ROW_WORKERS;
    /** the TCP server's boss, event loops (two per core at most) and a session thread per client */
    private static final int SHARED_THREADS = 2 + 2 * Runtime.getRuntime().availableProcessors() + DESTINATIONS;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path conf;

    @AutoClose("stop")
    private CanalController controller;

    @Test
    void eachDestinationRunsAFixedHandfulOfThreadsNamedAfterIt(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= DESTINATIONS; i++) {
            String name = "threads" + i;
            names.add(name);
            RealSourceConf.writeInstance(conf, name, db, SCHEMA, "canal.instance.parser.parallel=true",
                    "canal.instance.parser.parallelThreadSize=" + ROW_WORKERS,
                    "canal.instance.mysql.slaveId=" + (64_700 + i));
        }
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, String.join(",", names)));
        List<ClientIdentity> clients = names.stream().map(n -> new ClientIdentity(n, (short) 1001)).toList();
        clients.forEach(controller.server()::subscribe);
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, 'one')");
        for (ClientIdentity client : clients) {
            await().atMost(WAIT).until(() -> {
                Message batch = controller.server().getWithoutAck(client, 100, 100L, TimeUnit.MILLISECONDS);
                if (batch.isEmpty()) {
                    return false;
                }
                controller.server().ack(client, batch.id());
                return true;
            });
        }

        List<String> started = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive()).map(Thread::getName).toList();
        for (String name : names) {
            assertThat(started.stream().filter(t -> t.endsWith(name) || t.contains(name + "-")).toList())
                    .as("threads of destination %s", name)
                    .hasSize(THREADS_PER_DESTINATION);
        }
        Set<String> ofNoDestination = started.stream()
                .filter(t -> names.stream().noneMatch(n -> t.endsWith(n) || t.contains(n + "-")))
                .collect(Collectors.toSet());
        assertThat(started.size() - DESTINATIONS * THREADS_PER_DESTINATION)
                .as("threads shared by all destinations: %s", ofNoDestination)
                .isLessThanOrEqualTo(SHARED_THREADS);
    }
}
