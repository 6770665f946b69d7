package dev.canal.reliability;

import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fixture's database server process, when this JVM started it (a private mariadbd/mysqld on PATH): it can be
 * killed with SIGKILL and started again with the same command line, data directory and port. A server named by
 * an environment variable or run in a container is not ours to restart ({@link #of} is then empty).
 */
final class DatabaseProcess {

    private final MySqlServer db;
    private final List<String> commandLine;
    private ProcessHandle process;

    private DatabaseProcess(MySqlServer db, ProcessHandle process, List<String> commandLine) {
        this.db = db;
        this.process = process;
        this.commandLine = commandLine;
    }

    static Optional<DatabaseProcess> of(MySqlServer db) {
        String portFlag = "--port=" + db.port();
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().arguments().map(args -> List.of(args).contains(portFlag)).orElse(false))
                .findFirst()
                .map(p -> {
                    List<String> command = new ArrayList<>();
                    command.add(p.info().command().orElseThrow());
                    command.addAll(List.of(p.info().arguments().orElseThrow()));
                    return new DatabaseProcess(db, p, command);
                });
    }

    /** SIGKILL: a crash; InnoDB and binlog recovery run on the next start. */
    void crash() {
        ProcessHandle old = process;
        old.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !old.isAlive());
    }

    /** The same command line again; returns when the server answers. */
    void restart() throws IOException {
        Path log = Path.of("target", "database-restart-" + db.port() + ".log").toAbsolutePath();
        Process restarted = new ProcessBuilder(commandLine).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Runtime.getRuntime().addShutdownHook(new Thread(restarted::destroy, "stop-restarted-database"));
        process = restarted.toHandle();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("the restarted database exited; see " + log, () -> !restarted.isAlive())
                .until(this::answers);
    }

    private boolean answers() {
        try (Connection ignored = db.adminConnection()) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
