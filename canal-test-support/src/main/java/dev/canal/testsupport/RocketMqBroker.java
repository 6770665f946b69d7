package dev.canal.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A private RocketMQ 5 name server and broker (Maven Central's {@code rocketmq-namesrv} and {@code rocketmq-broker}),
 * each in a child JVM on free loopback ports with its store, logs and home in a temporary directory. Their class
 * path is module canal-test-rocketmq's {@code target/lib}, built without our parent so that RocketMQ runs on its
 * own library versions; {@code -Dtest.rocketmq.lib} names it when not found beside the working directory. The
 * broker auto-creates topics (4 queues each, the producer's default) and can be killed and started again on the
 * same ports and store, as an operator's restart would; the name server stays up meanwhile.
 */
public final class RocketMqBroker implements AutoCloseable {

    public static final String LIB_PROPERTY = "test.rocketmq.lib";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final String NAMESRV_MAIN = "org.apache.rocketmq.namesrv.NamesrvStartup";
    private static final String BROKER_MAIN = "org.apache.rocketmq.broker.BrokerStartup";
    /** What each main prints once it serves. */
    private static final String BOOT_SUCCESS = "boot success";

    private final BrokerProcesses processes;
    private final Path dir;
    private final String classPath;
    private final int namesrvPort;
    private final int brokerPort;
    private final int haPort;
    private Process namesrv;
    private Process broker;
    private int brokerStarts;

    private RocketMqBroker(BrokerProcesses processes, String classPath) {
        this.processes = processes;
        this.dir = processes.dir();
        this.classPath = classPath;
        this.namesrvPort = TcpPorts.free();
        this.brokerPort = brokerPort();
        this.haPort = TcpPorts.free();
    }

    /** Starts a fresh name server and broker; returns once the broker has registered with the name server. */
    public static RocketMqBroker start() throws IOException {
        RocketMqBroker mq = new RocketMqBroker(BrokerProcesses.inTemporaryFolder("rocketmq-broker-"), classPath(lib()));
        try {
            mq.writeConfigs();
            mq.namesrv = mq.launch("namesrv", 128, NAMESRV_MAIN, "-c", mq.dir.resolve("namesrv.properties").toString());
            mq.awaitBoot(mq.namesrv, "namesrv");
            mq.startBroker();
            return mq;
        } catch (RuntimeException | IOException e) {
            mq.close();
            throw e;
        }
    }

    /** The name server's host:port, as {@code rocketmq.namesrv.addr} takes it. */
    public String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    /** Kills the broker at once (SIGKILL, no orderly shutdown); the name server stays. */
    public void kill() throws InterruptedException {
        BrokerProcesses.kill(broker);
        await("RocketMQ broker on " + brokerPort + " gone").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> !TcpPorts.isListening(brokerPort));
    }

    /** Starts the broker again on the same ports and store; returns once it has registered again. */
    public void restart() throws IOException {
        startBroker();
    }

    @Override
    public void close() {
        for (Process p : new Process[] {broker, namesrv}) {
            try {
                BrokerProcesses.stop(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        try {
            processes.delete();
        } catch (IOException e) {
            // a temporary directory left behind is no failure of the test
        }
    }

    private void startBroker() throws IOException {
        brokerStarts++;
        broker = launch("broker-" + brokerStarts, 384, BROKER_MAIN, "-c", dir.resolve("broker.properties").toString());
        awaitBoot(broker, "broker-" + brokerStarts);
    }

    private void awaitBoot(Process process, String name) {
        Path log = processes.log(name);
        await("RocketMQ " + name + " (" + log + ")").atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    String out = Files.exists(log) ? Files.readString(log) : "";
                    if (!process.isAlive()) {
                        throw new IllegalStateException("RocketMQ " + name + " exited with " + process.exitValue()
                                + ": " + out);
                    }
                    return out.contains(BOOT_SUCCESS);
                });
    }

    private Process launch(String name, int heapMb, String main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                BrokerProcesses.thisJava(),
                "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", "-XX:MaxDirectMemorySize=256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xss512k",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                // RocketMQ writes its logs under user.home and reads its home from rocketmq.home.dir
                "-Duser.home=" + dir, "-Drocketmq.home.dir=" + dir, "-Drocketmq.client.logUseSlf4j=false",
                "-cp", classPath, main));
        command.addAll(List.of(args));
        return processes.start(name, command);
    }

    private void writeConfigs() throws IOException {
        Properties namesrvConfig = new Properties();
        namesrvConfig.setProperty("listenPort", Integer.toString(namesrvPort));
        namesrvConfig.setProperty("rocketmqHome", dir.toString());
        namesrvConfig.setProperty("kvConfigPath", dir.resolve("namesrv-kv.json").toString());
        store(namesrvConfig, "namesrv.properties");

        Path store = dir.resolve("store");
        Properties b = new Properties();
        b.setProperty("brokerClusterName", "CanalTestCluster");
        b.setProperty("brokerName", "broker-a");
        b.setProperty("brokerId", "0");
        b.setProperty("namesrvAddr", namesrvAddr());
        b.setProperty("brokerIP1", "127.0.0.1");
        b.setProperty("listenPort", Integer.toString(brokerPort));
        b.setProperty("haListenPort", Integer.toString(haPort));
        b.setProperty("rocketmqHome", dir.toString());
        b.setProperty("storePathRootDir", store.toString());
        b.setProperty("storePathCommitLog", store.resolve("commitlog").toString());
        b.setProperty("autoCreateTopicEnable", "true");
        b.setProperty("defaultTopicQueueNums", "4");
        b.setProperty("flushDiskType", "ASYNC_FLUSH");
        b.setProperty("brokerRole", "ASYNC_MASTER");
        // small files and no timer wheel: a test broker writes little and shares the machine
        b.setProperty("mappedFileSizeCommitLog", Integer.toString(64 << 20));
        b.setProperty("mappedFileSizeConsumeQueue", Integer.toString(300_000 * 20 / 10));
        b.setProperty("timerWheelEnable", "false");
        b.setProperty("sendMessageThreadPoolNums", "2");
        b.setProperty("diskMaxUsedSpaceRatio", "95");
        store(b, "broker.properties");
    }

    private void store(Properties properties, String file) throws IOException {
        try (var out = Files.newBufferedWriter(dir.resolve(file))) {
            properties.store(out, "RocketMQ for tests (canal-test-support RocketMqBroker)");
        }
    }

    /** A free port whose neighbours are free too: the broker also listens on its port minus 2 (its VIP channel). */
    private static int brokerPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = TcpPorts.free();
            if (port > 1026 && isFree(port - 2)) {
                return port;
            }
        }
        throw new IllegalStateException("no free local port p with p - 2 free for the RocketMQ broker");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** canal-test-rocketmq's target/lib: named by {@value #LIB_PROPERTY}, else looked for beside the working dir. */
    private static Path lib() {
        String named = System.getProperty(LIB_PROPERTY);
        List<Path> candidates = named != null ? List.of(Path.of(named))
                : List.of(Path.of("canal-test-rocketmq", "target", "lib"),
                        Path.of("..", "canal-test-rocketmq", "target", "lib"));
        return candidates.stream().filter(Files::isDirectory).map(Path::toAbsolutePath).findFirst()
                .orElseThrow(() -> new IllegalStateException("RocketMQ's name server and broker are not built: no "
                        + candidates.get(0).toAbsolutePath() + "; build the module canal-test-rocketmq (mvn -pl "
                        + "canal-test-rocketmq generate-resources, or -am with the module under test), or set -D"
                        + LIB_PROPERTY));
    }

    private static String classPath(Path lib) throws IOException {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator));
        }
    }
}
