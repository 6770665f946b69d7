package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.ChildJvm;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.OfficialClientClassPath;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.ZooKeeperServer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two canal servers in JVMs of their own, electing over a real ZooKeeper (in this JVM), with Canal's default
 * takeover delay (5 s) and our default session timeout (4 s); the official Canal cluster client in a third JVM
 * follows the destination through ZooKeeper while this test appends rows to the servers' source. The active
 * server is killed with SIGKILL several times (and restarted as the standby), then cut off from ZooKeeper
 * (its session expires; it must stop serving before the other starts, and rejoin as standby), then stopped
 * gracefully; every row written reaches the client at least once and in order, no two servers ever serve at
 * once, and the failover times are printed.
 */
@ExtendWith(MySqlServerExtension.class)
class HaFailoverIT {

    private static final String DESTINATION = "example";
    private static final Duration SESSION = ZooKeeperConnections.DEFAULT_SESSION_TIMEOUT;
    private static final Duration CONNECT_WAIT = Duration.ofSeconds(3);
    private static final Duration DELAY = ServerRunningMonitors.DEFAULT_TAKEOVER_DELAY;
    private static final int KILL_TRIALS = 3;
    /** kill -9 trials over MySQL; more with -Dha.kill.trials=N (docs/high-availability.md). */
    private static final int MYSQL_KILL_TRIALS = Integer.getInteger("ha.kill.trials", 2);
    private static final String SCHEMA = "ha_failover";
    private static final String ZK_RESTART_SCHEMA = "ha_zk_restart";
    /** ZooKeeper straight back, and down for longer than the servers' sessions. */
    private static final List<Duration> ZOOKEEPER_OUTAGES = List.of(Duration.ZERO, SESSION.plusSeconds(2));
    /** The shipped Spring XMLs ({@code spring/*.xml}), on the servers' class path as in the tarball. */
    private static final long ROW_EVERY_MILLIS = 5;
    private static final int CLIENT_BATCH_ENTRIES = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final Path LOGS = Path.of("target", "ha-failover-logs");

    /** A server's store started (true) or stopped (false) serving, at epoch microseconds of its own clock. */
    private record ServingChange(int port, boolean serving, long micros) {
    }

    @TempDir
    Path dir;

