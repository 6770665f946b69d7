package dev.canal.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.opentest4j.TestAbortedException;

/**
 * A private Pulsar standalone broker (broker, one bookie and the RocksDB metadata store in one process) run in a
 * child JVM on free loopback ports, from Maven Central's {@code org.apache.pulsar:pulsar-broker}. It can be killed
 * and started again on the same ports and data, as an operator's restart would.
 *
 * <p>The broker needs Java 21 or later while the tests run on 17, and a class path of its own (its dependency
 * versions, not ours): the child runs the {@code java} named by {@code CANAL_TEST_PULSAR_JAVA} (default
 * {@value #DEFAULT_JAVA}) on the class path that module canal-test-pulsar-broker writes, named by the system property
 * {@value #CLASSPATH_PROPERTY}. Where either is missing, {@link #start()} aborts the test (JUnit reports it skipped)
 * saying so.
 */
public final class PulsarBroker implements AutoCloseable {

    static final String DEFAULT_JAVA = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";
    static final String CLASSPATH_PROPERTY = "testsupport.pulsar.classpath";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path java;
    private final String classPath;
    private final BrokerProcesses processes;
    private final Path dir;
    private final int port = TcpPorts.free();
    private final int webPort = TcpPorts.free();
    private final int bookiePort = TcpPorts.free();
    private Process process;

    private PulsarBroker(Path java, String classPath, BrokerProcesses processes) {
        this.java = java;
        this.classPath = classPath;
        this.processes = processes;
        this.dir = processes.dir();
    }

    /** Why the broker cannot run here, or empty when it can. */
    public static Optional<String> unavailable() {
        Path java = java();
        if (!Files.isExecutable(java)) {
            return Optional.of("no Java 21+ for the Pulsar broker at " + java + ": install one there (Temurin "
                    + "25, as CI has) or name its java with CANAL_TEST_PULSAR_JAVA to run this test");
        }
        String file = System.getProperty(CLASSPATH_PROPERTY, "");
        if (file.isEmpty() || !Files.isReadable(Path.of(file))) {
            return Optional.of("no Pulsar broker class path (system property " + CLASSPATH_PROPERTY + " = '" + file
                    + "'): build module canal-test-pulsar-broker in the same reactor to run this test");
        }
        return Optional.empty();
    }

    private static Path java() {
        String named = System.getenv("CANAL_TEST_PULSAR_JAVA");
        return Path.of(named != null && !named.isBlank() ? named : DEFAULT_JAVA);
    }

    /** Starts a fresh broker; returns once it serves the {@code public/default} namespace. */
    public static PulsarBroker start() throws IOException {
        unavailable().ifPresent(reason -> {
            throw new TestAbortedException(reason);
        });
        String classPath = Files.readString(Path.of(System.getProperty(CLASSPATH_PROPERTY))).trim();
        PulsarBroker broker = new PulsarBroker(java(), classPath, BrokerProcesses.inTemporaryFolder("pulsar-broker-"));
        broker.writeConfig();
        broker.startProcess();
        return broker;
    }

    /** The service URL, as {@code pulsarmq.serverUrl} takes it. */
    public String serviceUrl() {
        return "pulsar://127.0.0.1:" + port;
    }

    /** The admin REST API's base URL. */
    public String webUrl() {
        return "http://127.0.0.1:" + webPort;
    }

    /** Kills the broker process at once (no orderly shutdown). */
    public void kill() throws InterruptedException {
        BrokerProcesses.kill(process);
        await("Pulsar on " + serviceUrl() + " gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> !TcpPorts.isListening(port));
    }

    /** Starts the broker again on the same ports and data; returns once it serves again. */
    public void restart() throws IOException {
        startProcess();
    }

    /** Creates {@code persistent://public/default/<topic>} with that many partitions. */
    public void createPartitionedTopic(String topic, int partitions) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                        URI.create(webUrl() + "/admin/v2/persistent/public/default/" + topic + "/partitions"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Integer.toString(partitions))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("cannot create partitioned topic " + topic + ": HTTP "
                    + response.statusCode() + " " + response.body());
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        BrokerProcesses.stop(process);
        processes.delete();
    }

    private void startProcess() throws IOException {
        process = processes.start("broker", BrokerProcesses.smallJvm(java.toString(), classPath, List.of(
                "-Dpulsar.log.level=warn", "org.apache.pulsar.PulsarStandaloneStarter",
                "--config", dir.resolve("standalone.conf").toString(), "--no-functions-worker", "--no-stream-storage",
                "--bookkeeper-port", Integer.toString(bookiePort), "--bookkeeper-dir", dir.resolve("bookie").toString(),
                "--metadata-dir", dir.resolve("metadata").toString())));
        await("Pulsar broker on " + serviceUrl()).atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(300))
                .until(this::serves);
    }

    /** The standalone creates its public/default namespace once the broker runs; topics can be used from then on. */
    private boolean serves() throws IOException, InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("the Pulsar broker exited with " + process.exitValue() + "; see "
                    + dir.resolve("broker.log"));
        }
        if (!TcpPorts.isListening(webPort)) {
            return false;
        }
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create(webUrl() + "/admin/v2/namespaces/public")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("public/default")
                    && TcpPorts.isListening(port);
        } catch (IOException e) {
            return false;
        }
    }

    private void writeConfig() throws IOException {
        Properties p = new Properties();
        p.setProperty("clusterName", "standalone");
        p.setProperty("advertisedAddress", "127.0.0.1");
        p.setProperty("bindAddress", "127.0.0.1");
        p.setProperty("brokerServicePort", Integer.toString(port));
        p.setProperty("webServicePort", Integer.toString(webPort));
        p.setProperty("managedLedgerDefaultEnsembleSize", "1");
        p.setProperty("managedLedgerDefaultWriteQuorum", "1");
        p.setProperty("managedLedgerDefaultAckQuorum", "1");
        p.setProperty("allowAutoTopicCreation", "true");
        p.setProperty("allowAutoTopicCreationType", "non-partitioned");
        p.setProperty("brokerDeleteInactiveTopicsEnabled", "false");
        // what a test broker does not need, and costs start-up time and threads on a small machine
        p.setProperty("functionsWorkerEnabled", "false");
        p.setProperty("transactionCoordinatorEnabled", "false");
        p.setProperty("topicLevelPoliciesEnabled", "false");
        p.setProperty("systemTopicEnabled", "false");
        p.setProperty("loadBalancerEnabled", "false");
        p.setProperty("numIOThreads", "2");
        p.setProperty("numHttpServerThreads", "4");
        p.setProperty("managedLedgerCacheSizeMB", "32");
        try (var out = Files.newBufferedWriter(dir.resolve("standalone.conf"))) {
            p.store(out, "Pulsar standalone for tests");
        }
    }
}
