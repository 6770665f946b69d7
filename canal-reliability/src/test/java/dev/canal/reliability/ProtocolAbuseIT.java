package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.protocol.CanalPacket;
import com.google.protobuf.ByteString;
import dev.canal.testsupport.MySqlServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 6 (docs/reliability.md): abuse of the client port while a writer writes and the official client
 * consumes: random bytes, a huge and a negative declared length, a truncated frame, a request before
 * authentication, wrong passwords until the server closes the connection, and as many idle connections as one
 * address may open. Each bad connection gets a clear answer (an error ACK, or the connection closed and logged);
 * the official client never has to reconnect and receives every row.
 */
// bad input on the client port: the source's flavour does not matter
@Tag("one-source")
class ProtocolAbuseIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(ProtocolAbuseIT.class);
    private static final String SCHEMA = "rel_protocol_abuse";
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    private static final int ERROR_BAD_REQUEST = 400;
    /** canal.client.max.connections.per.address (256) less the official client's connection and a margin. */
    private static final int IDLE_CONNECTIONS = 250;
    /** canal.client.auth.max.failures. */
    private static final int MAX_AUTH_FAILURES = 3;

    @Test
    void abusiveConnectionsGetClearErrorsWhileTheOfficialClientKeepsWorking(MySqlServer db) throws Exception {
        Random random = seededRandom("ProtocolAbuseIT");
        int trials = ResultsTable.trials();

        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 2, Duration.ofMillis(5));
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.user", "canal");
        daemon.set("conf/canal.properties", "canal.passwd", "E3619321C1A937C46A0D8BD1DAC39F93B27D4458"); // "canal"
        daemon.start();
        try (writer; CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
            writer.begin();
            for (int trial = 1; trial <= trials; trial++) {
                awaitProgress(consumer, writer);
                assertThat(randomBytesAreRefused(random)).as("random bytes: connection closed").isTrue();
                assertThat(randomFrameBodyIsRefused(random)).as("a frame of random bytes: connection closed").isTrue();
                assertThat(declaredLengthIsRefused(Integer.MAX_VALUE)).as("a 2 GiB declared length: closed").isTrue();
                assertThat(declaredLengthIsRefused(-5)).as("a negative declared length: closed").isTrue();
                assertThat(truncatedFrameIsDropped()).as("a truncated frame, then EOF: closed").isTrue();
                requestBeforeAuthenticationIsAnsweredAndClosed();
                wrongPasswordsAreRefusedUntilTheConnectionIsClosed(random, 2);
                awaitProgress(consumer, writer);
                idleConnectionsDoNotStopTheConsumer(consumer, writer);
            }
            writer.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= writer.total());
            consumer.close();

            DeliveryCheck check = DeliveryCheck.of(writer.committed(), consumer.rows());
            ResultsTable.record("protocol abuse on the client port (official client alongside)", trials, check, List.of());
            assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
            assertThat(check.orderBreaches()).as("%s", check).isEmpty();
            assertThat(consumer.sessions()).as("the official client never had to reconnect").isEqualTo(1);
            assertThat(daemon.log("logs/canal/canal.log")).as("bad input is logged").contains("after bad input");
        }
    }

    private boolean randomBytesAreRefused(Random random) throws IOException {
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.handshake();
            byte[] garbage = new byte[4096];
            random.nextBytes(garbage);
            client.sendRaw(garbage);
            return client.closedByServer();
        }
    }

    private boolean randomFrameBodyIsRefused(Random random) throws IOException {
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.handshake();
            byte[] body = new byte[200];
            random.nextBytes(body);
            client.sendRaw(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array());
            return client.closedByServer();
        }
    }

    private boolean declaredLengthIsRefused(int length) throws IOException {
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.handshake();
            client.sendRaw(ByteBuffer.allocate(4 + 16).putInt(length).array());
            return client.closedByServer();
        }
    }

    private boolean truncatedFrameIsDropped() throws IOException {
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.handshake();
            client.sendRaw(ByteBuffer.allocate(4 + 10).putInt(100).array());
            client.shutdownOutput();
            return client.closedByServer();
        }
    }

    private void requestBeforeAuthenticationIsAnsweredAndClosed() throws IOException {
        try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
            client.handshake();
            client.sendPacket(CanalPacket.PacketType.GET, CanalPacket.Get.newBuilder().setDestination(CanalDaemon.DESTINATION)
                    .setClientId("1001").setFetchSize(100).build().toByteString());
            CanalPacket.Ack ack = client.readAck();
            assertThat(ack.getErrorCode()).as("GET before auth: %s", ack.getErrorMessage()).isEqualTo(ERROR_BAD_REQUEST);
            assertThat(ack.getErrorMessage()).contains("GET");
            assertThat(client.closedByServer()).as("GET before auth: connection closed").isTrue();
        }
    }

    /**
     * {@code connections} connections, each trying wrong passwords: each is answered 400 up to
     * canal.client.auth.max.failures, and then the connection is closed.
     */
    private void wrongPasswordsAreRefusedUntilTheConnectionIsClosed(Random random, int connections) throws IOException {
        for (int c = 0; c < connections; c++) {
            try (RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS)) {
                client.handshake();
                for (int a = 0; a < MAX_AUTH_FAILURES; a++) {
                    byte[] token = new byte[20];
                    random.nextBytes(token);
                    client.sendPacket(CanalPacket.PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder()
                            .setUsername("canal").setPassword(ByteString.copyFromUtf8(HexFormat.of().formatHex(token)))
                            .build().toByteString());
                    CanalPacket.Ack ack = client.readAck();
                    assertThat(ack.getErrorCode()).as("wrong password, attempt %d", a).isEqualTo(ERROR_BAD_REQUEST);
                    assertThat(ack.getErrorMessage()).isEqualTo("auth failed for user:canal");
                }
                assertThat(client.closedByServer()).as("closed after %d wrong passwords", MAX_AUTH_FAILURES).isTrue();
            }
        }
    }

    private void idleConnectionsDoNotStopTheConsumer(CheckingConsumer consumer, RowWriter writer) throws IOException {
        List<RawClient> idle = new ArrayList<>();
        try {
            for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                RawClient client = new RawClient(daemon.port, READ_TIMEOUT_MILLIS);
                idle.add(client);
                client.handshake();
            }
            log.info("{} idle connections open, each greeted with a handshake", idle.size());
            awaitProgress(consumer, writer);
        } finally {
            for (RawClient client : idle) {
                client.close();
            }
        }
    }

    /** Waits until the consumer has every row written so far: it is being served. */
    private static void awaitProgress(CheckingConsumer consumer, RowWriter writer) {
        int written = writer.total();
        await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= written);
    }
}