    private ZooKeeperServer zooKeeper;
    private CuratorFramework observer;
    private Path rows;
    private final Map<Integer, ChildJvm> nodes = new HashMap<>();
    private final Map<Integer, ZooKeeperPartition> links = new HashMap<>(); // each server's way to ZooKeeper
    private final List<ServingChange> servingChanges = new ArrayList<>(); // guarded by itself
    private ChildJvm client;
    private final List<ChildJvm.Line> received = new ArrayList<>(); // guarded by itself
    private final List<ChildJvm.Line> clientOutput = new ArrayList<>(); // guarded by received
    private final AtomicLong written = new AtomicLong();
    private volatile boolean writing = true;
    private Thread writer;
    private String nodeSource;
    private int nodesStarted;
    /** Per kill trial: from the kill to the client's first row newer than any it had. */
    private final List<Long> failoverMillis = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperServer.start(ZooKeeperServer.SHORT_TICK);
        observer = session();
        rows = Files.createFile(dir.resolve("rows.txt"));
    }

    @AfterEach
    void stopAll() throws Exception {
        writeReceived(LOGS.resolve("received.txt"));
        writing = false;
        if (writer != null) {
            writer.join();
        }
        if (client != null) {
            client.close();
        }
        for (ChildJvm node : nodes.values()) {
            node.close();
        }
        for (ZooKeeperPartition link : links.values()) {
            link.close();
        }
        zooKeeper.close();
    }

    @Test
    @Tag("source-independent") // its servers read a file of rows, not the database
    void killedActiveServerIsReplacedAndTheOfficialClusterClientGetsEveryRowInOrder() throws Exception {
        nodeSource = "rows:" + rows;
        int portA = TcpPorts.free();
        int portB = TcpPorts.free();
        startNode(portA);
        startNode(portB);
        startWriter(row -> Files.writeString(rows, row + "\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND));
        startClient("offset");

        List<String> report = new ArrayList<>();
        for (int trial = 1; trial <= KILL_TRIALS; trial++) {
            report.add(killTrial(trial, portA, portB));
        }

        int cutOff = activePort();
        long lastBeforeCut = maxReceived();
        long cut = System.nanoTime();
        links.get(cutOff).blackHole(); // silent network: the session expires on the ZooKeeper side
        int other = cutOff == portA ? portB : portA;
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> activePort() == other);
        long movedAfterCut = System.nanoTime();
        await().atMost(PATIENCE).until(() -> firstRowAbove(lastBeforeCut, movedAfterCut), line -> line != null);
        report.add(String.format("ZooKeeper cut off from the active server: it stopped serving %d ms before the "
                + "other started; running node moved %d ms after the cut, client's longest silence %d ms",
                servingGapMicros(cutOff) / 1000, millis(movedAfterCut - cut), millis(longestSilenceAfter(cut))));
        links.get(cutOff).heal();
        await().atMost(PATIENCE).until(() -> observer.getChildren()
                .forPath(ClusterPaths.destinationCluster(DESTINATION)).contains("127.0.0.1:" + cutOff));
        assertThat(activePort()).isEqualTo(other);

        int active = activePort();
        long lastBeforeStop = maxReceived();
        long stopped = System.nanoTime();
        nodes.get(active).stopGracefully();
        await().atMost(PATIENCE).until(() -> firstRowAbove(lastBeforeStop, stopped), line -> line != null);
        long redelivered = rowsReceivedAfter(stopped, lastBeforeStop);
        report.add(String.format("graceful stop: %d rows delivered again after the handover", redelivered));

        assertEveryRowInOrderAndNeverTwoServing(report);
        // the cursor was pushed on stop: only the client's unacked batch comes again
        assertThat(redelivered).isLessThanOrEqualTo(CLIENT_BATCH_ENTRIES);
    }

    /**
     * The same with the launcher's instance wiring (default-instance.xml: MysqlEventParser, cursors in
     * ZooKeeper) over a real MySQL-compatible server; the test inserts the rows.
     */
    @Test
    void killedActiveServerReadingMySqlIsReplacedAndTheClientGetsEveryRowInOrder(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id BIGINT PRIMARY KEY)");
        nodeSource = "spring:" + springConf(db, SCHEMA);
        int portA = TcpPorts.free();
        int portB = TcpPorts.free();
        startNode(portA);
        startNode(portB);
        try (Connection connection = db.adminConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + SCHEMA + ".t (id) VALUES (?)")) {
            startWriter(row -> {
                insert.setLong(1, row);
                insert.executeUpdate();
            });
            startClient("id");
            List<String> report = new ArrayList<>();
            for (int trial = 1; trial <= MYSQL_KILL_TRIALS; trial++) {
                report.add(killTrial(trial, portA, portB));
            }
            report.add(failoverSummary());
            assertEveryRowInOrderAndNeverTwoServing(report);
        }
    }

    /**
     * ZooKeeper itself restarted on the same port with the same data while two servers (cursors in ZooKeeper,
     * one ZooKeeper client each) serve one destination from a real MySQL-compatible server and the official
     * cluster client reads it: once straight back, once down for longer than the servers' sessions, so that
     * they expire. No two servers ever serve at once, every row reaches the client in order, and the client
     * follows whichever server holds the destination afterwards.
     */
    @Test
    void zooKeeperRestartedUnderTwoServersNeverLetsTwoServeAndLosesNoRow(MySqlServer db) throws Exception {
        db.recreateDatabase(ZK_RESTART_SCHEMA);
        db.execute("CREATE TABLE " + ZK_RESTART_SCHEMA + ".t (id BIGINT PRIMARY KEY)");
        nodeSource = "spring:" + springConf(db, ZK_RESTART_SCHEMA);
        startNode(TcpPorts.free());
        startNode(TcpPorts.free());
        try (Connection connection = db.adminConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + ZK_RESTART_SCHEMA
                        + ".t (id) VALUES (?)")) {
            startWriter(row -> {
                insert.setLong(1, row);
                insert.executeUpdate();
            });
            startClient("id");
            List<String> report = new ArrayList<>();
            for (Duration outage : ZOOKEEPER_OUTAGES) {
                long before = maxReceived();
                await().atMost(PATIENCE).until(() -> maxReceived() > before + 50); // mid-stream
                int activeBefore = activePort();
                long lastBeforeRestart = maxReceived();
                long stopped = System.nanoTime();
                zooKeeper.restart(outage);
                long writtenWhenBack = written.get();
                await().atMost(PATIENCE).until(() -> maxReceived() > writtenWhenBack);
                await().atMost(PATIENCE).until(() -> activePort() != -1);
                report.add(String.format("ZooKeeper down %d ms (stopped after row %d): server %d held the destination "
                        + "before, %d after; the client's longest silence %d ms", outage.toMillis(), lastBeforeRestart,
                        activeBefore, activePort(), millis(longestSilenceBetween(stopped, System.nanoTime()))));
            }
            assertEveryRowInOrderAndNeverTwoServing(report);
        }
    }

    /** conf/ for the servers: canal.properties naming default-instance.xml, and the destination on {@code db}. */
    private Path springConf(MySqlServer db, String schema) throws IOException {
        return HaServerNode.springConf(dir, db, DESTINATION, schema, "canal.instance.parser.parallel=false");
    }

    private void startClient(String rowMode) throws Exception {
        client = ChildJvm.start("client", OfficialClientClassPath.with(OfficialClusterClient.class), List.of(), OfficialClusterClient.class,
                List.of(zooKeeper.connectString(), DESTINATION, rowMode), LOGS, this::onClientLine);
        await().atMost(PATIENCE).until(() -> maxReceived() >= 100);
    }

    /** Kills the active server mid-stream, waits for the other to serve the client, restarts the killed one. */
    private String killTrial(int trial, int portA, int portB) throws Exception {
        int active = activePort();
        long before = maxReceived();
        await().atMost(PATIENCE).until(() -> maxReceived() > before + 50); // mid-stream
        long lastBeforeKill = maxReceived();
        long killed = System.nanoTime();
        nodes.get(active).kill();
        recordServing(active, false); // dead now, so it served no later than this

        int standby = active == portA ? portB : portA;
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> activePort() == standby);
        long takenOver = System.nanoTime();
        ChildJvm.Line resumed = await().atMost(PATIENCE).until(() -> firstRowAbove(lastBeforeKill, killed),
                line -> line != null);
        startNode(active); // back as the standby for the next trial
        failoverMillis.add(millis(resumed.nanos() - killed));
        return String.format("kill %d: running node moved %d ms after the kill, client got new rows %d ms after it "
                + "(longest silence %d ms)", trial, millis(takenOver - killed), millis(resumed.nanos() - killed),
                millis(longestSilenceAfter(killed)));
    }

    /** Median and worst of the kill trials so far, as the client saw them. */
    private String failoverSummary() {
        List<Long> sorted = failoverMillis.stream().sorted().toList();
        int n = sorted.size();
        long median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return String.format("kill -9 failover over %d trials (session %d ms, takeover delay %d ms): median %d ms, "
                + "worst %d ms, from the kill to the official cluster client's first new row", n, SESSION.toMillis(),
                DELAY.toMillis(), median, sorted.get(n - 1));
    }

    /** Stops writing, waits for the client to have the last row, prints the report and checks the stream. */
    private void assertEveryRowInOrderAndNeverTwoServing(List<String> report) throws Exception {
        writing = false;
        writer.join();
        long last = written.get();
        await().atMost(PATIENCE).until(() -> maxReceived() >= last);

        List<Long> sequence = receivedRows();
        report.add(String.format("%d rows written, %d row entries received (%d again after failovers)", last,
                sequence.size(), sequence.size() - last));
        report.forEach(line -> System.out.println("HaFailoverIT: " + line));

        assertThat(sequence.get(0)).isEqualTo(1L);
        long max = 0;
        for (long row : sequence) {
            assertThat(row).as("a row after row %d was skipped", max).isLessThanOrEqualTo(max + 1);
            max = Math.max(max, row);
        }
        assertThat(max).isEqualTo(last);
        assertNeverTwoServing();
    }

    /** A server JVM on {@code port}, reaching ZooKeeper through a relay of its own that a test can cut. */
    private void startNode(int port) throws IOException, InterruptedException {
        ZooKeeperPartition link = new ZooKeeperPartition(zooKeeper.port());
        ZooKeeperPartition previous = links.put(port, link);
        if (previous != null) {
            previous.close();
        }
        nodes.put(port, HaServerNode.startChild("server-" + port + "-" + (++nodesStarted), link.connectString(),
                port, DESTINATION, nodeSource, SESSION, DELAY, LOGS, line -> {
                    if (line.text().startsWith("SERVING ")) {
                        String[] fields = line.text().split(" ");
                        synchronized (servingChanges) {
                            servingChanges.add(new ServingChange(port, Boolean.parseBoolean(fields[1]),
                                    Long.parseLong(fields[2])));
                        }
                    }
                }));
    }

    private void recordServing(int port, boolean serving) {
        Instant now = Instant.now();
        synchronized (servingChanges) {
            servingChanges.add(new ServingChange(port, serving,
                    now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000));
        }
    }

    /** The longest time without a row line at the client in the minute after {@code since}. */
    private long longestSilenceAfter(long since) {
        return longestSilenceBetween(since, since + TimeUnit.MINUTES.toNanos(1));
    }

    /** The longest time without a row line at the client between two {@code System.nanoTime()} readings. */
    private long longestSilenceBetween(long since, long until) {
        long previous = since;
        long longest = 0;
        synchronized (received) {
            for (ChildJvm.Line line : received) {
                if (line.nanos() > since && line.nanos() < until) {
                    longest = Math.max(longest, line.nanos() - previous);
                    previous = line.nanos();
                }
            }
        }
        return longest;
    }

    /** Across all server JVMs (one machine, one clock): a store starts serving only when no other serves. */
    private void assertNeverTwoServing() {
        List<ServingChange> changes;
        synchronized (servingChanges) {
            changes = servingChanges.stream().sorted(Comparator.comparingLong(ServingChange::micros))
                    .toList();
        }
        Set<Integer> serving = new HashSet<>();
        for (ServingChange change : changes) {
            if (change.serving()) {
                assertThat(serving).as("servers serving when %d started; %s", change.port(), changes).isEmpty();
                serving.add(change.port());
            } else {
                serving.remove(change.port());
            }
        }
    }

    /** Microseconds from the last time {@code port} stopped serving to the next time another one started. */
    private long servingGapMicros(int stoppedPort) {
        synchronized (servingChanges) {
            long stopped = servingChanges.stream().filter(c -> c.port() == stoppedPort && !c.serving())
                    .mapToLong(ServingChange::micros).max().orElseThrow();
            return servingChanges.stream().filter(c -> c.port() != stoppedPort && c.serving()
                    && c.micros() > stopped).mapToLong(ServingChange::micros).min().orElseThrow() - stopped;
        }
    }

    /** Writes one row at a time to the servers' source. */
    private interface RowWriter {
        void write(long row) throws Exception;
    }

    private void startWriter(RowWriter rowWriter) {
        writer = new Thread(() -> {
            try {
                while (writing) {
                    long row = written.get() + 1;
                    rowWriter.write(row);
                    written.set(row);
                    Thread.sleep(ROW_EVERY_MILLIS); // the pace of the writes, not a wait for a condition
                }
            } catch (Exception e) {
                throw new IllegalStateException("writing row " + (written.get() + 1), e);
            }
        }, "row-writer");
        writer.start();
    }

    private void onClientLine(ChildJvm.Line line) {
        synchronized (received) {
            clientOutput.add(line);
            if (line.text().startsWith("ROW ")) {
                received.add(line);
            }
        }
    }

    private List<Long> receivedRows() {
        synchronized (received) {
            return received.stream().map(HaFailoverIT::rowOf).toList();
        }
    }

    /** What the client printed, each line after the nanos it arrived at, for looking into a failure. */
    private void writeReceived(Path file) throws IOException {
        synchronized (received) {
            Files.write(file, clientOutput.stream().map(l -> l.nanos() + " " + l.text()).toList());
        }
    }

    private long maxReceived() {
        return receivedRows().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** The first row line after {@code since} that carries a row newer than {@code row}, or null. */
    private ChildJvm.Line firstRowAbove(long row, long since) {
        synchronized (received) {
            return received.stream().filter(l -> l.nanos() > since && rowOf(l) > row).findFirst().orElse(null);
        }
    }

    private long rowsReceivedAfter(long since, long upToRow) {
        synchronized (received) {
            return received.stream().filter(l -> l.nanos() > since && rowOf(l) <= upToRow).count();
        }
    }

    private int activePort() throws Exception {
        if (observer.checkExists().forPath(ClusterPaths.running(DESTINATION)) == null) {
            return -1;
        }
        try {
            String address = ServerRunningData.fromJson(observer.getData().forPath(ClusterPaths.running(DESTINATION)))
                    .address();
            return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        } catch (KeeperException.NoNodeException gone) {
            return -1;
        }
    }

    private static long rowOf(ChildJvm.Line line) {
        return Long.parseLong(line.text().substring("ROW ".length()).trim());
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** A session through the election's own client, closed with the server. */
    private CuratorFramework session() {
        return zooKeeper.closedWithServer(ZooKeeperConnections.connect(zooKeeper.connectString(), SESSION,
                CONNECT_WAIT));
    }
}
