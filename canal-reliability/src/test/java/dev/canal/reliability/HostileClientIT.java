package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.protocol.CanalPacket;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TcpPorts;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The packaged daemon, with its shipped configuration, against a hostile or careless client: one test per way such
 * a client used to hurt it (docs/security.md). Each test also checks that the official client alongside, or after,
 * is served as before.
 */
// a hostile client on the client port: the source's flavour does not matter
@Tag("one-source")
class HostileClientIT extends DaemonScenario {

    private static final String SCHEMA = "rel_hostile";
    private static final String FILTER = SCHEMA + "\\..*";
    private static final String CLIENT_PASSWORD_HASH = "E3619321C1A937C46A0D8BD1DAC39F93B27D4458"; // "canal"
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    private static final String STACK_FRAME = "\tat ";
    private static final int ROWS_PER_CHECK = 20;

    /** Writes the rows the official client is checked with, over the whole test. */
    private RowWriter writer;

    @AfterEach
    void closeWriter() throws Exception {
        if (writer != null) {
            writer.close();
        }
    }

    /** A name that is no deployed destination reaches no file, instance or source: the server reads nothing. */
    @Test
    void aNameOutsideTheDeployedDestinationsLoadsNoInstanceFileAndDialsNoSource(MySqlServer db) throws Exception {
        startDaemon(db);
        AtomicInteger dialled = new AtomicInteger();
        try (ServerSocket fakeSource = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> acceptAll(fakeSource, dialled), "fake-source");
            acceptor.setDaemon(true);
            acceptor.start();
            Path elsewhere = Files.createDirectories(home.resolve("elsewhere"));
            Files.writeString(elsewhere.resolve("instance.properties"), "canal.instance.master.address = 127.0.0.1:"
                    + fakeSource.getLocalPort() + "\ncanal.instance.dbUsername = u\ncanal.instance.dbPassword = p\n");

            for (String name : List.of("../elsewhere", elsewhere.toString(), "elsewhere", "example@../../elsewhere")) {
                try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
                    assertThat(client.login("", "").getErrorCode()).isZero();
                    CanalPacket.Ack refused = client.subscribe(name, "");

                    assertThat(refused.getErrorCode()).as("subscription to %s", name).isEqualTo(400);
                    assertThat(refused.getErrorMessage()).containsAnyOf("is not a valid name", "is not deployed");
                }
            }

            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> dialled.get() == 0);
            try (Stream<Path> written = Files.walk(elsewhere)) {
                assertThat(written.map(Path::getFileName).map(Path::toString))
                        .as("no log file written outside the log folder").containsOnly("elsewhere", "instance.properties");
            }
            assertThat(new DaemonMetrics(daemon).scrape()).doesNotContain("elsewhere");
        }
        assertOfficialClientIsServed();
    }

    /**
     * A filter that is no regular expression is refused before anything keeps it, and a kept one that does not
     * compile (written by hand, or by an older version) is skipped at start: the destination starts either way.
     */
    @Test
    void aBadFilterNeverStopsTheDestinationFromStarting(MySqlServer db) throws Exception {
        startDaemon(db);
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.login("", "");
            CanalPacket.Ack refused = client.subscribe(CanalDaemon.DESTINATION, SCHEMA + "\\.(t");

            assertThat(refused.getErrorCode()).isEqualTo(400);
            assertThat(refused.getErrorMessage()).contains("the filter is not a valid regular expression");
        }
        assertOfficialClientIsServed(); // subscribes with a good filter, which meta.dat keeps
        daemon.stop();
        daemon.edit("conf/" + CanalDaemon.DESTINATION + "/meta.dat", meta -> meta.replace(
                "\"filter\":\"" + SCHEMA + "\\\\..*\"", "\"filter\":\"" + SCHEMA + "\\\\.(t\""));
        assertThat(Files.readString(daemon.metaFile())).as("the kept filter, spoilt").contains(".(t\"");

        daemon.start();

        assertOfficialClientIsServed();
        assertThat(daemon.logs()).contains("is not valid and is skipped").doesNotContain("failed to start");
    }

    /** A client's mistake gets one line, no stack trace, and the log one warning per burst, not one per mistake. */
    @Test
    void clientMistakesAreAnsweredInOneLineAndLoggedOncePerBurst(MySqlServer db) throws Exception {
        startDaemon(db);
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.login("", "");
            assertThat(client.subscribe(CanalDaemon.DESTINATION, FILTER).getErrorCode()).isZero();
            for (int i = 0; i < 50; i++) {
                client.sendGet(CanalDaemon.DESTINATION, 0);
                CanalPacket.Ack refused = client.readAck();

                assertThat(refused.getErrorCode()).isEqualTo(400);
                assertThat(refused.getErrorMessage()).endsWith("exception: fetchSize must be positive, got 0")
                        .doesNotContain(STACK_FRAME).doesNotContain("\n");
            }
        }
        String logs = daemon.logs();
        assertThat(occurrences(logs, "fetchSize must be positive")).as("warnings for 50 mistakes within seconds")
                .isBetween(1, 2);
        assertThat(logs).doesNotContain(STACK_FRAME + "dev.canal.server.netty.RequestProcessor");
        assertOfficialClientIsServed();
    }

    /** Guessing passwords ends the connection after a few tries; a user name cannot forge a log line. */
    @Test
    void passwordGuessingIsCutOffAndItsUserNameLoggedSafely(MySqlServer db) throws Exception {
        daemon = unpackDaemon(db);
        daemon.set("conf/canal.properties", "canal.user", "canal");
        daemon.set("conf/canal.properties", "canal.passwd", CLIENT_PASSWORD_HASH);
        daemon.start();
        String forging = "canal\n2026-01-01 00:00:00.000 [main] INFO FORGED-LINE";
        try (RawClient guesser = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            byte[] seed = guesser.handshake();
            int answered = 0;
            for (int attempt = 0; attempt < 10; attempt++) {
                try {
                    CanalPacket.Ack refused = guesser.tryLogin(forging, "guess-" + attempt, seed);
                    assertThat(refused.getErrorMessage()).startsWith("auth failed for user:");
                    answered++;
                } catch (IOException closed) {
                    break;
                }
            }

            assertThat(answered).as("wrong passwords answered before the connection is closed").isEqualTo(3);
            assertThat(guesser.closedByServer()).isTrue();
        }
        assertThat(daemon.logs()).contains("authentication of user 'canal\\u000a2026-01-01")
                .doesNotContainPattern("(?m)^2026-01-01 00:00:00.000 \\[main\\] INFO FORGED-LINE");
        assertOfficialClientIsServed();
    }

    /**
     * A client that asks and rolls back without ever reading makes the server stop reading it, rather than buffer
     * every answer: its own writes stall, its connection stays open, and the official client alongside is served.
     */
    @Test
    void aClientThatNeverReadsIsHeldBackInsteadOfBuffered(MySqlServer db) throws Exception {
        startDaemon(db);
        writer.writeNow(2000);
        int pairs = 2_000_000;
        AtomicLong sent = new AtomicLong();
        AtomicInteger failed = new AtomicInteger();
        String consumer = CanalDaemon.DESTINATION + "@greedy"; // a consumer of its own: its rollbacks are its own
        try (RawClient greedy = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            greedy.login("", "");
            assertThat(greedy.subscribe(consumer, FILTER).getErrorCode()).isZero();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < pairs; i++) {
                        greedy.sendGet(consumer, 1024);
                        greedy.sendRollback(consumer);
                        sent.incrementAndGet();
                    }
                } catch (IOException e) {
                    failed.incrementAndGet(); // the server closed the connection, or the test did
                }
            }, "never-reading-client");
            writer.setDaemon(true);
            writer.start();

            long[] last = {-1};
            await("the never-reading client's writes stall").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        long now = sent.get();
                        boolean stalled = now == last[0] && now > 0;
                        last[0] = now;
                        return stalled || failed.get() > 0;
                    });

            assertThat(failed.get()).as("the server kept the connection open").isZero();
            assertThat(sent.get()).as("requests the server took from a client that reads nothing").isLessThan(pairs);
            assertOfficialClientIsServed();
            assertThat(writer.isAlive()).as("still blocked writing").isTrue();
        }
    }

    /**
     * Nobody can hold the server with connections that do nothing: a large frame before login is refused at once,
     * one address gets no more than its share of the client port or of the admin port, and a half-sent request to the
     * metrics endpoint stalls no scrape.
     */
    @Test
    void idleAndHalfOpenConnectionsHoldNothingOfTheClientAdminOrMetricsPorts(MySqlServer db) throws Exception {
        daemon = unpackDaemon(db);
        int adminPort = TcpPorts.free();
        daemon.set("conf/canal.properties", "canal.admin.port", String.valueOf(adminPort));
        daemon.set("conf/canal.properties", "canal.admin.user", "admin");
        daemon.set("conf/canal.properties", "canal.admin.passwd", "4ACFE3202A5FF5CF467898FC58AAB1D615029441");
        // the idle connections below must outlive their opening, however slow the machine
        daemon.set("conf/canal.properties", "canal.client.auth.timeout", "120000");
        daemon.start();

        try (RawClient client = new RawClient(daemon.port, 3000)) {
            client.handshake();
            client.sendRaw(ByteBuffer.allocate(4).putInt(100 * 1024).array());
            assertThat(client.closedByServer()).as("100 KiB declared before login: closed at once").isTrue();
        }

        List<AutoCloseable> held = new ArrayList<>();
        try {
            for (int i = 0; i < 256; i++) {
                RawClient idle = new RawClient(daemon.port, READ_TIMEOUT_MILLIS);
                held.add(idle);
                idle.handshake();
            }
            try (RawClient oneMore = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
                oneMore.handshake();
                assertThat(oneMore.readAck().getErrorMessage()).contains("canal.client.max.connections.per.address");
            }
            for (int i = 0; i < 8; i++) {
                Socket admin = new Socket("127.0.0.1", adminPort);
                held.add(admin);
                readFrame(admin);
            }
            try (Socket oneMoreAdmin = new Socket("127.0.0.1", adminPort)) {
                oneMoreAdmin.setSoTimeout(READ_TIMEOUT_MILLIS);
                readFrame(oneMoreAdmin); // the handshake
                assertThat(new String(readFrame(oneMoreAdmin), StandardCharsets.UTF_8)).contains("at most 8 per address");
            }
        } finally {
            for (AutoCloseable connection : held) {
                connection.close();
            }
        }

        DaemonMetrics metrics = new DaemonMetrics(daemon);
        try (Socket halfRequest = new Socket("127.0.0.1", metrics.port())) {
            halfRequest.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: canal\r\n".getBytes(StandardCharsets.US_ASCII));
            halfRequest.getOutputStream().flush();
            for (int i = 0; i < 3; i++) {
                assertThat(metrics.scrape()).contains("jvm_memory_pool_bytes_used");
            }
        }
        assertOfficialClientIsServed();
    }

    private void startDaemon(MySqlServer db) throws Exception {
        daemon = unpackDaemon(db);
        daemon.start();
    }

    private CanalDaemon unpackDaemon(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        writer = RowWriter.create(db, SCHEMA, 1, Duration.ZERO);
        return CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
    }

    /** The official client subscribes, and receives rows written now (and any it had not acked before). */
    private void assertOfficialClientIsServed() throws Exception {
        try (CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
            writer.writeNow(ROWS_PER_CHECK);
            daemon.awaitOrShowLogs("the official client receives the rows written", Duration.ofSeconds(60),
                    () -> consumer.distinctReceived() >= ROWS_PER_CHECK);
        }
    }

    private static void acceptAll(ServerSocket server, AtomicInteger accepted) {
        while (!server.isClosed()) {
            try (Socket ignored = server.accept()) {
                accepted.incrementAndGet();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static byte[] readFrame(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

    private static int occurrences(String text, String part) {
        Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
