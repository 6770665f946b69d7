package dev.canal.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private RabbitMQ node from Debian's {@code rabbitmq-server} package (installed by .ci/run), run as this user in a
 * temporary directory: its own node name, database (RABBITMQ_MNESIA_BASE), logs (RABBITMQ_LOG_BASE), no plugins, and
 * free loopback ports for AMQP, Erlang distribution and its own epmd, so it never meets a system broker or another
 * test's. It can be killed and started again on the same ports and data, as an operator's restart would. The
 * default {@code guest} login works from loopback.
 *
 * <p>Where the package is not installed, {@link #start()} aborts the test (JUnit reports it skipped) saying so;
 * {@code CANAL_TEST_RABBITMQ_SERVER} may name another {@code rabbitmq-server} script.
 */
public final class RabbitMqBroker implements AutoCloseable {

    private static final List<Path> SCRIPTS = List.of(Path.of("/usr/lib/rabbitmq/bin/rabbitmq-server"),
            Path.of("/usr/local/lib/rabbitmq/bin/rabbitmq-server"));
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
    private static final int LOG_LINES_KEPT = 60;
    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqBroker.class);
    /** Why a test that needs the broker is skipped. */
    static final String NOT_INSTALLED = "RabbitMQ is not installed (no executable " + SCRIPTS.get(0)
            + " nor CANAL_TEST_RABBITMQ_SERVER): install Debian's rabbitmq-server package, as .ci/run does, to run"
            + " this test";

    private final Path script;
    private final Path dir;
    private final int port;
    private final int distPort;
    private final int epmdPort;
    private Process process;
    /** Whether the node is down because a test killed it, not on its own. */
    private boolean killed;

    private RabbitMqBroker(Path script, Path dir) {
        this.script = script;
        this.dir = dir;
        this.port = TcpPorts.free();
        this.distPort = TcpPorts.free();
        this.epmdPort = TcpPorts.free();
    }

    /** The {@code rabbitmq-server} script that runs a node as the calling user, if installed. */
    public static Optional<Path> script() {
        String named = System.getenv("CANAL_TEST_RABBITMQ_SERVER");
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named)).filter(Files::isExecutable);
        }
        return SCRIPTS.stream().filter(Files::isExecutable).findFirst();
    }

    /** Starts a fresh node; returns once it takes AMQP connections. Aborts the test when RabbitMQ is not installed. */
    public static RabbitMqBroker start() throws IOException {
        Path script = script().orElseThrow(() -> new TestAbortedException(NOT_INSTALLED));
        RabbitMqBroker broker = new RabbitMqBroker(script, Files.createTempDirectory("rabbitmq-broker-"));
        Files.writeString(broker.dir.resolve("enabled_plugins"), "[].\n");
        broker.startProcess();
        return broker;
    }

    /** host:port, as {@code rabbitmq.host} takes it. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** Kills the node at once (SIGKILL, no orderly shutdown). */
    public void kill() throws InterruptedException {
        killed = true;
        killTree(process);
        process.waitFor(30, TimeUnit.SECONDS);
        await("RabbitMQ on " + address() + " gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> !TcpPorts.isListening(port));
    }

    /** Starts the node again on the same ports and data; returns once it takes connections. */
    public void restart() throws IOException {
        startProcess();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process != null && !process.isAlive() && !killed) {
            // the node's directory goes below: what it said is the only clue to why it stopped under a test
            LOG.warn("RabbitMQ on {} exited on its own with {} before its test ended; its output and logs:\n{}",
                    address(), process.exitValue(), logs());
        }
        if (process != null && process.isAlive()) {
            process.destroy(); // the script stops the node in order on SIGTERM
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                killTree(process);
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        stopEpmd();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void startProcess() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(script.toString()).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()));
        Map<String, String> env = builder.environment();
        env.put("HOME", dir.toString()); // the Erlang cookie
        env.put("RABBITMQ_CONF_ENV_FILE", dir.resolve("rabbitmq-env.conf").toString());
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq").toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
        env.put("RABBITMQ_PID_FILE", dir.resolve("node.pid").toString());
        env.put("RABBITMQ_NODENAME", "canal-test-" + port + "@localhost");
        env.put("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1");
        env.put("RABBITMQ_NODE_PORT", Integer.toString(port));
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distPort));
        env.put("ERL_EPMD_PORT", Integer.toString(epmdPort));
        process = builder.start();
        killed = false;
        Process started = process;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> killTree(started))); // no orphan broker
        await("RabbitMQ on " + address()).atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(this::answers);
    }

    /** The script runs the Erlang VM as its child: both go. */
    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private boolean answers() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("rabbitmq-server exited with " + process.exitValue() + ": "
                    + Files.readString(dir.resolve("server.log")));
        }
        return TcpPorts.isListening(port);
    }

    /** The node's output and log files, the last {@link #LOG_LINES_KEPT} lines of each. */
    private String logs() throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                text.append("== ").append(dir.relativize(file)).append('\n');
                lines.subList(Math.max(0, lines.size() - LOG_LINES_KEPT), lines.size())
                        .forEach(line -> text.append(line).append('\n'));
            }
        }
        return text.toString();
    }

    /** The node's own epmd outlives it; it is stopped with the node's directory. */
    private void stopEpmd() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("epmd", "-kill").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("epmd.log").toFile()));
        builder.environment().put("ERL_EPMD_PORT", Integer.toString(epmdPort));
        try {
            builder.start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no epmd on PATH: the node could not have started one either
        }
    }
}
