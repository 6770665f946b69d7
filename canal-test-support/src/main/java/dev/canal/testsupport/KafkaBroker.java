package dev.canal.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one process), run from the test
 * class path in a child JVM on free loopback ports. It can be killed and started again on the same ports and
 * log directory, as an operator's restart would.
 *
 * <p>The broker itself ({@code org.apache.kafka:kafka_2.13}) is not a dependency of this module: a module that
 * starts one puts it on its own test class path, which the child JVM runs from.
 */
public final class KafkaBroker implements AutoCloseable {

    private final BrokerProcesses processes;
    private final Path dir;
    private final int port;
    private final int controllerPort;
    private Process process;

    private KafkaBroker(BrokerProcesses processes, int port, int controllerPort) {
        this.processes = processes;
        this.dir = processes.dir();
        this.port = port;
        this.controllerPort = controllerPort;
    }

    /** Formats a fresh log directory and starts the broker; returns once it answers. */
    public static KafkaBroker start() throws IOException, InterruptedException {
        KafkaBroker broker = new KafkaBroker(BrokerProcesses.inTemporaryFolder("kafka-broker-"), TcpPorts.free(),
                TcpPorts.free());
        broker.writeConfig();
        broker.run("format", List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", broker.config().toString())).waitFor(60, TimeUnit.SECONDS);
        broker.startProcess();
        return broker;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Kills the broker process at once (no controlled shutdown). */
    public void kill() throws InterruptedException {
        BrokerProcesses.kill(process);
    }

    /** Starts the broker again on the same ports and data; returns once it answers. */
    public void restart() throws IOException {
        startProcess();
    }

    /** Creates a topic with one replica, waiting until the broker confirms it. */
    public void createTopic(String topic, int partitions) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot create topic " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
    }

    /** The topic's messages from its start, once {@code inserts} flat INSERT messages arrived (or the time is up). */
    public List<String> readFromStart(String topic, int inserts, Duration timeout) {
        TopicPartition partition = new TopicPartition(topic, 0);
        List<String> messages = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (messages.stream().filter(m -> m.contains("\"type\":\"INSERT\"")).count() < inserts
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200))
                        .forEach(r -> messages.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
        }
        return messages;
    }

    @Override
    public void close() throws InterruptedException, IOException {
        BrokerProcesses.stop(process);
        processes.delete();
    }

    private void startProcess() throws IOException {
        process = run("broker", List.of("kafka.Kafka", config().toString()));
        await("Kafka broker on " + bootstrapServers()).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                .until(this::answers);
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the Kafka broker exited with " + process.exitValue() + "; see " + dir);
        }
        try (Admin admin = admin()) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Process run(String name, List<String> mainAndArgs) throws IOException {
        return processes.start(name, BrokerProcesses.smallJvm(BrokerProcesses.thisJava(), classPath(), mainAndArgs));
    }

    /** The test class path; under exec:java that is the plugin's class loader, not the JVM's own. */
    private static String classPath() {
        if (KafkaBroker.class.getClassLoader() instanceof java.net.URLClassLoader loader) {
            return java.util.Arrays.stream(loader.getURLs()).map(url -> {
                try {
                    return Path.of(url.toURI()).toString();
                } catch (java.net.URISyntaxException e) {
                    throw new IllegalStateException("class path entry " + url, e);
                }
            }).collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
        }
        return System.getProperty("java.class.path");
    }

    private Path config() {
        return dir.resolve("server.properties");
    }

    private void writeConfig() throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("data").toString());
        p.setProperty("num.partitions", "1");
        p.setProperty("auto.create.topics.enable", "true");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("num.network.threads", "1");
        p.setProperty("num.io.threads", "2");
        try (var out = Files.newBufferedWriter(config())) {
            p.store(out, "single-node KRaft broker for tests");
        }
    }
}
