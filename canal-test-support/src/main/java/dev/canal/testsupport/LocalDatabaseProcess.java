package dev.canal.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A private mariadbd (or mysqld) found on PATH, or run by the command in {@value #SERVER_COMMAND_ENV}:
 * initialised in a temporary directory, listening on a free loopback port, stopped when the JVM exits. MySQL
 * servers run with GTIDs on, as the real-mysql tool's servers do; a replica logs what it applies
 * ({@code log_slave_updates}), so a reader may switch to it.
 */
final class LocalDatabaseProcess {

    /**
     * A command that runs a MySQL-compatible server binary, words separated by spaces (e.g. a wrapper that runs a
     * MySQL build not on PATH); the fixture adds every option itself.
     */
    static final String SERVER_COMMAND_ENV = "CANAL_TEST_MYSQLD";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
    private static final List<String> EXTRA_DIRS = List.of("/usr/sbin", "/usr/local/sbin", "/usr/libexec");
    private static final String ROOT_OVER_TCP = """
            SET SESSION sql_log_bin = 0;
            CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
            GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
            """;
    private static final int PRIMARY_SERVER_ID = 1;
    private static final AtomicInteger replicaServerIds = new AtomicInteger(100);

    /** The server binary and how to run it. */
    private record ServerCommand(List<String> words, MySqlServer.Flavor flavor) {

        static ServerCommand of(List<String> words, boolean mariadbBinary) {
            return new ServerCommand(words, mariadbBinary ? MySqlServer.Flavor.MARIADB : MySqlServer.Flavor.MYSQL);
        }

        boolean isMariaDb() {
            return flavor == MySqlServer.Flavor.MARIADB;
        }

        String name() {
            return Path.of(words.get(words.size() - 1)).getFileName().toString();
        }
    }

    static final class NotFoundException extends Exception {
        NotFoundException(String message) {
            super(message);
        }
    }

    private LocalDatabaseProcess() {
    }

    static MySqlServer startFromPath() throws NotFoundException {
        ServerCommand server = serverCommand();
        try {
            return start(server, PRIMARY_SERVER_ID, List.of());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + server.words() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A server of the same kind replicating from {@code primary} from its current binlog position (on MySQL by
     * GTID auto-positioning), with its own server_id and log_slave_updates on; returns once replication runs.
     */
    static MySqlServer startReplicaOf(MySqlServer primary) throws NotFoundException {
        ServerCommand server = serverCommand();
        List<String> replicaOptions = server.isMariaDb() ? List.of("--log-slave-updates")
                : List.of("--log-replica-updates");
        try {
            MySqlServer replica = start(server, replicaServerIds.incrementAndGet(), replicaOptions);
            ReplicationSetup.follow(replica, primary);
            return replica;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a replica of " + primary + " with " + server.words() + ": "
                    + e.getMessage(), e);
        }
    }

    private static ServerCommand serverCommand() throws NotFoundException {
        String configured = System.getenv(SERVER_COMMAND_ENV);
        if (configured != null && !configured.isBlank()) {
            List<String> words = List.of(configured.trim().split("\\s+"));
            return ServerCommand.of(words, isMariaDbBinary(words));
        }
        Optional<Path> mariadbd = findExecutable("mariadbd");
        Optional<Path> mysqld = findExecutable("mysqld");
        Path server = mariadbd.or(() -> mysqld).orElseThrow(
                () -> new NotFoundException("neither mariadbd nor mysqld found on PATH or in " + EXTRA_DIRS
                        + ", and " + SERVER_COMMAND_ENV + " is not set"));
        List<String> words = List.of(server.toString());
        return ServerCommand.of(words, server.getFileName().toString().startsWith("mariadb") || isMariaDbBinary(words));
    }

    private static MySqlServer start(ServerCommand server, int serverId, List<String> extraOptions) throws IOException {
        Path dir = Files.createTempDirectory("canal-test-db");
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Path log = dir.resolve("error.log");
        boolean root = "root".equals(System.getProperty("user.name"));

        initialise(server, data, log, root);

        int port = TcpPorts.free();
        List<String> cmd = new ArrayList<>(server.words());
        cmd.addAll(List.of("--no-defaults",
                "--datadir=" + data, "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mysqld.sock"), "--pid-file=" + dir.resolve("mysqld.pid"),
                "--log-error=" + log, "--log-bin=" + data.resolve("mysql-bin"), "--server-id=" + serverId,
                "--binlog-format=ROW", "--binlog-row-image=FULL", "--skip-name-resolve",
                "--character-set-server=utf8mb4", "--innodb-buffer-pool-size=64M",
                "--max-allowed-packet=64M",
                // room for trials of many destinations over several daemons, each holding connections
                "--max-connections=1000"));
        if (server.isMariaDb()) {
            cmd.add("--collation-server=utf8mb4_general_ci");
            // MariaDB makes no certificates of its own: without these it cannot offer TLS to the TLS tests
            tlsCertificate(dir).ifPresent(cert -> {
                cmd.add("--ssl-cert=" + cert.certificate());
                cmd.add("--ssl-key=" + cert.key());
            });
        } else {
            cmd.add("--binlog-row-metadata=FULL");
            cmd.add("--mysqlx=OFF");
            // a Debian-built mysqld defaults to /var/lib/mysql-files, which a private server may not have
            cmd.add("--secure-file-priv=" + dir);
            // --initialize-insecure makes only root@localhost, which a TCP login from 127.0.0.1 is not
            cmd.add("--init-file=" + Files.writeString(dir.resolve("init.sql"), ROOT_OVER_TCP));
            cmd.add("--gtid-mode=ON");
            cmd.add("--enforce-gtid-consistency=ON");
        }
        cmd.addAll(extraOptions);
        if (root) {
            cmd.add("--user=root");
        }
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process, dir), "stop-test-database"));

        waitUntilReady(process, port, log);
        return TestDatabases.prepare("127.0.0.1", port, "root", "",
                "private " + server.name() + " in " + dir + (serverId == PRIMARY_SERVER_ID ? "" : ", server_id " + serverId));
    }

    private record TlsCertificate(Path certificate, Path key) {
    }

    /** A self-signed certificate made with openssl in {@code dir}; empty (no TLS) where openssl is missing. */
    private static Optional<TlsCertificate> tlsCertificate(Path dir) throws IOException {
        Optional<Path> openssl = findExecutable("openssl");
        if (openssl.isEmpty()) {
            return Optional.empty();
        }
        TlsCertificate cert = new TlsCertificate(dir.resolve("server-cert.pem"), dir.resolve("server-key.pem"));
        Process p = new ProcessBuilder(openssl.get().toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                "-days", "30", "-subj", "/CN=canal-test-db", "-keyout", cert.key().toString(),
                "-out", cert.certificate().toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("openssl could not make a test certificate: "
                        + Files.readString(dir.resolve("openssl.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making a test certificate", e);
        }
        return Optional.of(cert);
    }

    private static void initialise(ServerCommand server, Path data, Path log, boolean root) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (server.isMariaDb()) {
            Path installDb = findExecutable("mariadb-install-db").or(() -> findExecutable("mysql_install_db"))
                    .orElseThrow(() -> new IOException("mariadb-install-db not found for " + server.words()));
            cmd.addAll(List.of(installDb.toString(), "--no-defaults", "--datadir=" + data,
                    "--auth-root-authentication-method=normal", "--skip-test-db"));
        } else {
            cmd.addAll(server.words());
            cmd.addAll(List.of("--no-defaults", "--initialize-insecure", "--datadir=" + data, "--log-error=" + log));
        }
        if (root) {
            cmd.add("--user=root");
        }
        Process init = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(data.getParent().resolve("init.log").toFile()).start();
        try {
            if (!init.waitFor(120, TimeUnit.SECONDS) || init.exitValue() != 0) {
                init.destroyForcibly();
                throw new IOException("initialising the data directory failed: "
                        + Files.readString(data.getParent().resolve("init.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while initialising " + data, e);
        }
    }

    private static void waitUntilReady(Process process, int port, Path log) throws IOException {
        Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
        String url = "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=PREFERRED&allowPublicKeyRetrieval=true";
        SQLException last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("database server exited with " + process.exitValue() + ": " + tail(log));
            }
            try (Connection ignored = DriverManager.getConnection(url, "root", "")) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(200); // polling a process we started; there is no event to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the database server", e);
            }
        }
        throw new IOException("database server not ready after " + STARTUP_TIMEOUT + " ("
                + (last == null ? "" : last.getMessage()) + "): " + tail(log));
    }

    private static void stop(Process process, Path dir) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
        TestDatabases.deleteRecursively(dir);
    }

    private static boolean isMariaDbBinary(List<String> server) {
        try {
            List<String> cmd = new ArrayList<>(server);
            cmd.add("--version");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(10, TimeUnit.SECONDS);
            return out.toLowerCase().contains("mariadb");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static Optional<Path> findExecutable(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(EXTRA_DIRS);
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, name))
                .filter(Files::isExecutable).findFirst();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }
}
